#include "model/power/MonitorOptions.h"

#include <memory>

#include "model/power/PowerBudget.h"
#include "model/thermal/ThermalModel.h"

namespace ssd::model {

EnergyMonitor::Options monitor_options(const config::DriveConfig& cfg) {
  EnergyMonitor::Options mo;
  const auto& power = cfg.power;
  mo.rails.clear();
  for (const auto& r : power.rails) mo.rails.push_back({r.name, r.voltage_v, r.i_baseline_ma});
  for (const auto& [group, reg] : power.regulators.by_group())
    mo.regulators.push_back({group, uint32_t(power.rail_index(reg->rail)), reg->efficiency});
  mo.window = sc_core::sc_time(power.window_us, sc_core::SC_US);
  for (double w : power.peak_windows_us) mo.peak_windows.emplace_back(w, sc_core::SC_US);
  mo.current_levels_ma = power.current_levels_ma;
  if (cfg.power_budget.enabled) mo.power_cap_nw = PowerBudget::configured(cfg).power_nw;
  if (cfg.thermal.enabled)
    mo.thermal = std::make_shared<ThermalModel>(ThermalModel::from_config(cfg));
  return mo;
}

}  // namespace ssd::model
