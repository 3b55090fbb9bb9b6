#include "report/PowerReport.h"

#include <algorithm>
#include <string>
#include <vector>

namespace ssd::report {

using nlohmann::ordered_json;

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
        case PowerState::ProgramWordLine:
        case PowerState::ProgramWordLineMultiplane:
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

}  // namespace ssd::report
