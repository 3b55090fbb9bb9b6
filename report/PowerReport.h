#pragma once
// report.json's power figures beyond the energy: each supply rail's, what a power analyser on
// the supply shows, the founding study's NAND breakdown, the power budget's record, the
// thermal model's and a power loss's (docs/report.md#supply-rails and after).
#include <vector>

#include <nlohmann/json.hpp>

#include "model/power/EnergyMonitor.h"
#include "report/Report.h"

namespace ssd::report {

nlohmann::ordered_json rails_json(const model::EnergyMonitor& energy);
nlohmann::ordered_json analyser_json(const model::EnergyMonitor& energy,
                                     const std::vector<double>& levels_ma);
nlohmann::ordered_json nand_breakdown_json(const model::EnergyMonitor& energy);
// Absent without a budget, and without a thermal model.
nlohmann::ordered_json power_budget_json(const ReportInputs& in);
nlohmann::ordered_json thermal_json(const ReportInputs& in);
// A loss of the supply (power.hold_up; docs/reliability.md#power-loss); absent without one.
nlohmann::ordered_json power_loss_json(const ReportInputs& in);

}  // namespace ssd::report
