#pragma once
// report.json's `utilisation` (docs/report.md#utilisation): how busy each resource was and how
// long requests waited for it, over the whole energy span, the host phase and the tail after it.
#include <nlohmann/json.hpp>

#include "report/Report.h"

namespace ssd::report {

nlohmann::ordered_json utilisation_json(const ReportInputs& in);

}  // namespace ssd::report
