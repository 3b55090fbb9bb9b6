#include "report/Report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "firmware/Statistics.h"
#include "firmware/StatisticsJson.h"
#include "firmware/ftl/PageLevelFtl.h"
#include "report/FlowsReport.h"
#include "report/LifetimeReport.h"
#include "report/LowPowerReport.h"
#include "report/PlacementReport.h"
#include "report/PowerReport.h"
#include "report/ReliabilityReport.h"
#include "report/UtilisationReport.h"

namespace ssd::report {
namespace {

// A part of a kind's latency breakdown: its requests and their mean per stage (those of work
// handed between cores only on a drive with `several_cores`).
nlohmann::ordered_json breakdown_part(const BreakdownStats::Part& p, model::StagesShown on) {
  nlohmann::ordered_json mean;
  for (std::size_t k = 0; k < model::kStageCount; ++k)
    if (shown(model::Stage(k), on)) mean[model::to_string(model::Stage(k))] = p.mean_us[k];
  return {{"count", p.count}, {"mean", p.count ? std::move(mean) : nullptr}};
}

struct LatencyJson {
  nlohmann::ordered_json figures, histograms, breakdown;
};
// Per kind of request: the figures of `latency_us`, the non-empty log buckets of
// `latency_histogram_us` (docs/report.md#latency-histograms), from one sort of the samples,
// and where the time went (`latency_breakdown_us`, docs/report.md#latency-breakdown). Zone
// actions and zone reports only on a drive with zoned namespaces (`zoned`), placement updates
// only with flexible data placement (`fdp`).
LatencyJson latency_json(const HostStats& h, model::StagesShown on, bool zoned, bool fdp) {
  using nlohmann::ordered_json;
  LatencyJson out;
  ordered_json& figures = out.figures;
  ordered_json& histograms = out.histograms;
  histograms = {{"buckets_per_decade", LatencyStats::kBucketsPerDecade}};
  const std::pair<const char*, const LatencyStats*> kinds[] = {
      {"read", &h.read_latency},
      {"write", &h.write_latency},
      {"trim", &h.trim_latency},
      {"flush", &h.flush_latency},
      {"zone_action", &h.zone_action_latency},
      {"placement_update", &h.placement_update_latency},
      {"zone_report", &h.zone_report_latency}};
  for (std::size_t op = 0; op < std::size(kinds); ++op) {  // HostStats::kind order
    if (((op == 4 || op == 6) && !zoned) || (op == 5 && !fdp)) continue;
    const auto& [kind, l] = kinds[op];
    const LatencyStats::Summary s = l->summarize();
    const BreakdownStats::Summary b = h.breakdown[op].summarize(s.p99_ps);
    ordered_json slowest = {
        {"from_us", b.slowest.count ? ordered_json(b.slowest.from_us) : ordered_json(nullptr)}};
    slowest.update(breakdown_part(b.slowest, on));
    out.breakdown[kind] = breakdown_part(b.all, on);
    out.breakdown[kind]["slowest"] = std::move(slowest);
    figures[kind] = latency_figures(*l, s);
    ordered_json upper = ordered_json::array(), count = ordered_json::array();
    for (const auto& [edge_us, n] : s.histogram) {
      upper.push_back(edge_us);
      count.push_back(n);
    }
    histograms[kind] = {{"upper_us", std::move(upper)}, {"count", std::move(count)}};
  }
  return out;
}

// Each submission queue's depth, priority and how long its commands waited to be fetched.
nlohmann::ordered_json host_queues_json(const config::HostConfig& cfg,
                                        const model::HostInterface& hi) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  const auto queues = config::submission_queues(cfg);
  for (std::size_t q = 0; q < queues.size(); ++q) {
    const auto& u = hi.queue_usage()[q];
    out.push_back({{"depth", queues[q].depth},
                   {"priority", to_string(queues[q].priority)},
                   {"fetched", u.fetched},
                   {"mean_fetch_wait_us",
                    u.fetched == 0 ? 0.0 : u.wait.to_seconds() * 1e6 / double(u.fetched)},
                   {"max_fetch_wait_us", u.max_wait.to_seconds() * 1e6}});
  }
  return out;
}

// Thresholds of the warnings (docs/report.md, "warnings").
constexpr double kUnmappedReadShare = 0.01;
constexpr double kMinMeanArrivalGapS = 100e-9;  // 10 M requests/s: beyond any host and drive
constexpr double kMaxArrivalSpanS = 30 * 24 * 3600.0;
constexpr double kMaxPlausiblePowerW = 100;  // no SSD draws this much

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// What makes the figures of a run suspect, one sentence each.
std::vector<std::string> warnings(const ReportInputs& in, const nlohmann::ordered_json& r) {
  std::vector<std::string> out = in.source.warnings;
  const auto& fs = in.ssd.controller().firmware().stats();
  if (fs.page_reads != 0 &&
      double(fs.unmapped_reads) > kUnmappedReadShare * double(fs.page_reads)) {
    out.push_back(
        std::to_string(fs.unmapped_reads) + " of " + std::to_string(fs.page_reads) +
        " page reads (" + number(100.0 * double(fs.unmapped_reads) / double(fs.page_reads)) +
        " %) were of never-written pages, answered without a flash read; their latency "
        "and energy are not a flash read's" +
        (r["precondition"]["done"].get<bool>() ? std::string()
                                               : " (fill the drive first: --precondition)"));
  }
  const HostStats& h = in.host;
  const double span_s = h.last_arrival.to_seconds();
  if (h.timed_requests >= 2 && span_s / double(h.timed_requests - 1) < kMinMeanArrivalGapS) {
    out.push_back("requests arrive every " + number(span_s / double(h.timed_requests - 1) * 1e9) +
                  " ns on average, faster than any host issues them: are the trace's times in "
                  "another unit (--time-unit for disksim)?");
  }
  if (span_s > kMaxArrivalSpanS) {
    out.push_back("the arrivals span " + number(span_s / 86400) +
                  " days: are the trace's times in another unit (--time-unit for disksim)?");
  }
  if (r.contains("lifetime") && r["lifetime"]["blocks_past_pe_limit"].get<bool>()) {
    out.push_back("a block was erased " + number(r["lifetime"]["max_block_erases"].get<double>()) +
                  " times, past its P/E limit of " + std::to_string(in.cfg.lifetime.pe_cycles) +
                  " (lifetime.pe_cycles): a real drive would have retired it; the model keeps "
                  "using it");
  }
  if (r.contains("faults") && !r["faults"]["read_only_at_s"].is_null()) {
    const auto& f = r["faults"];
    const bool last = in.cfg.flash.faults.die_out_of_room == config::DieOutOfRoom::OtherDies;
    out.push_back(
        "the drive turned read-only at " + number(f["read_only_at_s"].get<double>()) + " s, " +
        (last ? "the last die out of room, " : "") + "die " +
        number(f["read_only_die"].get<double>()) + (last ? "" : " out of room") +
        " (its room down to its reserve, the free blocks GC keeps, ftl.gc_threshold_blocks " +
        std::to_string(in.cfg.ftl.gc_threshold_blocks) +
        ", and as many again or its share of the write buffer; or nothing left for its GC to "
        "reclaim): " +
        std::to_string(h.failed_read_only) +
        " writes and trims failed, out of the latency and throughput figures");
  }
  if (r.contains("faults") && r["faults"].contains("dead_die_at_s") &&
      !r["faults"]["dead_die_at_s"].is_null()) {
    const auto& f = r["faults"];
    out.push_back(
        "die " + number(f["dead_die"].get<double>()) +
        " stopped answering (flash.faults.dead_die); the firmware learned it at " +
        number(f["dead_die_at_s"].get<double>()) +
        " s: " + std::to_string(f["units_lost"].get<uint64_t>()) + " units of data lost in " +
        std::to_string(uint64_t(f["lost_ranges"].get<double>())) +
        " ranges (faults.lost_ranges_listed), " + std::to_string(h.failed_lost) +
        " reads failed with an unrecovered read error" +
        (h.failed_write_fault > 0 ? " and " + std::to_string(h.failed_write_fault) +
                                        " writes to its logical blocks with Write Fault (the " +
                                        std::string(to_string(in.cfg.ftl.type)) +
                                        " FTL keeps each logical block on its die)"
                                  : std::string()) +
        ", out of the latency figures");
  }
  if (r.contains("faults") && r["faults"].value("units_lost_no_room", 0.0) > 0) {
    const bool page_level =
        in.cfg.ftl.type == config::FtlType::Page || in.cfg.ftl.type == config::FtlType::Dftl;
    out.push_back(
        "data in flight lost: no die had a block left for " +
        std::to_string(uint64_t(r["faults"]["units_lost_no_room"].get<double>())) +
        " units of it (faults.units_lost_no_room; flash.faults: blocks lost faster than " +
        (page_level ? "GC frees them" : "merges free them, the write buffer destaging") +
        ", the drive read-only); their reads fail with an unrecovered read error "
        "(requests.failed_lost). More spare blocks (ftl.overprovisioning)" +
        (page_level ? " or a larger ftl.gc_threshold_blocks keep" : " keep") + " more in reserve");
  }
  const double peak_w = in.energy.peak_power_w();
  if (peak_w > kMaxPlausiblePowerW) {
    out.push_back("peak power " + number(peak_w) + " W is more than any SSD draws (" +
                  number(kMaxPlausiblePowerW) + " W): check the config's voltages and currents");
  }
  return out;
}

// What the host asked and got: requests, latency, flows and queues.
void add_host(nlohmann::ordered_json& r, const ReportInputs& in) {
  using nlohmann::ordered_json;
  const auto& cfg = in.cfg;
  const HostStats& h = in.host;
  const uint64_t count = h.count();
  const double sim_s = h.last_completion.to_seconds();
  const double host_bytes = double(h.read_bytes + h.write_bytes);
  r["workload"] = in.workload;
  r["requests"] = {{"count", count},
                   {"read", h.reads},
                   {"write", h.writes},
                   {"trim", h.trims},
                   {"flush", h.flushes},
                   {"fua_write", h.fua_writes},
                   {"read_bytes", h.read_bytes},
                   {"write_bytes", h.write_bytes},
                   {"wrapped", h.wrapped}};
  // Writes and trims a drive out of spare failed (flash.faults), out of the figures above.
  if (cfg.flash.faults.any()) r["requests"]["failed_read_only"] = h.failed_read_only;
  // Reads of data lost (with a dead die, or with no room for it), out of the figures above too.
  if (cfg.flash.faults.any()) r["requests"]["failed_lost"] = h.failed_lost;
  // Writes to logical blocks lost with their die, out of the figures above.
  if (cfg.flash.faults.dead_die_at_ms > 0)
    r["requests"]["failed_write_fault"] = h.failed_write_fault;
  // Zoned namespaces: appends (among the writes), zone actions (in the count) and what they
  // refused with an NVMe status (out of the figures).
  if (cfg.has_zoned()) add_zone_commands(r["requests"], h);
  // Flexible data placement: Reclaim Unit Handle Updates (in the count), and what the drive
  // refused with an NVMe status.
  if (cfg.ftl.fdp.enabled) {
    r["requests"]["placement_update"] = h.placement_updates;
    r["requests"]["failed_status"] = h.failed_status;
  }
  for (const auto& [key, value] : in.source.objects.items()) r[key] = value;
  r["sim_time_s"] = sim_s;
  r["iops"] = per_second(double(count), sim_s);
  r["bandwidth_mbps"] = per_second(host_bytes / 1e6, sim_s);
  LatencyJson latency =
      latency_json(h, {cfg.controller.cores.size() > 1, cfg.flash.reliability.enabled},
                   cfg.has_zoned(), cfg.ftl.fdp.enabled);
  r["latency_us"] = std::move(latency.figures);
  r["latency_histogram_us"] = std::move(latency.histograms);
  r["latency_breakdown_us"] = std::move(latency.breakdown);
  r["flows"] = flows_json(in.flows, in.flows_alone, h, r["latency_us"], cfg.flash.faults.any());
  if (!in.flows_alone.empty()) r["fairness"] = fairness(r["flows"]);
  // Listed when the config lists them (docs/report.md#namespaces).
  if (in.namespaces != nullptr && !cfg.namespaces.empty()) {
    const model::controller::NamespaceFlash& flash = in.ssd.controller().namespace_flash();
    r["namespaces"] = namespaces_json(cfg, *in.namespaces, flash,
                                      in.ssd.controller().firmware().zoned(), h, r["latency_us"]);
    r["flash_energy_no_namespace_j"] = flash_energy_json(flash.unattributed());
  }
  r["host_queues"] = host_queues_json(cfg.host, in.ssd.host_interface());
}

// The first kLostRangesListed runs of units a dead die took, in logical order, as [offset,
// length] in bytes: enough to name the damaged region of a small drive or a test, not a list
// of hundreds of thousands of scattered units (faults.lost_ranges counts them all).
constexpr std::size_t kLostRangesListed = 100;
nlohmann::ordered_json lost_ranges_json(const fw::Ftl& ftl, uint64_t unit_bytes) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  const auto& ranges = ftl.lost_ranges();
  for (std::size_t i = 0; i < std::min(ranges.size(), kLostRangesListed); ++i)
    out.push_back({ranges[i].first * unit_bytes, ranges[i].count * unit_bytes});
  return out;
}

