#pragma once
// report.json's figures per flow (`flows`, `fairness`) and per namespace (`namespaces`): each a
// share of the host's requests with its own rate and latency (docs/report.md#flows,
// docs/report.md#namespaces).
#include <vector>

#include <nlohmann/json.hpp>

#include "config/DriveConfig.h"
#include "firmware/BlockManager.h"
#include "model/controller/NamespaceFlash.h"
#include "report/HostStats.h"
#include "report/LatencyStats.h"

namespace ssd::fw::zns {
class ZonedCommands;
}

namespace ssd::report {

// One kind of request's `latency_us`: its count, and its figures when it has any (null for a
// kind the run or flow did not issue, not a latency of 0).
nlohmann::ordered_json latency_figures(const LatencyStats& l, const LatencyStats::Summary& s);

// Each flow's requests, rate and latency; with `alone` (each flow's figures run alone, or
// empty), what it saw alone and its slowdown. `all`: the run's requests and `all_latency` their
// latency_us (a flow that is the whole run takes them). `faults`: injected faults are on.
nlohmann::ordered_json flows_json(const std::vector<FlowStats>& flows,
                                  const std::vector<nlohmann::ordered_json>& alone,
                                  const HostStats& all, const nlohmann::ordered_json& all_latency,
                                  bool faults);

// Erase counts' `min`, `max`, `mean` and `std` (report.json's `erase_counts`, a zoned
// namespace's `zoned.erase_counts`).
nlohmann::ordered_json erase_counts_json(const fw::BlockManager::EraseSummary& e);

// A host's zone commands (`append`, `zone_action`, `failed_status`) added to `out`: the run's
// `requests`, a zoned namespace's `zoned`.
void add_zone_commands(nlohmann::ordered_json& out, const HostStats& h);

// MQSim's fairness (Tavakkol et al., FAST 2018) over flows_json's flows run alone.
double fairness(const nlohmann::ordered_json& flows);

// Flash operations' energy by kind, and their total.
nlohmann::ordered_json flash_energy_json(const model::controller::FlashEnergy& e);

// Each namespace of `cfg` (cfg.namespace_layout() order, `namespaces` its requests, `flash`
// the flash units its data took and their operations' energy): where it lies, its bytes, its
// flash bytes, write amplification and flash energy, and the figures a flow has; a zoned
// namespace's zones (`zoned`, the firmware's) and zone commands as well.
nlohmann::ordered_json namespaces_json(const config::DriveConfig& cfg,
                                       const std::vector<FlowStats>& namespaces,
                                       const model::controller::NamespaceFlash& flash,
                                       const fw::zns::ZonedCommands& zoned, const HostStats& all,
                                       const nlohmann::ordered_json& all_latency);

}  // namespace ssd::report
