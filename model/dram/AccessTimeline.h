#pragma once
// The DRAM's timeline of reserved work not yet reported to the energy monitor: its power-state
// changes in time order (active over each access, idle between; self-refresh after a long
// idle). Several initiators (the controller's cores, the read engine) reserve accesses each
// from its own timeline, which runs ahead of simulated time by its own amount, so an access
// asked for later may start earlier: it takes the first idle gap between two accesses it fits
// in, before work reserved already. A gap is only between accesses: never where the DRAM
// enters, rests in or leaves self-refresh (an access there waits after the reserved work, as
// one initiator's do). The changes are reported in time order when the energy monitor commits,
// once simulated time has passed them; no access is placed before simulated time.
#include <cstddef>
#include <vector>

#include <systemc>

#include "model/power/PowerState.h"

namespace ssd::model {

class AccessTimeline {
 public:
  struct Change {
    sc_core::sc_time t;
    PowerState state;
    bool gap;  // to idle at an access's end (not on the way out of self-refresh)
  };

  // The earliest start at or after `from` of a gap between two accesses that holds `length`
  // (into `start`); false if there is none.
  bool fit(const sc_core::sc_time& from, const sc_core::sc_time& length,
           sc_core::sc_time& start) const;
  // Active over [start, finish): a gap fit() found, or after every change. Touching accesses
  // merge (the monitor would merge their reports).
  void reserve(const sc_core::sc_time& start, const sc_core::sc_time& finish);
  // A change to `s` at `t`, after every change (self-refresh entry and exit).
  void change(const sc_core::sc_time& t, PowerState s) { changes_.push_back({t, s, false}); }
  // Removes the changes before `horizon`, in time order, handing each to report(t, state).
  template <class Report>
  void take_before(const sc_core::sc_time& horizon, Report&& report) {
    std::size_t i = head_;
    for (; i < changes_.size() && changes_[i].t < horizon; ++i) {
      report(changes_[i].t, changes_[i].state);
      reported_ = changes_[i];
    }
    head_ = i;
    if (head_ == changes_.size()) {
      changes_.clear();
      head_ = 0;
    } else if (head_ >= 64 && 2 * head_ >= changes_.size()) {
      changes_.erase(changes_.begin(), changes_.begin() + std::ptrdiff_t(head_));
      head_ = 0;
    }
  }
  bool empty() const { return head_ == changes_.size(); }

 private:
  // The first pending change after `t`.
  std::size_t after(const sc_core::sc_time& t) const;
  std::vector<Change> changes_;  // [head_, size): pending, in time order
  std::size_t head_ = 0;
  // The last one reported: idle from time 0, awake.
  Change reported_{sc_core::SC_ZERO_TIME, PowerState::Idle, true};
};

}  // namespace ssd::model
