#pragma once
// What a loss of the supply takes from the hold-up capacitors (power.hold_up,
// docs/reliability.md#power-loss), exact from the drive's piecewise-constant power at its rails:
// the energy it drew from the loss to the end of the work that followed (the flush), and the
// time at which that energy passed what the capacitors hold, where the drive stopped, and the
// bank's voltage as it discharges.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

#include "model/power/PowerState.h"

namespace ssd::model {

class HoldUpMeter {
 public:
  // The supply fails at loss_ps; the bank of capacitance_f, charged to charged_v, gives energy
  // down to cutoff_v: C (charged_v^2 - cutoff_v^2) / 2.
  HoldUpMeter(uint64_t loss_ps, double capacitance_f, double charged_v, double cutoff_v)
      : loss_ps_(loss_ps),
        held_(EnergyNwPs(0.5 * capacitance_f * (charged_v * charged_v - cutoff_v * cutoff_v) *
                         1e21)),  // J to nW x ps
        capacitance_f_(capacitance_f),
        charged_v_(charged_v),
        cutoff_v_(cutoff_v) {}

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
  // The bank's voltage once the energy counted so far is drawn: sqrt(charged^2 - 2 E / C),
  // held at cutoff_v once it is reached (the drive stops there); 0 without capacitors.
  double bank_v() const {
    if (capacitance_f_ <= 0) return 0;
    const double v2 = charged_v_ * charged_v_ - 2 * double(used_) * 1e-21 / capacitance_f_;
    return std::max(v2 > 0 ? std::sqrt(v2) : 0.0, cutoff_v_);
  }
  double charged_v() const { return capacitance_f_ > 0 ? charged_v_ : 0; }
  // When the energy drawn since the loss passed what the capacitors hold; none if it never did
  // before the flush ended.
  const std::optional<uint64_t>& runs_out_ps() const { return runs_out_ps_; }

 private:
  uint64_t loss_ps_;
  EnergyNwPs held_;
  double capacitance_f_, charged_v_, cutoff_v_;
  uint64_t until_ps_ = UINT64_MAX;
  EnergyNwPs used_ = 0;
  std::optional<uint64_t> runs_out_ps_;
};

}  // namespace ssd::model
