#pragma once
// report.json's `low_power` object and its summary line (docs/report.md#low-power-states):
// time, energy and transitions of the host link's low-power states, DRAM self-refresh and
// die power-down. Present only when one of them is configured.
#include <string>

#include <nlohmann/json.hpp>

#include "config/DriveConfig.h"
#include "report/Report.h"

namespace ssd::report {

bool low_power_enabled(const config::DriveConfig& cfg);
nlohmann::ordered_json low_power_json(const ReportInputs& in);
std::string low_power_summary(const nlohmann::ordered_json& low_power);

}  // namespace ssd::report
