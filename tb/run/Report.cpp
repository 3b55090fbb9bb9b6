#include "tb/run/Report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "firmware/Statistics.h"
#include "firmware/StatisticsJson.h"
#include "tb/run/LifetimeReport.h"
#include "tb/run/LowPowerReport.h"

namespace ssd::tb {
namespace {

// A part of a kind's latency breakdown: its requests and their mean per stage (those of work
// handed between cores only on a drive with `several_cores`).
nlohmann::ordered_json breakdown_part(const BreakdownStats::Part& p, bool several_cores) {
  nlohmann::ordered_json mean;
  for (std::size_t k = 0; k < model::kStageCount; ++k)
    if (shown(model::Stage(k), several_cores))
      mean[model::to_string(model::Stage(k))] = p.mean_us[k];
  return {{"count", p.count}, {"mean", p.count ? std::move(mean) : nullptr}};
}

// One kind of request's `latency_us`: its count, and its figures when it has any (null for a
// kind the run or flow did not issue, not a latency of 0).
nlohmann::ordered_json latency_figures(const LatencyStats& l, const LatencyStats::Summary& s) {
  const auto figure = [&l](double us) { return l.count() ? nlohmann::ordered_json(us) : nullptr; };
  return {{"count", l.count()},      {"mean", figure(s.mean_us)}, {"p50", figure(s.p50_us)},
          {"p99", figure(s.p99_us)}, {"p999", figure(s.p999_us)}, {"p9999", figure(s.p9999_us)},
          {"max", figure(s.max_us)}};
}

struct LatencyJson {
  nlohmann::ordered_json figures, histograms, breakdown;
};
// Per kind of request: the figures of `latency_us`, the non-empty log buckets of
// `latency_histogram_us` (docs/report.md#latency-histograms), from one sort of the samples,
// and where the time went (`latency_breakdown_us`, docs/report.md#latency-breakdown).
LatencyJson latency_json(const HostStats& h, bool several_cores) {
  using nlohmann::ordered_json;
  LatencyJson out;
  ordered_json& figures = out.figures;
  ordered_json& histograms = out.histograms;
  histograms = {{"buckets_per_decade", LatencyStats::kBucketsPerDecade}};
  const std::pair<const char*, const LatencyStats*> kinds[] = {{"read", &h.read_latency},
                                                               {"write", &h.write_latency},
                                                               {"trim", &h.trim_latency},
                                                               {"flush", &h.flush_latency}};
  for (std::size_t op = 0; op < std::size(kinds); ++op) {  // fw::CommandOp order
    const auto& [kind, l] = kinds[op];
    const LatencyStats::Summary s = l->summarize();
    const BreakdownStats::Summary b = h.breakdown[op].summarize(s.p99_ps);
    ordered_json slowest = {
        {"from_us", b.slowest.count ? ordered_json(b.slowest.from_us) : ordered_json(nullptr)}};
    slowest.update(breakdown_part(b.slowest, several_cores));
    out.breakdown[kind] = breakdown_part(b.all, several_cores);
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

double per_second(double amount, double seconds) { return seconds > 0 ? amount / seconds : 0.0; }

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

// Each flow's requests, rate and latency (docs/report.md#flows), over the span from the start
// to its own last completion; with `alone`, what it saw alone and its slowdown.
// `all`: the run's requests and their latency_us (a flow that is the whole run takes them).
nlohmann::ordered_json flows_json(const std::vector<Host::FlowResult>& flows,
                                  const std::vector<nlohmann::ordered_json>& alone,
                                  const HostStats& all, const nlohmann::ordered_json& all_latency) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const Host::FlowResult& f : flows) {
    const HostStats& h = *f.stats;
    const uint64_t count = h.reads + h.writes + h.trims + h.flushes;
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
    out.push_back(
        {{"name", f.name},
         {"queue", f.queue},
         {"requests", count},
         {"read", h.reads},
         {"write", h.writes},
         {"span_s", span_s},
         {"iops", per_second(double(count), span_s)},
         {"bandwidth_mbps", per_second(double(h.read_bytes + h.write_bytes) / 1e6, span_s)},
         {"latency_us", std::move(latency)}});
    out.back()["mean_latency_us"] = mean_latency_us(out.back());
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

// What a span of the run saw, for its utilisation: each component's time out of its rest
// states, and the time requests waited for each resource.
struct UsageSpan {
  double start_s = 0, end_s = 0;
  std::map<std::string, double> busy_s;
  double link_wait_s = 0;
  std::vector<std::pair<std::string, double>> worker_wait_s;  // the core's, the read engine's
  std::vector<double> bus_wait_s, die_wait_s;  // per channel; per die, channel by channel
  std::vector<uint64_t> die_commands;
};

// `busy_ps`: per component in `comps`' order.
UsageSpan usage_span(const std::vector<model::EnergyMonitor::ComponentEnergy>& comps,
                     const std::vector<uint64_t>& busy_ps, double start_s, double end_s,
                     const sc_core::sc_time& link_wait,
                     const std::vector<model::Controller::Worker>& workers,
                     const std::vector<model::FlashChannel::Usage>& channels) {
  UsageSpan u{start_s, end_s, {}, link_wait.to_seconds(), {}, {}, {}, {}};
  for (const auto& w : workers) u.worker_wait_s.emplace_back(w.name, w.command_wait.to_seconds());
  for (std::size_t i = 0; i < comps.size(); ++i)
    u.busy_s[comps[i].name] = double(busy_ps[i]) / 1e12;
  for (const auto& c : channels) {
    u.bus_wait_s.push_back(c.bus_wait.to_seconds());
    for (std::size_t d = 0; d < c.die_wait.size(); ++d) {
      u.die_wait_s.push_back(c.die_wait[d].to_seconds());
      u.die_commands.push_back(c.die_commands[d]);
    }
  }
  return u;
}

// What `whole` saw after `part` (the after-run tail, from the host phase's mark on), its
// components' busy time given in `busy_ps` (whole's less part's, exactly).
UsageSpan usage_after(const UsageSpan& whole, const UsageSpan& part, double from_s,
                      const std::vector<model::EnergyMonitor::ComponentEnergy>& comps,
                      const std::vector<uint64_t>& busy_ps) {
  UsageSpan u = whole;
  u.start_s = from_s;
  for (std::size_t i = 0; i < comps.size(); ++i)
    u.busy_s[comps[i].name] = double(busy_ps[i]) / 1e12;
  u.link_wait_s -= part.link_wait_s;
  for (std::size_t i = 0; i < u.worker_wait_s.size(); ++i)
    u.worker_wait_s[i].second -= part.worker_wait_s[i].second;
  for (std::size_t i = 0; i < u.bus_wait_s.size(); ++i) u.bus_wait_s[i] -= part.bus_wait_s[i];
  for (std::size_t i = 0; i < u.die_wait_s.size(); ++i) {
    u.die_wait_s[i] -= part.die_wait_s[i];
    u.die_commands[i] -= part.die_commands[i];
  }
  return u;
}

// Busy fraction and mean queue length of every resource over a span (docs/report.md
// #utilisation): busy = time out of the rest states (idle, off, low-power) per the
// power-state machines; mean queue = total time requests waited for the resource / span
// (Little's law). The busiest resource is named as the bottleneck. `counters` (whole run
// only) go after dies_busy_mean; a part of the run also says where it starts and ends.
nlohmann::ordered_json resources_json(const ReportInputs& in, const UsageSpan& u,
                                      const nlohmann::ordered_json& counters) {
  using nlohmann::ordered_json;
  const double span = u.end_s - u.start_s;
  std::string bottleneck;
  double most = -1;
  const auto entry = [&](const std::string& name, double wait_s) {
    const auto it = u.busy_s.find(name);
    const double b = it == u.busy_s.end() ? 0.0 : per_second(it->second, span);
    if (b > most) {
      most = b;
      bottleneck = name;
    }
    return ordered_json{{"name", name}, {"busy", b}, {"mean_queue", per_second(wait_s, span)}};
  };
  ordered_json r;
  if (counters.is_null()) {
    r["start_s"] = u.start_s;
    r["end_s"] = u.end_s;
  }
  r["span_s"] = span;
  const std::string link = u.busy_s.count("host_if") ? "host_if" : "host_if.to_device";
  r["host_link"] = entry(link, u.link_wait_s);
  if (link != "host_if") r["host_link_to_host"] = entry("host_if.to_host", 0.0);
  for (const auto& [name, wait_s] : u.worker_wait_s) r[name] = entry(name, wait_s);
  ordered_json channels = ordered_json::array(), dies = ordered_json::array();
  double die_busy_sum = 0;
  std::size_t die = 0;
  for (uint32_t ch = 0; ch < in.ssd.channels(); ++ch) {
    channels.push_back(entry("ch" + std::to_string(ch), u.bus_wait_s[ch]));
    const auto& channel = in.ssd.channel(ch);
    for (uint32_t d = 0; d < channel.usage().die_wait.size(); ++d, ++die) {
      const std::string name = "ch" + std::to_string(ch) + "." + channel.die(d).basename();
      dies.push_back(entry(name, u.die_wait_s[die]));
      dies.back()["commands"] = u.die_commands[die];
      die_busy_sum += dies.back()["busy"].get<double>();
    }
  }
  r["dies_busy_mean"] = dies.empty() ? 0.0 : die_busy_sum / double(dies.size());
  for (const auto& [key, value] : counters.items()) r[key] = value;
  r["bottleneck"] = {{"name", bottleneck}, {"busy", std::max(most, 0.0)}};
  r["channels"] = std::move(channels);
  r["dies"] = std::move(dies);
  return r;
}

// The whole energy span, then the host phase and the after-run tail (folding, destaging,
// background GC) once the host has finished (docs/report.md#utilisation).
nlohmann::ordered_json utilisation_json(const ReportInputs& in) {
  using nlohmann::ordered_json;
  const auto comps = in.energy.component_energy();
  std::vector<model::FlashChannel::Usage> channels;
  uint64_t multiplane_groups = 0, cache_programs = 0, suspensions = 0, merged_reads = 0;
  for (uint32_t ch = 0; ch < in.ssd.channels(); ++ch) {
    const auto& u = in.ssd.channel(ch).usage();
    channels.push_back(u);
    merged_reads += u.merged_reads;            // unit reads another's array read served
    multiplane_groups += u.multiplane_groups;  // array operations on more than one plane
    cache_programs += u.cache_programs;        // programs whose data moved in during another
    suspensions += u.suspensions;              // programs and erases suspended for a read
  }
  // The whole span's busy fractions as they always were: the states' seconds added up.
  UsageSpan whole =
      usage_span(comps, std::vector<uint64_t>(comps.size(), 0), 0.0, in.energy.duration_s(),
                 in.ssd.host_interface().link_wait(), in.ssd.controller().workers(), channels);
  for (const auto& c : comps) {
    double busy = 0;
    for (const auto& [state, seconds] : c.time_s)
      if (!model::resting(state)) busy += seconds;
    whole.busy_s[c.name] = busy;
  }
  ordered_json r = resources_json(in, whole,
                                  {{"multiplane_groups", multiplane_groups},
                                   {"cache_programs", cache_programs},
                                   {"suspensions", suspensions},
                                   {"merged_reads", merged_reads}});
  const model::EnergyMonitor::PhaseMark* mark = in.energy.host_phase();
  const model::Ssd::Waits* waits = in.ssd.host_phase_waits();
  if (!mark || !waits) {  // the host never finished
    r["host_phase"] = nullptr;
    r["tail"] = nullptr;
    return r;
  }
  const UsageSpan host = usage_span(comps, mark->busy_ps, 0.0, mark->end_s, waits->link,
                                    waits->workers, waits->channels);
  std::vector<uint64_t> tail_ps;
  for (std::size_t i = 0; i < comps.size(); ++i)
    tail_ps.push_back(comps[i].busy_ps - mark->busy_ps[i]);
  r["host_phase"] = resources_json(in, host, nullptr);
  r["tail"] = resources_json(in, usage_after(whole, host, mark->mark_s, comps, tail_ps), nullptr);
  return r;
}

// Energy and peak of each input rail (docs/report.md#supply-rails): its components' energy
// (already divided by their regulators' efficiency), of which the board's baseline and the
// regulators' losses.
nlohmann::ordered_json rails_json(const model::EnergyMonitor& energy) {
  using nlohmann::ordered_json;
  const auto& rails = energy.rails();
  std::vector<double> total(rails.size()), baseline(rails.size()), loss(rails.size());
  for (const auto& c : energy.component_energy()) {
    // State by state, in the order energy_total_j adds them: one rail sums to it exactly.
    for (const auto& [state, joules] : c.energy_j) {
      total[c.rail] += joules;
      loss[c.rail] += joules * (1 - c.efficiency);
      if (c.group == "board") baseline[c.rail] += joules;
    }
  }
  ordered_json out = ordered_json::array();
  const double span = energy.duration_s();
  for (uint32_t r = 0; r < rails.size(); ++r) {
    const double v = rails[r].voltage_v;
    out.push_back({{"name", rails[r].name},
                   {"voltage_v", v},
                   {"i_baseline_ma", rails[r].i_baseline_ma},
                   {"energy_j", total[r]},
                   {"baseline_j", baseline[r]},
                   {"regulator_loss_j", loss[r]},
                   {"avg_current_ma", per_second(total[r], span) / v * 1e3},
                   {"peak_power_w", energy.rail_peak_power_w(r)},
                   {"peak_current_ma", energy.rail_peak_power_w(r) / v * 1e3}});
  }
  return out;
}

// What a power analyser on the supply shows (docs/report.md#power-analyser).
nlohmann::ordered_json analyser_json(const model::EnergyMonitor& energy,
                                     const std::vector<double>& levels_ma) {
  using nlohmann::ordered_json;
  const double span = energy.duration_s();
  const double v = energy.drive_voltage_v();
  ordered_json peaks = ordered_json::array();
  const auto& w = energy.windowed_peaks();
  for (std::size_t i = 0; i < w.size(); ++i)
    peaks.push_back({{"window_us", double(w.window_ps(i)) / 1e6},
                     {"peak_power_w", w.peak_w(i)},
                     {"peak_current_ma", w.peak_w(i) / v * 1e3},
                     {"start_s", w.start_s(i)}});
  const auto& band_ps = energy.current_band_ps();
  ordered_json bands = ordered_json::array(), above = ordered_json::array();
  for (std::size_t b = 0; b < band_ps.size(); ++b) {
    const double s = double(band_ps[b]) / 1e12;
    bands.push_back(
        {{"from_ma", b == 0 ? 0.0 : levels_ma[b - 1]},
         {"to_ma", b < levels_ma.size() ? ordered_json(levels_ma[b]) : ordered_json(nullptr)},
         {"time_s", s},
         {"fraction", per_second(s, span)}});
  }
  for (std::size_t l = 0; l < levels_ma.size(); ++l) {
    uint64_t ps = 0;
    for (std::size_t b = l + 1; b < band_ps.size(); ++b) ps += band_ps[b];
    above.push_back({{"level_ma", levels_ma[l]},
                     {"time_s", double(ps) / 1e12},
                     {"fraction", per_second(double(ps) / 1e12, span)}});
  }
  ordered_json by_component = ordered_json::object();
  for (const auto& c : energy.component_energy()) by_component[c.name] = c.peak_current_ma;
  return {{"peak_windows", std::move(peaks)},
          {"current_bands", std::move(bands)},
          {"time_above", std::move(above)},
          {"all_dies_active_s", energy.all_dies_active_s()},
          {"all_dies_active_fraction", per_second(energy.all_dies_active_s(), span)},
          {"peak_current_ma_by_component", std::move(by_component)}};
}

// The founding study's NAND breakdown (its Table VII): the dies' energy by operation, the
// channel buses, and idle, of which the part while another die worked.
nlohmann::ordered_json nand_breakdown_json(const model::EnergyMonitor& energy) {
  using model::PowerState;
  double read = 0, program = 0, erase = 0, transfer = 0, bus = 0, idle = 0, off = 0;
  for (const auto& c : energy.component_energy()) {
    for (const auto& [state, j] : c.energy_j) {
      if (c.group == "channel") {
        bus += j;
        continue;
      }
      if (c.group != "nand") continue;
      switch (state) {
        case PowerState::Read:
        case PowerState::ReadMultiplane:
        case PowerState::SpareRead:
          read += j;
          break;
        case PowerState::Program:
        case PowerState::ProgramMultiplane:
          program += j;
          break;
        case PowerState::Erase:
        case PowerState::EraseMultiplane:
          erase += j;
          break;
        case PowerState::Transfer:
          transfer += j;
          break;
        case PowerState::Idle:
          idle += j;
          break;
        default:
          off += j;
          break;
      }
    }
  }
  return {{"read", read},
          {"program", program},
          {"erase", erase},
          {"transfer", transfer},
          {"bus", bus},
          {"idle", idle},
          {"busy_period_idle", energy.nand_busy_period_idle_j()},
          {"off", off}};
}

// Thresholds of the warnings (docs/report.md, "warnings").
constexpr double kUnmappedReadShare = 0.01;
constexpr double kMinMeanArrivalGapS = 100e-9;  // 10 M requests/s: beyond any host and drive
constexpr double kMaxArrivalSpanS = 30 * 24 * 3600.0;
constexpr double kMaxPlausiblePowerW = 100;  // no SSD draws this much

// The power budget's record (docs/report.md#power_budget); absent without a budget.
nlohmann::ordered_json power_budget_json(const ReportInputs& in) {
  const model::PowerBudget& b = *in.ssd.power_budget();
  const model::PowerBudget::Stats& st = b.stats();
  const auto cap = b.base().power_nw;
  const double wait_s = st.wait.to_seconds();
  nlohmann::ordered_json r;
  using nlohmann::ordered_json;
  const bool capped = cap != INT64_MAX;
  r["cap_w"] = capped ? ordered_json(double(cap) / 1e9) : ordered_json(nullptr);
  r["cap_current_ma"] = capped ? ordered_json(double(cap) / 1e6 / in.energy.drive_voltage_v())
                               : ordered_json(nullptr);
  r["floor_w"] = double(b.floor_nw()) / 1e9;
  r["operations"] = st.operations;
  r["operations_waited"] = st.waited;
  r["wait_s"] = wait_s;
  r["wait_mean_us"] = st.waited ? wait_s * 1e6 / double(st.waited) : 0.0;
  r["wait_max_us"] = st.max_wait.to_seconds() * 1e6;
  r["wait_per_operation_us"] = st.operations ? wait_s * 1e6 / double(st.operations) : 0.0;
  r["peak_power_w"] = in.energy.peak_power_w();
  return r;
}

// The thermal model and its throttle (docs/report.md#thermal); absent without one.
nlohmann::ordered_json thermal_json(const ReportInputs& in) {
  using nlohmann::ordered_json;
  const model::ThermalModel& m = *in.energy.thermal();
  const model::ThermalThrottle& th = *in.ssd.thermal_throttle();
  const model::ThermalThrottle::Stats& st = th.stats();
  const config::ThermalConfig& cfg = in.cfg.thermal;
  const double span = in.energy.duration_s();
  ordered_json r;
  r["ambient_c"] = m.ambient_c();
  r["sample_us"] = cfg.sample_us;
  double peak = m.ambient_c();
  ordered_json nodes = ordered_json::array();
  for (uint32_t n = 0; n < m.nodes().size(); ++n) {
    const model::ThermalModel::Node& node = m.nodes()[n];
    peak = std::max(peak, m.peak_c(n));
    nodes.push_back({{"name", node.name},
                     {"r_k_per_w", node.r_k_per_w},
                     {"c_j_per_k", node.c_j_per_k},
                     {"tau_s", node.r_k_per_w * node.c_j_per_k},
                     {"peak_c", m.peak_c(n)},
                     {"final_c", m.last_c(n)}});
  }
  r["nodes"] = std::move(nodes);
  r["peak_c"] = peak;
  // Rates in each state: what throttling costs (docs/thermal.md#performance-lost).
  const auto rate = [](double amount, double seconds) {
    return seconds > 0 ? ordered_json(amount / seconds) : ordered_json(nullptr);
  };
  const auto loss = [](const ordered_json& off, const ordered_json& on) {
    if (off.is_null() || on.is_null() || off.get<double>() <= 0) return ordered_json(nullptr);
    return ordered_json(1 - on.get<double>() / off.get<double>());
  };
  const double t_on = st.throttled.to_seconds();
  const double t_off = m.time_s(false) + m.time_s(true) - t_on;
  const ordered_json power_off = rate(m.energy_j(false), m.time_s(false));
  const ordered_json power_on = rate(m.energy_j(true), m.time_s(true));
  const bool counted = in.ssd.power_budget() != nullptr;
  const ordered_json ops_off =
      counted ? rate(double(st.operations[0]), t_off) : ordered_json(nullptr);
  const ordered_json ops_on =
      counted ? rate(double(st.operations[1]), t_on) : ordered_json(nullptr);
  r["throttle"] = {
      {"action", to_string(cfg.throttle.action)},
      {"t_on_c", cfg.throttle.t_on_c},
      {"t_off_c", cfg.throttle.t_off_c},
      {"samples", st.samples},
      {"entries", st.entries},
      {"exits", st.exits},
      {"first_entry_s",
       st.entries ? ordered_json(st.first_entry.to_seconds()) : ordered_json(nullptr)},
      {"first_exit_s", st.exits ? ordered_json(st.first_exit.to_seconds()) : ordered_json(nullptr)},
      {"time_s", t_on},
      {"fraction", span > 0 ? t_on / span : 0.0},
      {"avg_power_w_unthrottled", power_off},
      {"avg_power_w_throttled", power_on},
      {"power_cut", loss(power_off, power_on)},
      {"operations_per_s_unthrottled", ops_off},
      {"operations_per_s_throttled", ops_on},
      {"performance_loss", loss(ops_off, ops_on)},
      {"budget_wait_s",
       counted ? ordered_json(in.ssd.power_budget()->stats().wait_throttled.to_seconds())
               : ordered_json(nullptr)}};
  return r;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// What makes the figures of a run suspect, one sentence each.
std::vector<std::string> warnings(const ReportInputs& in, const nlohmann::ordered_json& r) {
  std::vector<std::string> out;
  in.source.add_warnings(out);
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
  const uint64_t count = h.reads + h.writes + h.trims + h.flushes;
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
  in.source.add_to_report(r);
  r["sim_time_s"] = sim_s;
  r["iops"] = per_second(double(count), sim_s);
  r["bandwidth_mbps"] = per_second(host_bytes / 1e6, sim_s);
  LatencyJson latency = latency_json(h, cfg.controller.cores.size() > 1);
  r["latency_us"] = std::move(latency.figures);
  r["latency_histogram_us"] = std::move(latency.histograms);
  r["latency_breakdown_us"] = std::move(latency.breakdown);
  r["flows"] = flows_json(in.flows, in.flows_alone, h, r["latency_us"]);
  if (!in.flows_alone.empty()) r["fairness"] = fairness(r["flows"]);
  r["host_queues"] = host_queues_json(cfg.host, in.ssd.host_interface());
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
  r["rmw_read_amplification"] = per_host_page(fs.rmw_reads);
  add_figures(r, figures, "firmware");
  add_figures(r, figures, "merges");  // block-mapped FTLs only
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
  if (const auto e = fw.ftl().erase_summary())
    r["erase_counts"] = {{"min", e->min}, {"max", e->max}, {"mean", e->mean}, {"std", e->std}};
  else
    r["erase_counts"] = nullptr;
  add_figures(r, figures, "dftl");  // DFTL only
  const auto& pre = in.ssd.controller().precondition_stats();
  r["precondition"] = {{"done", pre.done},
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
  for (std::size_t w = 0; w < fw::kWorkCount; ++w) by_work[fw::to_string(fw::Work(w))] = work_j[w];
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
  const uint64_t count = h.reads + h.writes + h.trims + h.flushes;

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
  if (!cfg.controller.cores.empty()) {
    ordered_json& cores = r["drive"]["cores"] = ordered_json::array();
    for (const config::CoreConfig& c : cfg.controller.cores) cores.push_back(c.name);
  }
  add_host(r, in);
  add_firmware(r, in);
  add_energy(r, in);
  if (in.ssd.power_budget()) r["power_budget"] = power_budget_json(in);
  if (in.ssd.thermal_throttle()) r["thermal"] = thermal_json(in);
  r["utilisation"] = utilisation_json(in);
  if (low_power_enabled(cfg)) r["low_power"] = low_power_json(in);
  r["scoreboard"] = {{"pages_checked", in.scoreboard.pages_checked()},
                     {"mismatches", in.scoreboard.mismatches()},
                     {"messages", in.scoreboard.messages()}};
  if (auto lifetime = lifetime_json(in); !lifetime.is_null()) r["lifetime"] = std::move(lifetime);
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

}  // namespace ssd::tb
