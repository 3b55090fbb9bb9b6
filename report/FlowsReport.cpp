#include "report/FlowsReport.h"

#include <algorithm>
#include <utility>

#include "firmware/zns/ZonedCommands.h"
#include "report/Report.h"

namespace ssd::report {
namespace {

// The mean latency of a flow's reads and writes together.
double mean_latency_us(const nlohmann::ordered_json& flow) {
  const auto& l = flow["latency_us"];
  const double n = double(l["read"]["count"].get<uint64_t>() + l["write"]["count"].get<uint64_t>());
  if (n == 0) return 0;
  double total_us = 0;
  for (const char* kind : {"read", "write"})
    if (l[kind]["count"].get<uint64_t>() != 0)
      total_us += l[kind]["mean"].get<double>() * double(l[kind]["count"].get<uint64_t>());
  return total_us / n;
}

// A flow's (or a namespace's) requests, rate and latency, over the span from the start to its
// own last completion. `all`: the run's requests and their latency_us (a flow that is the whole
// run takes them). `faults`: injected faults, which may turn the drive read-only (its refused
// writes).
nlohmann::ordered_json requests_json(const HostStats& h, const HostStats& all,
                                     const nlohmann::ordered_json& all_latency, bool faults) {
  const uint64_t count = h.count();
  const double span_s = h.last_completion.to_seconds();
  nlohmann::ordered_json latency;
  if (&h == &all) {
    latency = {{"read", all_latency["read"]}, {"write", all_latency["write"]}};
  } else {
    for (const auto& [kind, l] :
         {std::pair{"read", &h.read_latency}, {"write", &h.write_latency}}) {
      latency[kind] = latency_figures(*l, l->summarize());
    }
  }
  nlohmann::ordered_json out = {
      {"requests", count},
      {"read", h.reads},
      {"write", h.writes},
      {"span_s", span_s},
      {"iops", per_second(double(count), span_s)},
      {"bandwidth_mbps", per_second(double(h.read_bytes + h.write_bytes) / 1e6, span_s)},
      {"latency_us", std::move(latency)}};
  out["mean_latency_us"] = mean_latency_us(out);
  if (faults) out["failed_read_only"] = h.failed_read_only;
  return out;
}

// A zoned namespace's zones (their state at the end and what happened to them) and the zone
// commands its host sent (docs/report.md#namespaces).
nlohmann::ordered_json zoned_json(const fw::zns::ZonedNamespace& ns, const HostStats& h) {
  const fw::zns::Zones& zones = ns.zones();
  const fw::zns::ZoneCounts& c = zones.counts();
  const fw::zns::ZoneFlashStats& f = ns.flash().stats();
  nlohmann::ordered_json out = {{"zones", zones.zones()},
                                {"open_zones", zones.open_zones()},
                                {"active_zones", zones.active_zones()},
                                {"zones_filled", c.filled},
                                {"zones_finished", c.finishes},
                                {"zones_reset", c.resets},
                                {"units_written", f.units_written},
                                {"pages_programmed", f.pages_programmed},
                                {"units_padded", f.units_padded},
                                {"blocks_erased", f.blocks_erased},
                                {"erase_counts", erase_counts_json(ns.flash().erase_summary())}};
  add_zone_commands(out, h);
  out["zone_action_latency_us"] =
      latency_figures(h.zone_action_latency, h.zone_action_latency.summarize());
  return out;
}

// What the host's zone translation layer did on a namespace (docs/report.md#namespaces):
// its host requests and their latency, what it sent the drive, and the write amplification
// of its side (bytes sent per byte the host wrote) and end to end (flash bytes programmed per
// byte the host wrote: the host's side times the drive's `waf`).
nlohmann::ordered_json translation_json(const TranslationStats& t, uint64_t programmed) {
  const auto per_host_byte = [&t](uint64_t bytes) { return ratio(bytes, t.host_bytes_written); };
  return {{"chunk_bytes", t.chunk_bytes},
          {"open_zones", t.open_zones},
          {"gc_zones", t.gc_zones},
          {"free_zones", t.free_zones},
          {"spare_zones", t.spare_zones},
          {"capacity_bytes", t.capacity_bytes},
          {"requests", t.reads + t.writes + t.trims},
          {"read", t.reads},
          {"write", t.writes},
          {"trim", t.trims},
          {"read_unmapped", t.reads_unmapped},
          {"failed", t.failed},
          {"read_bytes", t.read_bytes},
          {"write_bytes", t.write_bytes},
          {"latency_us",
           {{"read", latency_figures(t.read_latency, t.read_latency.summarize())},
            {"write", latency_figures(t.write_latency, t.write_latency.summarize())}}},
          {"host_bytes_written", t.host_bytes_written},
          {"bytes_sent", t.bytes_sent},
          {"gc_bytes_copied", t.gc_bytes_copied},
          {"rmw_bytes_read", t.rmw_bytes_read},
          {"zones_reset", t.zones_reset},
          {"waf_host", per_host_byte(t.bytes_sent)},
          {"waf_end_to_end", per_host_byte(programmed)}};
}

}  // namespace

nlohmann::ordered_json erase_counts_json(const fw::BlockManager::EraseSummary& e) {
  return {{"min", e.min}, {"max", e.max}, {"mean", e.mean}, {"std", e.std}};
}

void add_zone_commands(nlohmann::ordered_json& out, const HostStats& h) {
  out["append"] = h.appends;
  out["zone_action"] = h.zone_actions;
  out["zone_report"] = h.zone_reports;
  out["failed_status"] = h.failed_status;
}

nlohmann::ordered_json latency_figures(const LatencyStats& l, const LatencyStats::Summary& s) {
  const auto figure = [&l](double us) { return l.count() ? nlohmann::ordered_json(us) : nullptr; };
  return {{"count", l.count()},      {"mean", figure(s.mean_us)}, {"p50", figure(s.p50_us)},
          {"p99", figure(s.p99_us)}, {"p999", figure(s.p999_us)}, {"p9999", figure(s.p9999_us)},
          {"max", figure(s.max_us)}};
}

// Each flow's requests, rate and latency (docs/report.md#flows); with `alone`, what it saw
// alone and its slowdown.
nlohmann::ordered_json flows_json(const std::vector<FlowStats>& flows,
                                  const std::vector<nlohmann::ordered_json>& alone,
                                  const HostStats& all, const nlohmann::ordered_json& all_latency,
                                  bool faults) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const FlowStats& f : flows) {
    nlohmann::ordered_json flow = {{"name", f.name}, {"queue", f.queue}};
    flow.update(requests_json(*f.stats, all, all_latency, faults));
    out.push_back(std::move(flow));
  }
  if (alone.size() != out.size()) return out;
  for (std::size_t i = 0; i < out.size(); ++i) {
    auto& f = out[i];
    const double alone_us = mean_latency_us(alone[i]);
    f["alone"] = {{"iops", alone[i]["iops"]},
                  {"mean_latency_us", alone_us},
                  {"latency_us", alone[i]["latency_us"]}};
    f["slowdown"] = alone_us > 0 ? f["mean_latency_us"].get<double>() / alone_us : 0.0;
  }
  return out;
}

