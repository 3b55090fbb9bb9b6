#pragma once
// report.json's "lifetime" object and its summary line: what the lifetime manager did
// (lifetime.mode; docs/lifetime.md, docs/report.md#lifetime). Absent when the manager is off.
#include <string>

#include <nlohmann/json.hpp>

#include "report/Report.h"

namespace ssd::report {

// Null when lifetime.mode is off.
nlohmann::ordered_json lifetime_json(const ReportInputs& in);
// The summary's line for it ("" without one).
std::string lifetime_summary(const nlohmann::ordered_json& report);

}  // namespace ssd::report
