#pragma once
// report.json (fields documented in docs/report.md): one builder for the CLI's runs and the
// embedded drive (ssdtlm::Ssd::write_report), from the drive, its energy monitor and what the
// host saw.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/DriveConfig.h"
#include "model/Ssd.h"
#include "model/power/EnergyMonitor.h"
#include "report/HostStats.h"
#include "report/RunPhases.h"

namespace ssd::report {

// What the requests' source adds: its own objects (a trace's "trace", placed after
// `requests`) and what makes its requests suspect (into `warnings`, first).
struct SourceFacts {
  nlohmann::ordered_json objects = nlohmann::ordered_json::object();
  std::vector<std::string> warnings;
};

struct ReportInputs {
  const config::DriveConfig& cfg;
  const std::string& workload;
  const SourceFacts& source;
  const HostStats& host;
  const std::vector<FlowStats>& flows;
  const std::vector<nlohmann::ordered_json>& flows_alone;  // empty: not run alone
  // Each namespace's requests (cfg.namespace_layout() order), as flows; null: not kept.
  const std::vector<FlowStats>* namespaces;
  const model::Ssd& ssd;
  const model::EnergyMonitor& energy;
  const ScoreboardFigures* scoreboard;  // null: none (a drive that keeps no data)
  const RunPhases* phases;              // null: leave wall-clock figures out
};

nlohmann::ordered_json build_report(const ReportInputs& in);

// An amount per another (a write amplification: bytes per byte); null over none.
inline nlohmann::ordered_json ratio(double amount, double per) {
  return per > 0 ? nlohmann::ordered_json(amount / per) : nlohmann::ordered_json(nullptr);
}

// A rate over `seconds` of the run: 0 over no time.
inline double per_second(double amount, double seconds) {
  return seconds > 0 ? amount / seconds : 0.0;
}

}  // namespace ssd::report