// What the firmware did for it: flash operations, amplification, the write buffer, the SLC
// cache, GC, wear levelling, DFTL, preconditioning and the DRAM it was built with.
void add_firmware(nlohmann::ordered_json& r, const ReportInputs& in) {
  using nlohmann::ordered_json;
  const auto& cfg = in.cfg;
  const HostStats& h = in.host;
  const auto& flash = in.ssd.controller().flash_counters();
  const auto& fw = in.ssd.controller().firmware();
  const std::vector<const Statistics*> figures = in.ssd.controller().statistics();
  add_figures(r, figures, "flash_ops");
  const auto& fs = fw.stats();
  // Per page of host data written (write_bytes / page_bytes): a 4 KiB write to a 16 KiB page
  // is a quarter of one, though it costs a whole program and a read (docs/report.md).
  const double host_pages = double(h.write_bytes) / double(cfg.flash.page_bytes);
  const auto per_host_page = [&](uint64_t n) {
    return h.write_bytes ? ordered_json(double(n) / host_pages) : ordered_json(nullptr);
  };
  r["waf"] = per_host_page(flash.programs);
  // With the host's zone translation layer its copies are host writes to the drive: per byte
  // the host's requests wrote, end to end (only then, so other reports keep their fields).
  if (in.namespaces) {
    uint64_t sent = 0, written = 0;
    bool translated = false;
    for (const FlowStats& n : *in.namespaces) {
      if (!n.translation) continue;
      translated = true;
      sent += n.translation->bytes_sent;
      written += n.translation->host_bytes_written;
    }
    if (translated)
      r["waf_end_to_end"] = ratio(double(flash.programs) * double(cfg.flash.page_bytes),
                                  double(h.write_bytes - sent + written));
  }
  r["rmw_read_amplification"] = per_host_page(fs.rmw_reads);
  add_figures(r, figures, "firmware");
  add_figures(r, figures, "merges");  // block-mapped FTLs only
  add_figures(r, figures, "zoned");   // zoned namespaces only
  r["dram_accesses"] = in.ssd.dram().accesses();
  const auto& wb = fw.write_buffer();
  r["write_buffer"] = {{"capacity_pages", wb.capacity()},
                       {"in_sram", wb.in_sram() && wb.enabled()}};
  add_figures(r, figures, "write_buffer");
  r["write_buffer"]["dirty_at_end"] = wb.dirty_pages();
  r["write_buffer"]["dram_burst_bytes"] = in.ssd.dram().burst_bytes();
  const config::SlcRegion slc = cfg.slc_region();
  const uint64_t slc_blocks =
      uint64_t(slc.blocks_in_plane) * cfg.flash.planes_per_die * cfg.flash.dies();
  r["slc_cache"] = {{"blocks", slc_blocks},
                    {"capacity_bytes", slc_blocks * slc.pages_per_block * cfg.flash.page_bytes},
                    {"fold", to_string(cfg.ftl.slc_fold)}};
  add_figures(r, figures, "slc_cache");
  // The dynamic cache's size (ftl.slc_dynamic only: reports without it are as before).
  const auto* page_level = dynamic_cast<const ::ssd::fw::PageLevelFtl*>(&fw.ftl());
  if (page_level && page_level->dynamic_slc().enabled()) {
    const ::ssd::fw::DynamicSlc& d = page_level->dynamic_slc();
    r["slc_cache"]["dynamic_blocks"] = {
        {"end", d.blocks()}, {"min", d.least_blocks()}, {"max", d.most_blocks()}};
    r["slc_cache"]["size_blocks"] = {{"end", slc_blocks + d.blocks()},
                                     {"min", slc_blocks + d.least_blocks()},
                                     {"max", slc_blocks + d.most_blocks()}};
  }
  // GC, wear levelling, erase counts, DFTL and DRAM sizing (docs/report.md).
  const auto waits = [](const WaitStats& w) {
    const WaitStats::Summary s = w.summarize();
    ordered_json histogram = ordered_json::array();
    for (const auto& [edge, n] : s.histogram) histogram.push_back({edge, n});
    return ordered_json{{"requests", s.requests},
                        {"waited", s.waited},
                        {"total_s", s.total_s},
                        {"mean_us", s.mean_us},
                        {"mean_waited_us", s.mean_waited_us},
                        {"max_us", s.max_us},
                        {"histogram_us", std::move(histogram)}};
  };
  r["gc"] = {{"policy", to_string(cfg.ftl.gc_policy)}, {"mode", to_string(cfg.ftl.gc_mode)}};
  add_figures(r, figures, "gc");
  r["gc"]["host_wait"] = {{"read", waits(h.read_gc_wait)}, {"write", waits(h.write_gc_wait)}};
  r["wear_leveling"] = {{"mode", to_string(cfg.ftl.wear_leveling)},
                        {"threshold_erases", cfg.ftl.wl_threshold_erases}};
  add_figures(r, figures, "wear_leveling");
  add_figures(r, figures, "read_refresh");  // ftl.read_refresh only
  if (cfg.ftl.read_refresh.enabled)
    r["read_refresh"]["host_wait"] = {{"read", waits(h.read_refresh_wait)},
                                      {"write", waits(h.write_refresh_wait)}};
  add_figures(r, figures, "faults");  // flash.faults only
  if (cfg.flash.faults.dead_die_at_ms > 0)
    r["faults"]["lost_ranges_listed"] = lost_ranges_json(fw.ftl(), cfg.unit_bytes());
  if (const auto e = fw.ftl().erase_summary())
    r["erase_counts"] = erase_counts_json(*e);
  else
    r["erase_counts"] = nullptr;
  add_figures(r, figures, "dftl");  // DFTL only
  const auto& pre = in.ssd.controller().precondition_stats();
  r["precondition"] = {{"done", pre.done},
                       {"fill_fraction", pre.fill_fraction},
                       {"random_fraction", pre.random_fraction},
                       {"pages_written", pre.pages_written}};
  if (pre.done && in.phases) {
    r["precondition"]["wall_s"] = pre.wall_s;
    r["precondition"]["cpu_s"] = pre.cpu_s;
  }
  const auto& dram = in.ssd.controller().dram_config();
  r["dram"] = {{"sized_from_table", cfg.ftl.size_dram_from_table},
               {"part", in.ssd.controller().dram_part()},
               {"size_mb", dram.size_mb},
               {"i_active_ma", dram.i_active_ma},
               {"i_idle_ma", dram.i_idle_ma},
               {"t_access_ns", dram.t_access_ns}};
}

