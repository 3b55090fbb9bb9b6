#include "model/power/EnergyMonitor.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/SimNow.h"
#include "model/power/EnergySeriesWriter.h"
#include "model/power/VcdWriter.h"

namespace ssd::model {
namespace {

constexpr const char* kMsgId = "/ssdtlm/energy";

// Power in integer nanowatts keeps the drive-level sum free of rounding drift, so "at peak"
// is an exact comparison. 1 mA x 1 V = 1e6 nW. What the rail sees is the power divided by
// the efficiency of the component's regulator.
int64_t to_nw(double current_ma, double voltage_v, double efficiency) {
  return std::llround(current_ma * voltage_v / efficiency * 1e6);
}

// What a component in state `s` does, for its group's counts in the VCD.
VcdWriter::Activity activity_of(PowerState s) {
  using A = VcdWriter::Activity;
  switch (s) {
    case PowerState::Read:
    case PowerState::ReadMultiplane:
    case PowerState::SpareRead:
      return A::Read;
    case PowerState::Program:
    case PowerState::ProgramMultiplane:
    case PowerState::ProgramWordLine:
    case PowerState::ProgramWordLineMultiplane:
      return A::Program;
    case PowerState::Erase:
    case PowerState::EraseMultiplane:
      return A::Erase;
    default:
      return resting(s) ? A::Rest : A::Other;
  }
}

}  // namespace

EnergyMonitor::EnergyMonitor(Options opts) : opts_(std::move(opts)) {
  if (sc_core::sc_get_time_resolution() != sc_core::sc_time(1, sc_core::SC_PS))
    SC_REPORT_FATAL(kMsgId, "the energy monitor needs a 1 ps time resolution");
  if (opts_.rails.empty()) SC_REPORT_FATAL(kMsgId, "the drive has no supply rail");
  merge_reports_ = !opts_.thermal;
  // Current levels as drive power: I x V at the main rail, in nW.
  std::vector<double> levels_nw;
  for (double ma : opts_.current_levels_ma) levels_nw.push_back(ma * drive_voltage_v() * 1e6);
  histogram_ = PowerHistogram(levels_nw);
  rail_power_nw_.assign(opts_.rails.size(), 0);
  rail_peak_nw_.assign(opts_.rails.size(), -1);
  std::vector<uint64_t> windows_ps;
  for (const auto& w : opts_.peak_windows) {
    if (w == sc_core::SC_ZERO_TIME) SC_REPORT_FATAL(kMsgId, "power-analyser window is zero");
    windows_ps.push_back(w.value());
  }
  window_peaks_ = WindowedPeaks(windows_ps);
  for (uint32_t r = 0; r < opts_.rails.size(); ++r) {
    const Rail& rail = opts_.rails[r];
    if (rail.i_baseline_ma <= 0) continue;
    // Measured at the rail, so no regulator in between.
    add(opts_.rails.size() == 1 ? "board" : "board." + rail.name, "board", rail.voltage_v,
        {{PowerState::On, rail.i_baseline_ma}}, PowerState::On, r, 1.0);
  }
  if (!opts_.series_path.empty()) {
    if (opts_.window == sc_core::SC_ZERO_TIME) SC_REPORT_FATAL(kMsgId, "energy window is zero");
    series_ = std::make_unique<EnergySeriesWriter>(opts_.series_path, opts_.window.value(),
                                                   drive_voltage_v());
  }
  if (!opts_.vcd_path.empty() || opts_.vcd_fd >= 0)
    vcd_ = std::make_unique<VcdWriter>(opts_.vcd_path, opts_.vcd_fd, opts_.vcd_selection);
}

EnergyMonitor::~EnergyMonitor() = default;

EnergyMonitor::ComponentId EnergyMonitor::add_component(const std::string& name,
                                                        const std::string& group, double voltage_v,
                                                        const std::vector<StateCurrent>& states,
                                                        PowerState initial) {
  const auto reg = std::find_if(opts_.regulators.begin(), opts_.regulators.end(),
                                [&](const Regulator& r) { return r.group == group; });
  if (reg == opts_.regulators.end()) return add(name, group, voltage_v, states, initial, 0, 1.0);
  return add(name, group, voltage_v, states, initial, reg->rail, reg->efficiency);
}

EnergyMonitor::ComponentId EnergyMonitor::add(const std::string& name, const std::string& group,
                                              double voltage_v,
                                              const std::vector<StateCurrent>& states,
                                              PowerState initial, uint32_t rail,
                                              double efficiency) {
  if (started_) SC_REPORT_FATAL(kMsgId, ("component registered after start: " + name).c_str());
  if (rail >= opts_.rails.size() || rail > UINT8_MAX || !(efficiency > 0 && efficiency <= 1))
    SC_REPORT_FATAL(kMsgId, (name + ": no such rail, or an efficiency outside (0, 1]").c_str());
  Component c;
  c.name = name;
  c.group = group;
  auto g = std::find(groups_.begin(), groups_.end(), group);
  c.group_index = static_cast<uint32_t>(g - groups_.begin());
  if (g == groups_.end()) groups_.push_back(group);
  c.rail = uint8_t(rail);
  c.nand = group == kNandGroup;
  c.voltage_v = voltage_v;
  c.efficiency = efficiency;
  c.power_nw.fill(-1);
  for (const auto& sc : states) {
    auto i = static_cast<std::size_t>(sc.state);
    c.power_nw[i] = to_nw(sc.current_ma, voltage_v, efficiency);
    c.current_ma[i] = sc.current_ma;
  }
  // A state's kind: the first declared state with the same current that counts alike for the
  // dies' figures (working, idle).
  c.kind.fill(kNotDeclared);
  for (std::size_t i = 0; i < kPowerStateCount; ++i) {
    if (c.power_nw[i] < 0) continue;
    const auto same = [&](std::size_t j) {
      return c.power_nw[j] >= 0 && c.current_ma[j] == c.current_ma[i] &&
             works(PowerState(j)) == works(PowerState(i)) &&
             (PowerState(j) == PowerState::Idle) == (PowerState(i) == PowerState::Idle);
    };
    std::size_t j = 0;
    while (!same(j)) ++j;
    c.kind[i] = uint8_t(j);
  }
  const auto init = static_cast<std::size_t>(initial);
  if (c.power_nw[init] < 0)
    SC_REPORT_FATAL(kMsgId, (name + ": initial state not declared").c_str());
  c.state = c.committed_state = initial;
  drive_power_nw_ += c.power_nw[init];
  analysed_power_nw_ = drive_power_nw_;  // registration ends before time moves
  rail_power_nw_[rail] += c.power_nw[init];
  if (c.nand) {
    ++dies_;
    working_dies_ += uint32_t(works(initial));
    idle_dies_nw_ += idle_nw(c, initial);
  }
  if (opts_.thermal) {
    c.thermal_node = opts_.thermal->node_of(name, group);
    opts_.thermal->add_power(c.thermal_node, 0, c.power_nw[init]);
  }
  comps_.push_back(std::move(c));
  return static_cast<ComponentId>(comps_.size() - 1);
}

// The first transition: the outputs' layout is now fixed.
void EnergyMonitor::start() {
  started_ = true;
  per_component_ = vcd_ || series_ || opts_.thermal || opts_.group_busy;
  if (vcd_) {
    declare_vcd();
    for (uint32_t i = 0; i < comps_.size(); ++i)
      vcd_->change_activity(0, i, activity_of(comps_[i].state));
  }
  std::vector<std::string> nodes;
  if (opts_.thermal)
    for (const auto& n : opts_.thermal->nodes()) nodes.push_back(n.name);
  if (series_) series_->set_groups(groups_, nodes);
}

void EnergyMonitor::refuse(const Component& c, const sc_core::sc_time& t, PowerState s) const {
  if (c.kind[static_cast<std::size_t>(s)] == kNotDeclared)
    SC_REPORT_ERROR(kMsgId, (c.name + ": has no power state '" + to_string(s) + "'").c_str());
  else
    SC_REPORT_ERROR(kMsgId, (c.name + ": transition to '" + to_string(s) + "' at " + t.to_string() +
                             " goes back in time")
                                .c_str());
}

void EnergyMonitor::declare_vcd() {
  std::vector<std::string> names;
  std::vector<bool> dies;
  std::vector<double> initial_ma, voltage_v;
  for (const auto& k : comps_) {
    names.push_back(k.name);
    dies.push_back(k.nand);
    initial_ma.push_back(k.current_ma[static_cast<std::size_t>(k.state)]);
    voltage_v.push_back(k.voltage_v);
  }
  std::vector<std::pair<std::string, double>> rails;
  for (uint32_t r = 0; r < opts_.rails.size(); ++r)
    rails.emplace_back(opts_.rails[r].name, rail_ma(r));
  std::vector<std::pair<std::string, double>> nodes;
  if (opts_.thermal)
    for (const auto& n : opts_.thermal->nodes())
      nodes.emplace_back(n.name, opts_.thermal->ambient_c());
  vcd_->declare(names, dies, initial_ma, voltage_v, rails, drive_ma(drive_power_nw_), nodes,
                opts_.vcd_probes);
}

// Accounts the drive-level power level held over [drive_time_ps_, t): peak, time at peak and
// the series windows it crosses.
inline void EnergyMonitor::advance_drive_to(uint64_t t) {
  if (series_) {
    advance_with_series(t);
  } else if (drive_time_ps_ < t) {
    account(drive_time_ps_, t);
    drive_time_ps_ = t;
  }
}

inline void EnergyMonitor::account(uint64_t start, uint64_t end) {
  const uint64_t dt = end - start;
  drive_energy_nwps_ += EnergyNwPs(drive_power_nw_) * EnergyNwPs(dt);
  if (opts_.power_cap_nw >= 0 && drive_power_nw_ > opts_.power_cap_nw) over_cap(start);
  if (hold_up_) [[unlikely]]
    meter_hold_up(start, end);
  if (drive_power_nw_ > peak_power_nw_) {
    peak_power_nw_ = drive_power_nw_;
    time_at_peak_ps_ = dt;
    first_peak_ps_ = start;
  } else if (drive_power_nw_ == peak_power_nw_) {
    time_at_peak_ps_ += dt;
  }
  for (std::size_t r = 0; r < rail_power_nw_.size(); ++r)
    rail_peak_nw_[r] = std::max(rail_peak_nw_[r], rail_power_nw_[r]);
  if (drive_power_nw_ != analysed_power_nw_) analyse_to(start);
  if (working_dies_ > 0) {
    busy_idle_nwps_ += EnergyNwPs(idle_dies_nw_) * dt;
    if (working_dies_ == dies_) all_dies_active_ps_ += dt;
  }
}

// Hands the power level held since the last change of level, up to t, to the power
// analyser: its work is per change of the drive's power, not per commit (transitions between
// states of equal power, series window boundaries).
inline void EnergyMonitor::analyse_to(uint64_t t) {
  if (t > analysed_ps_) {
    window_peaks_.add(analysed_ps_, t, analysed_power_nw_);
    histogram_.add(analysed_ps_, t, analysed_power_nw_);
  }
  analysed_ps_ = t;
  analysed_power_nw_ = drive_power_nw_;
}

// Every transition at one time t, by component, then the drive level after them: a peak is
// a level the drive holds, not a step on the way to one. A component that reported two states
// at t held the first for no time: only the last counts for the VCD.
struct EnergyMonitor::Committer {
  EnergyMonitor& m;
  uint64_t t = 0;
  int64_t drive_before = 0;
  uint32_t vcd_id = kNone;  // the component whose transitions at t are being applied
  double was_ma = 0;        // its current before them
  VcdWriter::Activity was_doing = VcdWriter::Activity::Rest;  // and what it did
  static constexpr uint32_t kNone = UINT32_MAX;

