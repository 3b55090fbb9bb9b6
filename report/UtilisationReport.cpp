#include "report/UtilisationReport.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace ssd::report {
namespace {

using nlohmann::ordered_json;

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

}  // namespace

// The whole energy span, then the host phase and the after-run tail (folding, destaging,
// background GC) once the host has finished (docs/report.md#utilisation).
nlohmann::ordered_json utilisation_json(const ReportInputs& in) {
  using nlohmann::ordered_json;
  const auto comps = in.energy.component_energy();
  std::vector<model::FlashChannel::Usage> channels;
  uint64_t multiplane_groups = 0, cache_programs = 0, suspensions = 0, merged_reads = 0,
           word_line_programs = 0;
  for (uint32_t ch = 0; ch < in.ssd.channels(); ++ch) {
    const auto& u = in.ssd.channel(ch).usage();
    channels.push_back(u);
    merged_reads += u.merged_reads;              // unit reads another's array read served
    multiplane_groups += u.multiplane_groups;    // array operations on more than one plane
    cache_programs += u.cache_programs;          // programs whose data moved in during another
    suspensions += u.suspensions;                // programs and erases suspended for a read
    word_line_programs += u.word_line_programs;  // one-shot programs, a plane's word line each
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
  ordered_json counters = {{"multiplane_groups", multiplane_groups},
                           {"cache_programs", cache_programs},
                           {"suspensions", suspensions},
                           {"merged_reads", merged_reads}};
  // Only on drives that program word lines at once (flash.program_unit word_line).
  if (in.cfg.flash.program_unit == config::ProgramUnit::WordLine)
    counters["word_line_programs"] = word_line_programs;
  ordered_json r = resources_json(in, whole, counters);
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

}  // namespace ssd::report