// Energy by component, group and work; power, rails and the power analyser.
void add_energy(nlohmann::ordered_json& r, const ReportInputs& in) {
  using nlohmann::ordered_json;
  const auto& cfg = in.cfg;
  const HostStats& h = in.host;
  const double host_bytes = double(h.read_bytes + h.write_bytes);
  ordered_json energy = ordered_json::object();
  std::map<std::string, double> by_group;
  std::vector<std::string> group_order;
  for (const auto& c : in.energy.component_energy()) {
    ordered_json states = ordered_json::object();
    for (const auto& [state, joules] : c.energy_j) {
      states[model::to_string(state)] = joules;
      if (!by_group.count(c.group)) group_order.push_back(c.group);
      by_group[c.group] += joules;
    }
    energy[c.name] = states;
  }
  r["energy_j"] = energy;
  ordered_json groups = ordered_json::object();
  for (const auto& g : group_order) groups[g] = by_group[g];
  r["energy_by_group_j"] = groups;
  ordered_json by_work = ordered_json::object();
  const auto& work_j = in.ssd.controller().energy_by_work_j();
  for (std::size_t w = 0; w < fw::kWorkCount; ++w) {
    // Refresh only where the firmware refreshes: other drives' reports read as they always have.
    if (fw::Work(w) == fw::Work::Refresh && !in.cfg.ftl.read_refresh.enabled) continue;
    by_work[fw::to_string(fw::Work(w))] = work_j[w];
  }
  r["energy_by_work_j"] = by_work;
  const double total = in.energy.total_energy_j();
  r["energy_total_j"] = total;
  r["energy_span_s"] = in.energy.duration_s();
  r["energy_per_mb_j"] =
      host_bytes > 0 ? ordered_json(total / (host_bytes / 1e6)) : ordered_json(nullptr);
  r["avg_power_w"] = per_second(total, in.energy.duration_s());
  r["peak_power_w"] = in.energy.peak_power_w();
  r["peak_current_ma"] = in.energy.peak_current_ma();
  r["drive_voltage_v"] = in.energy.drive_voltage_v();
  r["time_at_peak_s"] = in.energy.time_at_peak_s();
  r["first_peak_s"] = in.energy.first_peak_time_s();
  r["rails"] = rails_json(in.energy);
  r["power_analyser"] = analyser_json(in.energy, cfg.power.current_levels_ma);
  r["nand_breakdown_j"] = nand_breakdown_json(in.energy);
}

}  // namespace

