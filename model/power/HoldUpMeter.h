#pragma once
// What a loss of the supply takes from the hold-up capacitors (power.hold_up,
// docs/reliability.md#power-loss), exact from the drive's piecewise-constant power at its rails:
// the energy it drew from the loss to the end of the work that followed (the flush), and the
// time at which that energy passed what the capacitors hold, where the drive stopped.
#include <algorithm>
#include <cstdint>
#include <optional>

#include "model/power/PowerState.h"

namespace ssd::model {

class HoldUpMeter {
 public:
  // The supply fails at loss_ps; the capacitors hold held_nwps (nW x ps).
  HoldUpMeter(uint64_t loss_ps, EnergyNwPs held_nwps) : loss_ps_(loss_ps), held_(held_nwps) {}

  // The drive drew power_nw over [start, end), in time order.
  void add(uint64_t start, uint64_t end, int64_t power_nw) {
    start = std::max(start, loss_ps_);
    end = std::min(end, until_ps_);
    if (end <= start) return;
    const EnergyNwPs e = EnergyNwPs(power_nw) * EnergyNwPs(end - start);
    if (!runs_out_ps_ && used_ + e > held_ && power_nw > 0) {
      // The last picosecond the held energy still covers whole.
      const EnergyNwPs left = held_ - used_;
      runs_out_ps_ = start + uint64_t(left / power_nw);
    }
    used_ += e;
  }
  // The flush ended at t_ps (>= the loss; before anything after it is added): what the drive
  // draws later is not counted.
  void flush_ended(uint64_t t_ps) { until_ps_ = t_ps; }

  uint64_t loss_ps() const { return loss_ps_; }
  EnergyNwPs held_nwps() const { return held_; }
  EnergyNwPs used_nwps() const { return used_; }  // over [loss, flush end)
  // When the energy drawn since the loss passed what the capacitors hold; none if it never did
  // before the flush ended.
  const std::optional<uint64_t>& runs_out_ps() const { return runs_out_ps_; }

 private:
  uint64_t loss_ps_;
  EnergyNwPs held_;
  uint64_t until_ps_ = UINT64_MAX;
  EnergyNwPs used_ = 0;
  std::optional<uint64_t> runs_out_ps_;
};

}  // namespace ssd::model
