#pragma once
// report.json's "fdp" object and its summary line: flexible data placement's statistics, the
// endurance group's (NVMe FDP's host bytes written, media bytes written and erased) and each
// reclaim unit handle's (ftl.fdp; docs/report.md#flexible-data-placement). Absent without it.
#include <string>

#include <nlohmann/json.hpp>

#include "report/Report.h"

namespace ssd::report {

// Null when ftl.fdp is off.
nlohmann::ordered_json placement_json(const ReportInputs& in);
// The summary's line for it ("" without one).
std::string placement_summary(const nlohmann::ordered_json& report);

}  // namespace ssd::report