// MQSim's fairness (Tavakkol et al., FAST 2018): the least slowdown over the greatest; 1 when
// every flow is slowed alike.
double fairness(const nlohmann::ordered_json& flows) {
  double lo = 0, hi = 0;
  for (const auto& f : flows) {
    const double s = f["slowdown"].get<double>();
    lo = lo == 0 ? s : std::min(lo, s);
    hi = std::max(hi, s);
  }
  return hi > 0 ? lo / hi : 0.0;
}

nlohmann::ordered_json flash_energy_json(const model::controller::FlashEnergy& e) {
  return {{"read", e.read_j},
          {"program", e.program_j},
          {"erase", e.erase_j},
          {"total", e.read_j + e.program_j + e.erase_j}};
}

nlohmann::ordered_json namespaces_json(const config::DriveConfig& cfg,
                                       const std::vector<FlowStats>& namespaces,
                                       const model::controller::NamespaceFlash& flash,
                                       const fw::zns::ZonedCommands& zoned, const HostStats& all,
                                       const nlohmann::ordered_json& all_latency) {
  const std::vector<config::NamespaceRange> layout = cfg.namespace_layout();
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < layout.size(); ++i) {
    const HostStats& s = *namespaces[i].stats;
    const uint64_t programmed = flash.units().at(i) * cfg.unit_bytes();
    nlohmann::ordered_json n = {{"name", layout[i].name},
                                {"first_byte", layout[i].first_byte},
                                {"size_bytes", layout[i].size_bytes},
                                {"read_bytes", s.read_bytes},
                                {"write_bytes", s.write_bytes},
                                {"trim", s.trims},
                                {"wrapped", s.wrapped},
                                {"flash_bytes_programmed", programmed},
                                // The drive's write amplification of this namespace's data alone.
                                {"waf", ratio(programmed, s.write_bytes)},
                                {"flash_energy_j", flash_energy_json(flash.energy().at(i))}};
    n.update(requests_json(s, all, all_latency, cfg.flash.faults.any()));
    if (const fw::zns::ZonedNamespace* z = zoned.find(layout[i].first_byte))
      n["zoned"] = zoned_json(*z, s);
    if (namespaces[i].translation)
      n["zone_translation"] = translation_json(*namespaces[i].translation, programmed);
    out.push_back(std::move(n));
  }
  return out;
}

}  // namespace ssd::report