nlohmann::ordered_json build_report(const ReportInputs& in) {
  using nlohmann::ordered_json;
  const auto& cfg = in.cfg;
  const HostStats& h = in.host;
  const auto& fw = in.ssd.controller().firmware();
  const uint64_t count = h.count();

  ordered_json r;
  r["drive"] = {{"config", cfg.name},
                {"ftl", fw.ftl().name()},
                {"channels", cfg.flash.channels},
                {"ways_per_channel", cfg.flash.ways_per_channel},
                {"dies", cfg.flash.dies()},
                {"page_bytes", cfg.flash.page_bytes},
                {"mapping_unit_bytes", cfg.unit_bytes()},
                {"raw_bytes", cfg.flash.raw_bytes()},
                {"logical_bytes", cfg.logical_bytes()},
                {"nand_idle_policy", config::to_string(cfg.flash.idle_policy)},
                {"mapping_table_bytes", fw.ftl().mapping_table_bytes()},
                {"dram_bytes", in.ssd.controller().dram_config().size_mb << 20}};
  // The namespaces' (namespaces): what lies beyond is never written.
  if (!cfg.namespaces.empty()) r["drive"]["allocated_bytes"] = cfg.allocated_bytes();
  if (!cfg.controller.cores.empty()) {
    ordered_json& cores = r["drive"]["cores"] = ordered_json::array();
    for (const config::CoreConfig& c : cfg.controller.cores) cores.push_back(c.name);
  }
  add_host(r, in);
  add_firmware(r, in);
  add_energy(r, in);
  if (in.ssd.power_budget()) r["power_budget"] = power_budget_json(in);
  if (in.ssd.thermal_throttle()) r["thermal"] = thermal_json(in);
  if (auto loss = power_loss_json(in); !loss.is_null()) r["power_loss"] = std::move(loss);
  r["utilisation"] = utilisation_json(in);
  if (low_power_enabled(cfg)) r["low_power"] = low_power_json(in);
  if (cfg.flash.reliability.enabled) r["reliability"] = reliability_json(in);
  if (in.scoreboard) {
    r["scoreboard"] = {{"pages_checked", in.scoreboard->pages_checked},
                       {"mismatches", in.scoreboard->mismatches}};
    // Aging NAND, lost data: pages of reads failed with an unrecovered read error, never checked.
    const bool dead_die = cfg.flash.faults.dead_die_at_ms > 0;
    if (cfg.flash.reliability.enabled || cfg.flash.faults.any())
      r["scoreboard"]["reported_errors"] = in.scoreboard->reported;
    // Pages of writes and trims the drive refused, which kept their data: a read-only drive's
    // (injected faults), a zoned namespace's (the zone state machine's refusals, trims).
    if (cfg.flash.faults.any() || cfg.has_zoned())
      r["scoreboard"]["refused_updates"] = in.scoreboard->refused;
    if (cfg.power.hold_up.loss_at_ms > 0)
      r["scoreboard"]["lost_by_power_loss"] = in.scoreboard->lost_by_power_loss;
    if (dead_die) r["scoreboard"]["lost_by_dead_die"] = in.scoreboard->lost_by_dead_die;
    // Data in flight no die had room for (injected faults: blocks lost faster than GC frees them).
    if (cfg.flash.faults.any()) r["scoreboard"]["lost_by_no_room"] = in.scoreboard->lost_by_no_room;
    r["scoreboard"]["messages"] = in.scoreboard->messages;
  }
  if (auto lifetime = lifetime_json(in); !lifetime.is_null()) r["lifetime"] = std::move(lifetime);
  if (auto fdp = placement_json(in); !fdp.is_null()) r["fdp"] = std::move(fdp);
  r["warnings"] = warnings(in, r);
  if (in.phases) {
    const RunPhases& p = *in.phases;
    r["wall_time_s"] = p.total_wall_s;
    ordered_json& phases = r["phases"];
    const auto phase = [&phases](const char* name, const PhaseTime& t) {
      phases[name] = {{"wall_s", t.wall_s}, {"cpu_s", t.cpu_s}};
    };
    phase("build", p.build);
    if (p.load) phase("load", *p.load);
    if (p.precondition) phase("precondition", *p.precondition);
    if (p.save) phase("save", *p.save);
    phase("run", p.run);
    phase("outputs", p.outputs);
    r["requests_per_wall_s"] = per_second(double(count), p.run.wall_s);
  }
  return r;
}

}  // namespace ssd::report
