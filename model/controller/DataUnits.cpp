#include "model/controller/DataUnits.h"

#include <utility>

namespace ssd::model::controller {

DataUnits::DataUnits(EnergyMonitor& monitor, const config::DriveConfig& cfg) {
  if (!cfg.lifetime.enabled()) return;
  // Drawn from the controller's supply: mW / V is mA.
  const double v = cfg.controller.voltage_v;
  for (const auto& [unit, mw] : {std::pair{"dedup_unit", cfg.lifetime.p_hash_mw},
                                 std::pair{"compression_unit", cfg.lifetime.p_compress_mw}})
    units_.push_back(DataUnit{
        std::make_unique<PowerStateMachine>(
            monitor, unit, "controller", v,
            std::vector<StateCurrent>{{PowerState::Idle, 0.0}, {PowerState::Active, mw / v}},
            PowerState::Idle),
        mw * 1e-3});
}

double DataUnits::work(fw::Unit unit, const sc_core::sc_time& start,
                       const sc_core::sc_time& duration) {
  DataUnit& u = units_.at(static_cast<std::size_t>(unit));
  u.psm->occupy(PowerState::Active, start, start + duration);
  return u.active_w * to_seconds(duration);
}

}  // namespace ssd::model::controller
