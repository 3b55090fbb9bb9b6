#pragma once
// report.json and the stdout summary (fields documented in docs/report.md).
#include <string>

#include <nlohmann/json.hpp>

#include "config/DriveConfig.h"
#include "ip/Scoreboard.h"
#include "model/Ssd.h"
#include "model/power/EnergyMonitor.h"
#include "tb/host/Host.h"
#include "tb/run/RunPhases.h"

namespace ssd::tb {

struct ReportInputs {
  const config::DriveConfig& cfg;
  const std::string& workload;
  const RequestSource& source;  // adds its own objects, e.g. "trace"
  const HostStats& host;
  const std::vector<Host::FlowResult>& flows;
  const std::vector<nlohmann::ordered_json>& flows_alone;  // empty: not run alone
  const model::Ssd& ssd;
  const model::EnergyMonitor& energy;
  const ip::Scoreboard& scoreboard;
  const RunPhases* phases;  // null: leave wall-clock figures out
};

nlohmann::ordered_json build_report(const ReportInputs& in);

// A rate over `seconds` of the run: 0 over no time.
inline double per_second(double amount, double seconds) {
  return seconds > 0 ? amount / seconds : 0.0;
}

}  // namespace ssd::tb
