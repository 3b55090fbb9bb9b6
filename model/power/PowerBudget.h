#pragma once
// The controller's drive-wide power budget (docs/thermal.md#peak-power-budget), shared by every
// flash channel's sequencer. A die operation starts only if the drive's worst case with it
// stays within the cap: everything the budget does not gate (board baseline, host interface,
// controller, DRAM, channel buses) at its highest state's power, every die at its rest power,
// plus, for each operation started and not yet ended, its highest state's power above rest.
// Powers are the monitor's own integer nanowatts at the rails, so the recorded drive power
// can never exceed the cap. An operation that does not fit waits, first come first served
// across channels, until operations end; the thermal throttle may lower the cap or the number
// of operations at once.
#include <array>
#include <cstdint>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "config/DriveConfig.h"
#include "config/json/Problems.h"
#include "model/SsdExtensions.h"
#include "model/power/EnergyMonitor.h"

namespace ssd::model {

class PowerBudget {
 public:
  struct Limits {
    int64_t power_nw = INT64_MAX;      // drive power at the rails
    uint32_t operations = UINT32_MAX;  // die operations at once
  };
  using Slot = uint32_t;
  static constexpr Slot kNone = UINT32_MAX;

  // `cap_key` names the config key of the cap in errors.
  PowerBudget(Limits limits, std::string cap_key);
  // The configured cap (power_budget; none when it is off), and the key naming it.
  static Limits configured(const config::DriveConfig& cfg);
  static std::string cap_key(const config::DriveConfig& cfg);

  // Takes the components' powers once all are registered. An operation that alone would
  // exceed the cap (it could never start) is a problem naming the cap's key.
  void prepare(const EnergyMonitor& monitor, config::Problems& problems);
  // Further limits (a throttled cap) checked the same way; `key` names them in problems.
  void check(const Limits& limits, const std::string& key, config::Problems& problems) const;

  // Asks to start an operation of `kind` on die `die` now; `multiplane`: it may run on
  // several planes. Returns its slot, or kNone if it must wait: with `queue`, the die takes
  // its turn and `wake` is notified when power is released.
  Slot acquire(uint32_t die, FlashOp kind, bool multiplane, const sc_core::sc_time& now, bool queue,
               sc_core::sc_event& wake);
  // The operation ends at `end` (>= now): its power counts until then.
  void release(Slot s, const sc_core::sc_time& end);
  // Replaces the limits in force (throttling); operations started keep running.
  void set_limits(const Limits& limits, const sc_core::sc_time& now);

  struct Stats {
    uint64_t operations = 0;  // started under the budget
    uint64_t waited = 0;      // of which had to wait
    sc_core::sc_time wait;    // their total wait
    sc_core::sc_time max_wait;
    // Of `wait`, that of operations admitted while a throttle's limits were in force.
    sc_core::sc_time wait_throttled;
  };
  const Stats& stats() const { return stats_; }
  const Limits& base() const { return base_; }
  int64_t floor_nw() const { return floor_nw_; }  // the drive's worst case with no operation
  // Highest power above rest of an operation of `kind` (multi-plane: on several planes).
  int64_t need_nw(FlashOp kind, bool multiplane) const;

 private:
  struct Ticket {
    uint32_t die;
    sc_core::sc_time since;
    sc_core::sc_event* wake;
  };
  // Ends operations whose end is at or before `now`.
  void expire(const sc_core::sc_time& now);
  void wake_all(const sc_core::sc_time& at);

  Limits base_, limits_;
  std::string cap_key_;
  int64_t floor_nw_ = 0;
  // By FlashOp Read, Program, Erase, then single-plane / multi-plane.
  std::array<std::array<int64_t, 2>, 3> need_nw_{};
  int64_t used_nw_ = 0;
  uint32_t running_ = 0;
  std::vector<int64_t> slots_;  // power of each open operation (-1: free)
  std::vector<Slot> free_;
  // Ended operations not yet past their end: (end in ps, power), earliest first.
  std::priority_queue<std::pair<uint64_t, int64_t>, std::vector<std::pair<uint64_t, int64_t>>,
                      std::greater<>>
      ending_;
  std::vector<Ticket> tickets_;  // waiting dies, first come first
  Stats stats_;
};

}  // namespace ssd::model
