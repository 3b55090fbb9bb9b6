// The energy monitor's part in a loss of the supply (power.hold_up): its meter, fed every
// power segment once armed, and the bank's voltage in the waveform. Out of EnergyMonitor.cpp:
// one concern, and off every run's hot path.
#include <algorithm>

#include "model/power/EnergyMonitor.h"

namespace ssd::model {

void EnergyMonitor::meter_hold_up(const HoldUpMeter& meter) {
  hold_up_.emplace(meter);
  const auto& probes = opts_.vcd_probes;
  const auto it = std::find(probes.begin(), probes.end(), kHoldUpProbe);
  if (it != probes.end()) bank_probe_ = uint32_t(it - probes.begin());
}

void EnergyMonitor::meter_hold_up(uint64_t start, uint64_t end) {
  const EnergyNwPs before = hold_up_->used_nwps();
  hold_up_->add(start, end, drive_power_nw_);
  if (bank_probe_ == UINT32_MAX || !vcd_) return;
  // Charged from the first segment on; then its voltage at the end of each segment it fed.
  if (!bank_charged_) {
    vcd_->change_probe(start, bank_probe_, hold_up_->charged_v());
    bank_charged_ = true;
  }
  if (hold_up_->used_nwps() != before) vcd_->change_probe(end, bank_probe_, hold_up_->bank_v());
}

}  // namespace ssd::model
