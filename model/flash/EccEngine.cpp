#include "model/flash/EccEngine.h"

#include <algorithm>

namespace ssd::model::flash {

EccEngine::EccEngine(const config::ReliabilityConfig& r, double voltage_v, EnergyMonitor& monitor,
                     const std::string& name)
    : power_w_(r.i_ecc_ma * 1e-3 * voltage_v),
      psm_(monitor, name, "controller", voltage_v,
           {{PowerState::Idle, 0.0}, {PowerState::Active, r.i_ecc_ma}}, PowerState::Idle) {
  for (uint32_t s = 0; s < r.steps(); ++s) t_decode_.emplace_back(r.decode_us(s), sc_core::SC_US);
}

sc_core::sc_time EccEngine::decode(uint32_t step, const sc_core::sc_time& ready, double& joules) {
  const sc_core::sc_time start = std::max(ready, free_at_);
  const sc_core::sc_time& length = t_decode_[step];
  free_at_ = start + length;
  ++decodes_;
  busy_ += length;
  queued_ += start - ready;
  if (length != sc_core::SC_ZERO_TIME) psm_.occupy(PowerState::Active, start, free_at_);
  joules += power_w_ * double(length.value()) * 1e-12;
  return free_at_;
}

}  // namespace ssd::model::flash
