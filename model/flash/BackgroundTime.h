#pragma once
// When a die worked on background operations (GC, wear levelling, merges, folding), so that a
// host command can be told how long it waited for them: the die's background time between the
// moment the command was ready and the moment it started. Intervals come in time order (a
// die runs one operation at a time; a suspended one counts up to its suspension, and again
// from its resumption). Those that end before every command still queued at the die became
// ready are dropped as they pile up. The channel keeps a second record of the same kind for
// the spans a die was held for power (its wake from power-down, the power budget).
//
// Plain C++: tb/tests/BackgroundTimeTest.cpp.
#include <cstddef>
#include <vector>
#include <systemc>

namespace ssd::model::flash {

class BackgroundTime {
 public:
  // The die worked on background operations over [start, end).
  void add(const sc_core::sc_time& start, const sc_core::sc_time& end);
  // Background time within [from, to).
  sc_core::sc_time between(const sc_core::sc_time& from, const sc_core::sc_time& to) const {
    return spans_.size() == first_ || to <= from ? sc_core::SC_ZERO_TIME : upto(to) - upto(from);
  }
  // No background work kept (none recorded, or all forgotten).
  bool empty() const { return spans_.size() == first_; }
  // Enough has been added since the last forgetting that another is worth its cost (the kept
  // spans doubled, and at least 512), so a command queued for long does not make every
  // caller look again.
  bool crowded() const { return spans_.size() - first_ >= crowded_at_; }
  // Nothing before `t` will be asked for again.
  void forget_before(const sc_core::sc_time& t);

 private:
  struct Span {
    sc_core::sc_time start, end;
    sc_core::sc_time before;  // background time of the spans before it
  };
  // Background time before `t` (of the spans kept; the ones dropped count as before any t).
  sc_core::sc_time upto(const sc_core::sc_time& t) const;

  std::vector<Span> spans_;
  std::size_t first_ = 0;  // spans_[first_..] are kept
  std::size_t crowded_at_ = 512;
};

}  // namespace ssd::model::flash