  void begin(uint64_t time) {
    t = time;
    m.advance_drive_to(t);
    if (!m.vcd_) return;
    drive_before = m.drive_power_nw_;
    m.rail_before_nw_ = m.rail_power_nw_;
    vcd_id = kNone;
  }
  void entry(const TransitionQueue::Entry& e) {
    if (m.vcd_ && e.id != vcd_id) {
      change_component();
      vcd_id = e.id;
      was_ma = current_ma(e.id);
      was_doing = activity_of(m.comps_[e.id].committed_state);
    }
    m.apply(e);
  }
  void end(uint64_t) {
    if (!m.vcd_) return;
    change_component();
    for (uint32_t r = 0; r < m.rail_power_nw_.size(); ++r)
      if (m.rail_power_nw_[r] != m.rail_before_nw_[r]) m.vcd_->change_rail(t, r, m.rail_ma(r));
    if (m.drive_power_nw_ != drive_before) m.vcd_->change_drive(t, m.drive_ma(m.drive_power_nw_));
  }
  double current_ma(uint32_t id) const {
    const Component& c = m.comps_[id];
    return c.current_ma[static_cast<std::size_t>(c.committed_state)];
  }
  void change_component() {
    if (vcd_id == kNone) return;
    const double now_ma = current_ma(vcd_id);
    if (now_ma != was_ma) m.vcd_->change(t, vcd_id, now_ma);
    const VcdWriter::Activity doing = activity_of(m.comps_[vcd_id].committed_state);
    if (doing != was_doing) m.vcd_->change_activity(t, vcd_id, doing);
  }
};

void EnergyMonitor::report_deferred(uint64_t horizon_ps) {
  deferred_floor_ps_ = committed_ps_;
  commit_batch_ = UINT32_MAX;
  for (Deferred* d : deferred_) d->report_before(horizon_ps);
  commit_batch_ = kCommitBatch;
  deferred_floor_ps_ = kNever;
}

void EnergyMonitor::commit_before(uint64_t horizon_ps) {
  if (!deferred_.empty()) report_deferred(horizon_ps);
  committed_ps_ = std::max(committed_ps_, horizon_ps);
  uncommitted_ = 0;
  if (holding_ && held_.entry.t_ps < horizon_ps) {  // no report can join it now
    if (held_.changes) queue(held_.entry, sim_now().value());
    holding_ = false;
  }
  pending_.pop_before(horizon_ps, Committer{*this});
}

void EnergyMonitor::advance_with_series(uint64_t t) {
  while (drive_time_ps_ < t) {
    const uint64_t w = series_->window_ps();
    uint64_t window_end = (drive_time_ps_ / w + 1) * w;
    // Whole windows at one power level become one row, so energy.csv grows with activity
    // rather than with simulated time (a trace may hold days of idleness).
    if (drive_time_ps_ % w == 0 && t - drive_time_ps_ >= 2 * w) {
      window_end = drive_time_ps_ + (t - drive_time_ps_) / w * w;
    }
    const uint64_t seg_start = drive_time_ps_;
    const uint64_t seg_end = std::min(t, window_end);
    account(seg_start, seg_end);
    series_->note_power(drive_power_nw_);
    drive_time_ps_ = seg_end;
    if (seg_end == window_end) {
      for (Component& c : comps_) settle(c, window_end);
      series_->close_window(std::min(seg_start, window_end - series_->window_ps()), window_end,
                            temperatures_at(window_end));
    }
  }
}

// The component's committed state, for the VCD and the energy series, and its power's share
// of the thermal model.
void EnergyMonitor::apply_to_component(const TransitionQueue::Entry& e) {
  Component& c = comps_[e.id];
  settle(c, e.t_ps);
  c.committed_state = e.state;
  if (opts_.thermal && e.power_nw != 0)
    opts_.thermal->add_power(c.thermal_node, e.t_ps, e.power_nw);
}

void EnergyMonitor::settle(Component& c, uint64_t t_ps) {
  const uint64_t dt = t_ps - c.committed_since_ps;
  if (series_)
    series_->add(
        c.group_index,
        EnergyNwPs(c.power_nw[static_cast<std::size_t>(c.committed_state)]) * EnergyNwPs(dt));
  if (opts_.group_busy && !resting(c.committed_state)) c.committed_busy_ps += dt;
  c.committed_since_ps = t_ps;
}

void EnergyMonitor::totals_at(uint64_t t_ps, Totals& out) {
  if (!finished_) commit_before(t_ps);
  out.energy_nwps =
      drive_energy_nwps_ + EnergyNwPs(drive_power_nw_) * EnergyNwPs(t_ps - drive_time_ps_);
  out.busy_ps.clear();
  out.component_busy_ps.clear();
  if (opts_.group_busy) {
    out.busy_ps.assign(groups_.size(), 0);
    for (const Component& c : comps_) {
      const uint64_t busy =
          c.committed_busy_ps + (resting(c.committed_state) ? 0 : t_ps - c.committed_since_ps);
      out.busy_ps[c.group_index] += busy;
      out.component_busy_ps.push_back(busy);
    }
  }
  out.temps_c = temperatures_at(t_ps);
}

void EnergyMonitor::probe(uint64_t t_ps, uint32_t index, double value) {
  if (!vcd_ || finished_) return;
  commit_before(t_ps);
  if (!started_) start();  // an idle drive: the probes' first change fixes the layout
  vcd_->change_probe(t_ps, index, value);
}

void EnergyMonitor::over_cap(uint64_t t_ps) const {
  const std::string msg =
      "model error: the drive draws " + std::to_string(double(drive_power_nw_) / 1e9) + " W from " +
      std::to_string(double(t_ps) / 1e12) + " s on, above its power budget of " +
      std::to_string(double(opts_.power_cap_nw) / 1e9) + " W";
  SC_REPORT_ERROR(kMsgId, msg.c_str());
  throw std::logic_error(msg);  // only reached if the report action was changed from throw
}

const std::vector<double>& EnergyMonitor::temperatures_at(uint64_t t_ps) {
  temps_.clear();
  if (opts_.thermal)
    for (uint32_t n = 0; n < opts_.thermal->nodes().size(); ++n)
      temps_.push_back(opts_.thermal->temperature_c(n, t_ps));
  return temps_;
}

const std::vector<double>& EnergyMonitor::read_temperatures(const sc_core::sc_time& t) {
  const uint64_t t_ps = t.value();
  commit_before(t_ps);
  temperatures_at(t_ps);
  if (vcd_ && started_)
    for (uint32_t n = 0; n < temps_.size(); ++n) vcd_->change_temperature(t_ps, n, temps_[n]);
  return temps_;
}

double EnergyMonitor::retention_s(uint32_t n, const sc_core::sc_time& t) {
  commit_before(t.value());
  return opts_.thermal->retention_s(n, t.value());
}

std::vector<EnergyMonitor::ComponentPower> EnergyMonitor::component_powers() const {
  std::vector<ComponentPower> out;
  for (const Component& c : comps_) out.push_back({c.name, c.group, c.power_nw});
  return out;
}

void EnergyMonitor::finish(const sc_core::sc_time& end) {
  if (finished_) return;
  uint64_t end_ps = end.value();
  if (!deferred_.empty()) report_deferred(kNever);
  for (const Component& c : comps_) end_ps = std::max(end_ps, c.since_ps);  // its last report
  commit_before(kNever);
  advance_drive_to(end_ps);
  analyse_to(end_ps);
  window_peaks_.finish();
  for (Component& c : comps_) {
    c.residence_ps[static_cast<std::size_t>(c.state)] += end_ps - c.since_ps;
    c.since_ps = end_ps;
  }
  if (series_) {
    const uint64_t start = series_->closed_until_ps();
    if (end_ps > start) {  // the last, partial window (a whole one was closed on the way)
      for (Component& c : comps_) settle(c, end_ps);
      series_->close_window(start, end_ps, temperatures_at(end_ps));
    }
    series_->commit();
  }
  if (opts_.thermal) opts_.thermal->finish(end_ps);
  if (vcd_) {
    if (!started_) declare_vcd();
    vcd_->finish(end_ps);
  }
  end_ps_ = end_ps;
  finished_ = true;
}

std::vector<EnergyMonitor::ComponentEnergy> EnergyMonitor::component_energy() const {
  std::vector<ComponentEnergy> out;
  for (const Component& c : comps_) {
    ComponentEnergy ce{c.name, c.group, {}, {}, c.transitions, c.rail, c.efficiency, 0.0};
    for (std::size_t i = 0; i < kPowerStateCount; ++i) {
      if (c.power_nw[i] < 0) continue;
      const double seconds = double(c.residence_ps[i]) / 1e12;
      ce.energy_j.emplace_back(PowerState(i),
                               c.current_ma[i] * 1e-3 * c.voltage_v * seconds / c.efficiency);
      ce.time_s.emplace_back(PowerState(i), seconds);
      if (c.residence_ps[i] > 0) ce.peak_current_ma = std::max(ce.peak_current_ma, c.current_ma[i]);
      if (!resting(PowerState(i))) ce.busy_ps += c.residence_ps[i];
    }
    out.push_back(std::move(ce));
  }
  return out;
}

double EnergyMonitor::total_energy_j() const {
  double sum = 0;
  for (const auto& c : component_energy())
    for (const auto& [state, joules] : c.energy_j) sum += joules;
  return sum;
}

double EnergyMonitor::peak_power_w() const {
  return double(std::max<int64_t>(peak_power_nw_, 0)) / 1e9;
}
double EnergyMonitor::peak_current_ma() const { return peak_power_w() / drive_voltage_v() * 1e3; }

double EnergyMonitor::time_at_peak_s() const { return double(time_at_peak_ps_) / 1e12; }
double EnergyMonitor::first_peak_time_s() const { return double(first_peak_ps_) / 1e12; }
double EnergyMonitor::duration_s() const { return double(end_ps_) / 1e12; }

void EnergyMonitor::mark_host_phase_end(const sc_core::sc_time& t) {
  const uint64_t t_ps = t.value();
  // The work in flight counts: what deferred components hold is reported now.
  if (!deferred_.empty()) report_deferred(kNever);
  PhaseMark m;
  m.mark_s = double(t_ps) / 1e12;
  uint64_t end_ps = t_ps;
  for (const Component& c : comps_) {
    // Every transition up to t is reported (reports are made at or before their time), and the
    // state a component is in at its last report holds until a report at t or later.
    uint64_t busy = 0;
    for (std::size_t i = 0; i < kPowerStateCount; ++i)
      if (!resting(PowerState(i))) busy += c.residence_ps[i];
    if (c.since_ps < t_ps && !resting(c.state)) busy += t_ps - c.since_ps;
    m.busy_ps.push_back(busy);
    end_ps = std::max(end_ps, c.since_ps);
  }
  m.end_s = double(end_ps) / 1e12;
  host_phase_ = std::move(m);
}

}  // namespace ssd::model
