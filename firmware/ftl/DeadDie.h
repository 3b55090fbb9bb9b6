#pragma once
// A die that stops answering (flash.faults.dead_die,
// docs/reliability.md#a-die-that-stops-answering): when the firmware learns it, the logical units
// lost with it and the figures. The FTLs act on it (firmware/ftl/PageLevelDeadDie.cpp,
// firmware/ftl/LogBlockDeadDie.cpp).
#include <cstdint>
#include <optional>
#include <vector>

#include <systemc>

#include "config/FaultConfig.h"
#include "firmware/Ftl.h"
#include "firmware/Statistics.h"

namespace ssd::fw {

class DeadDie {
 public:
  explicit DeadDie(const config::FaultConfig& cfg);

  uint32_t die() const { return die_; }
  // Whether the firmware is to learn, by `now`, that the die stopped answering; it learns it once
  // (learned, at `now_s`).
  bool due(const sc_core::sc_time& now) const { return pending_ && now >= at_; }
  void learned(double now_s) {
    pending_ = false;
    learned_at_s_ = now_s;
  }
  // Whether the firmware knows the die is gone.
  bool known() const { return learned_at_s_.has_value(); }
  // The units mapped there are lost (sorted here).
  void lost(std::vector<Lpn>& lost);
  // A unit the firmware held for the die (a write buffer's page) is lost too, once learned.
  void lost_later(Lpn lpn);
  // The logical ranges the dead die took, in order.
  const std::vector<Ftl::LostRange>& lost_ranges() const { return lost_ranges_; }
  void register_figures(Statistics& statistics);

  uint64_t reads_lost = 0;  // unit reads that found their unit lost with the die

 private:
  uint32_t die_;
  bool pending_;  // yet to stop answering, as far as the firmware knows
  sc_core::sc_time at_;
  std::optional<double> learned_at_s_;
  uint64_t units_lost_ = 0;
  std::vector<Ftl::LostRange> lost_ranges_;
};

}  // namespace ssd::fw
