#pragma once
// The run's summary on stdout: a few lines read from report.json.
#include <string>

#include <nlohmann/json.hpp>

namespace ssd::report {

std::string summarize(const nlohmann::ordered_json& report);

}  // namespace ssd::report
