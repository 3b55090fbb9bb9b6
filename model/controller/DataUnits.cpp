#include "model/controller/DataUnits.h"

#include <string>

namespace ssd::model::controller {

namespace {

bool offsets_in_sram(const config::FtlConfig& ftl) {
  return ftl.type == config::FtlType::Block &&
         ftl.block_update == config::BlockUpdate::Replacement &&
         ftl.block_read_lookup == config::BlockReadLookup::Sram;
}

}  // namespace

DataUnits::DataUnits(EnergyMonitor& monitor, const config::DriveConfig& cfg) : units_(3) {
  // Drawn from the controller's supply: mW / V is mA.
  const double v = cfg.controller.voltage_v;
  const auto add = [&](fw::Unit unit, const std::string& name, double idle_ma, double active_ma,
                       double active_w) {
    units_[static_cast<std::size_t>(unit)] = DataUnit{
        std::make_unique<PowerStateMachine>(
            monitor, name, "controller", v,
            std::vector<StateCurrent>{{PowerState::Idle, idle_ma}, {PowerState::Active, active_ma}},
            PowerState::Idle),
        active_w, sc_core::SC_ZERO_TIME};
  };
  if (cfg.lifetime.enabled()) {
    add(fw::Unit::Hash, "dedup_unit", 0.0, cfg.lifetime.p_hash_mw / v,
        cfg.lifetime.p_hash_mw * 1e-3);
    add(fw::Unit::Compression, "compression_unit", 0.0, cfg.lifetime.p_compress_mw / v,
        cfg.lifetime.p_compress_mw * 1e-3);
  }
  if (offsets_in_sram(cfg.ftl))
    add(fw::Unit::Sram, "offset_sram", cfg.ftl.i_sram_standby_ma, cfg.ftl.i_sram_active_ma,
        cfg.ftl.i_sram_active_ma * 1e-3 * v);
}

double DataUnits::work(fw::Unit unit, const sc_core::sc_time& start,
                       const sc_core::sc_time& duration) {
  DataUnit& u = units_.at(static_cast<std::size_t>(unit));
  u.psm->occupy(PowerState::Active, start, start + duration);
  u.free_at = start + duration;
  return u.active_w * to_seconds(duration);
}

}  // namespace ssd::model::controller
