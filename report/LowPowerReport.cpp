#include "report/LowPowerReport.h"

#include <algorithm>
#include <cstdio>

namespace ssd::report {
namespace {

using nlohmann::ordered_json;

// Time (of one component: they share their states' times) and energy (all of them) the
// components named in `names` spent in `state`.
std::pair<double, double> in_state(const model::EnergyMonitor& energy,
                                   const std::vector<std::string>& names, model::PowerState state) {
  double time_s = 0, energy_j = 0;
  for (const auto& c : energy.component_energy()) {
    if (std::find(names.begin(), names.end(), c.name) == names.end()) continue;
    for (const auto& [s, t] : c.time_s)
      if (s == state) time_s = t;
    for (const auto& [s, j] : c.energy_j)
      if (s == state) energy_j += j;
  }
  return {time_s, energy_j};
}

}  // namespace

bool low_power_enabled(const config::DriveConfig& cfg) {
  return !cfg.host.link_states.empty() || cfg.dram.self_refresh.enabled ||
         cfg.flash.die_power_down.enabled || cfg.controller.clock_gating.enabled;
}

ordered_json low_power_json(const ReportInputs& in) {
  ordered_json r = ordered_json::object();
  const auto& states = in.cfg.host.link_states;
  if (!states.empty()) {
    const auto& host_if = in.ssd.host_interface();
    const auto& usage = host_if.link_power();
    ordered_json list = ordered_json::array();
    for (std::size_t k = 0; k < states.size(); ++k) {
      const auto [t, j] = in_state(in.energy, host_if.power_names(),
                                   model::PowerState(std::size_t(model::PowerState::Low1) + k));
      list.push_back(
          {{"name", states[k].name},
           {"state", model::to_string(model::PowerState(std::size_t(model::PowerState::Low1) + k))},
           {"entries", usage.entries[k]},
           {"wakes", usage.wakes[k]},
           {"time_s", t},
           {"energy_j", j}});
    }
    r["host_link"] = {{"states", std::move(list)}, {"wake_wait_s", usage.wake_wait.to_seconds()}};
  }
  if (in.cfg.controller.clock_gating.enabled) {
    const auto [t, j] = in_state(in.energy, {"controller"}, model::PowerState::ClockGated);
    r["controller_clock_gating"] = {
        {"entries", in.ssd.controller().clock_gate_entries()}, {"time_s", t}, {"energy_j", j}};
  }
  if (in.cfg.dram.self_refresh.enabled) {
    const auto& dram = in.ssd.dram();
    const auto [t, j] = in_state(in.energy, {"dram"}, model::PowerState::SelfRefresh);
    r["dram_self_refresh"] = {{"entries", dram.self_refresh_entries()},
                              {"time_s", t},
                              {"energy_j", j},
                              {"wake_wait_s", dram.self_refresh_wait().to_seconds()}};
  }
  if (in.cfg.flash.die_power_down.enabled) {
    uint64_t downs = 0, wakes = 0;
    double off_s = 0, off_j = 0;
    for (uint32_t ch = 0; ch < in.ssd.channels(); ++ch) {
      downs += in.ssd.channel(ch).usage().die_power_downs;
      wakes += in.ssd.channel(ch).usage().die_wakes;
    }
    for (const auto& c : in.energy.component_energy()) {
      if (c.group != "nand") continue;
      for (const auto& [s, t] : c.time_s)
        if (s == model::PowerState::Off) off_s += t;
      for (const auto& [s, j] : c.energy_j)
        if (s == model::PowerState::Off) off_j += j;
    }
    r["die_power_down"] = {
        {"power_downs", downs}, {"wakes", wakes}, {"off_die_s", off_s}, {"off_energy_j", off_j}};
  }
  return r;
}

std::string low_power_summary(const ordered_json& lp) {
  char buf[256];
  std::string out = "  low power ";
  if (lp.contains("host_link")) {
    for (const auto& s : lp["host_link"]["states"]) {
      std::snprintf(buf, sizeof buf, " link %s %llu x, %.6g s, %.6g J;",
                    s["name"].get<std::string>().c_str(), s["entries"].get<unsigned long long>(),
                    s["time_s"].get<double>(), s["energy_j"].get<double>());
      out += buf;
    }
  }
  if (lp.contains("controller_clock_gating")) {
    const auto& g = lp["controller_clock_gating"];
    std::snprintf(buf, sizeof buf, " core clock gated %llu x, %.6g s, %.6g J;",
                  g["entries"].get<unsigned long long>(), g["time_s"].get<double>(),
                  g["energy_j"].get<double>());
    out += buf;
  }
  if (lp.contains("dram_self_refresh")) {
    const auto& d = lp["dram_self_refresh"];
    std::snprintf(buf, sizeof buf, " DRAM self-refresh %llu x, %.6g s, %.6g J;",
                  d["entries"].get<unsigned long long>(), d["time_s"].get<double>(),
                  d["energy_j"].get<double>());
    out += buf;
  }
  if (lp.contains("die_power_down")) {
    const auto& d = lp["die_power_down"];
    std::snprintf(buf, sizeof buf, " dies off %llu x, woken %llu x, %.6g die-s;",
                  d["power_downs"].get<unsigned long long>(), d["wakes"].get<unsigned long long>(),
                  d["off_die_s"].get<double>());
    out += buf;
  }
  out.back() = '\n';
  return out;
}

}  // namespace ssd::report
