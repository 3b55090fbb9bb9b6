#pragma once
// The statistics groups (firmware/Statistics.h) as report.json objects (docs/report.md):
// counters as integers, totals and derived values as numbers, an undefined value as null.
// Both the testbench's report and the embedded drive's (ssdtlm::Ssd) walk them here.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "firmware/Statistics.h"

namespace ssd {

// Appends to report[group] the figures each owner registered under `group`, owner by owner in
// registration order; report[group] is left out if none registered the group.
void add_figures(nlohmann::ordered_json& report, const std::vector<const Statistics*>& owners,
                 const std::string& group);

// The value of figure `name` of `group`, from the first owner that registered it; nullopt if
// none did or the value is undefined.
std::optional<double> figure_value(const std::vector<const Statistics*>& owners,
                                   const std::string& group, const std::string& name);

}  // namespace ssd
