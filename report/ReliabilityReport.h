#pragma once
// report.json's `reliability` (aging NAND, flash.reliability; docs/report.md#reliability): the
// reads by the retry steps they needed, those no step corrected, and the channels' ECC engines.
#include <nlohmann/json.hpp>

#include "report/Report.h"

namespace ssd::report {

nlohmann::ordered_json reliability_json(const ReportInputs& in);

}  // namespace ssd::report
