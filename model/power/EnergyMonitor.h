#pragma once
// The one place power-state transitions go. It integrates energy exactly (current is constant
// between transitions: energy = current x voltage x residence time, with residence time kept
// in integer picoseconds), and merges all components' transitions into the drive-level power
// timeline for peak power/current (of the drive and of each supply rail), time at peak, the
// power-analyser figures (PowerAnalyser.h), the dies' busy-period idle, the windowed energy
// series and the VCD. Each component draws from one rail, through a regulator whose
// efficiency divides its power; a rail with a baseline gets a "board" component.
//
// Components report transitions at or after the current simulation time, in order per
// component, but not in global order (timing is annotated ahead of simulation time). The
// monitor queues them (TransitionQueue.h) and commits, in time order, those that lie
// strictly before "now": no later report can precede them. A component that places its work
// out of time order (the DRAM, serving initiators that each run ahead by their own amount)
// keeps it and reports it when asked (Deferred): before each commit, what precedes it.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <systemc>

#include "common/SimNow.h"
#include "model/power/HoldUpMeter.h"
#include "model/power/PowerAnalyser.h"
#include "model/power/PowerState.h"
#include "model/power/TransitionQueue.h"
#include "model/power/VcdWriter.h"
#include "model/thermal/ThermalModel.h"

namespace ssd::model {

// The dies' group; the monitor tracks how many work at once (docs/energy-model.md).
inline constexpr const char* kNandGroup = "nand";

class EnergySeriesWriter;

class EnergyMonitor {
 public:
  using ComponentId = uint32_t;

  // An input rail, and the board's baseline current from it.
  struct Rail {
    std::string name;
    double voltage_v;
    double i_baseline_ma;
  };
  // Components of `group` draw their power / efficiency from rails[rail].
  struct Regulator {
    std::string group;
    uint32_t rail;
    double efficiency;
  };
  struct Options {
    // The first rail is the main one: the drive's current is its power at that voltage.
    std::vector<Rail> rails = {{"5v", 5.0, 0.0}};
    std::vector<Regulator> regulators;           // a group not listed: rails[0], efficiency 1
    sc_core::sc_time window;                     // energy series window
    std::vector<sc_core::sc_time> peak_windows;  // power-analyser averaging windows
    std::vector<double> current_levels_ma;       // drive-current histogram band edges
    std::string series_path;                     // empty: no series
    std::string vcd_path;                        // empty: no VCD file
    int vcd_fd = -1;                             // >= 0: the VCD also streamed there (to vcd2fst)
    VcdWriter::Selection vcd_selection;          // the VCD's time window and signals
    std::vector<std::string> vcd_probes;         // the VCD's probes (probe()), by index
    // >= 0: the power budget's cap (nW); a drive power above it held for any time is a
    // model error (docs/thermal.md#peak-power-budget).
    int64_t power_cap_nw = -1;
    // The thermal network the components' power heats (docs/thermal.md); null: none.
    std::shared_ptr<ThermalModel> thermal;
    // Keep each group's busy time on the committed timeline, for totals_at() (timeline.csv).
    bool group_busy = false;
  };

  // A component that reports its transitions when the monitor asks: report_before(h) reports,
  // in time order, those it holds before h. h = kNever (at the host phase's end, and at the
  // end) asks for all: the component places nothing before what it reported.
  class Deferred {
   public:
    virtual void report_before(uint64_t horizon_ps) = 0;

   protected:
    ~Deferred() = default;
  };
  static constexpr uint64_t kNever = TransitionQueue::kNever;

  explicit EnergyMonitor(Options opts);
  ~EnergyMonitor();
  EnergyMonitor(const EnergyMonitor&) = delete;
  EnergyMonitor& operator=(const EnergyMonitor&) = delete;

  // `group` names the kind of hardware ("controller", "dram", "host_interface", "channel",
  // "nand") for the energy series columns. Registration ends at the first transition.
  ComponentId add_component(const std::string& name, const std::string& group, double voltage_v,
                            const std::vector<StateCurrent>& states, PowerState initial);

  // `reporter` reports for every component it is asked about (their transitions come
  // from its report_before, none directly).
  void defer(Deferred& reporter) { deferred_.push_back(&reporter); }

  // `t` must be >= the component's previous transition and >= sim_now() (a deferred report:
  // >= the last commit's horizon). Inline: every module reports through it, a dozen times per
  // host request.
  void transition(ComponentId id, const sc_core::sc_time& t, PowerState s) {
    Component& c = comps_[id];
    const uint64_t tp = t.value();
    const uint64_t now = sim_now().value();
    if (!started_) start();
    if (c.kind[static_cast<std::size_t>(s)] == kNotDeclared || tp < c.since_ps ||
        tp < std::min(now, deferred_floor_ps_) || finished_)
      refuse(c, t, s);
    c.residence_ps[static_cast<std::size_t>(c.state)] += tp - c.since_ps;
    ++c.transitions;
    if (holding_ && held_.entry.id == id && held_.entry.t_ps == tp && merge_reports_) {
      hold(c, s);  // the held state lasted no time
    } else {
      if (holding_ && held_.changes) queue(held_.entry, now);
      held_.entry.t_ps = tp;
      held_.entry.id = id;
      held_.entry.rail = c.rail;
      held_.from = c.state;
      hold(c, s);
      holding_ = true;
    }
    c.state = s;
    c.since_ps = tp;
    if (++uncommitted_ >= commit_batch_ && pending_.earliest() < now) commit_before(now);
  }

  // Two transitions: to `busy` at `start`, back to `rest` at `end`. A busy period that starts
  // where the component's last one ended (its return to `rest`, still held) extends it.
  void occupy(ComponentId id, PowerState busy, const sc_core::sc_time& start,
              const sc_core::sc_time& end, PowerState rest) {
    Component& c = comps_[id];
    const uint64_t t0 = start.value(), t1 = end.value();
    if (holding_ && held_.entry.id == id && held_.entry.t_ps == t0 && held_.from == busy &&
        c.state == rest && merge_reports_ && t1 >= t0 && t0 >= sim_now().value()) {
      // What the two reports would do: the return to rest at t0 is replaced (it lasted no
      // time), and the new one at t1 is held in its place, as the same change.
      c.residence_ps[static_cast<std::size_t>(busy)] += t1 - t0;
      c.transitions += 2;
      c.since_ps = t1;
      held_.entry.t_ps = t1;
      uncommitted_ += 2;
      return;
    }
    transition(id, start, busy);
    transition(id, end, rest);
  }

  // Commits everything up to `end` (>= every reported transition) and closes the outputs.
  // Results below are final after this.
  void finish(const sc_core::sc_time& end);

  // The end of the host phase (docs/report.md#utilisation), marked at the host's last
  // completion `t` (the simulation time): each component's residence up to then, including
  // what it had already reported past `t` (work in flight); the host phase lasts until the
  // last of that work ends. What is reported later belongs to the after-run tail.
  void mark_host_phase_end(const sc_core::sc_time& t);
  struct PhaseMark {
    double mark_s = 0;  // the host's last completion
    double end_s = 0;   // the end of the work in flight then: the host phase is [0, end_s)
    std::vector<uint64_t> busy_ps;  // per component: time out of its rest states (as below)
  };
  // Null until marked.
  const PhaseMark* host_phase() const { return host_phase_ ? &*host_phase_ : nullptr; }

  struct ComponentEnergy {
    std::string name;
    std::string group;
    std::vector<std::pair<PowerState, double>> energy_j;  // per declared state, in order
    std::vector<std::pair<PowerState, double>> time_s;
    uint64_t transitions = 0;
    uint32_t rail = 0;
    double efficiency = 1;
    double peak_current_ma = 0;  // highest current of a state it spent time in
    uint64_t busy_ps = 0;        // time out of its rest states (idle, off, low-power)
  };
  std::vector<ComponentEnergy> component_energy() const;
  // Each component's power at its rail per state, in the monitor's integer nanowatts (-1: the
  // state is not declared), for the power budget's worst-case arithmetic.
  struct ComponentPower {
    std::string name;
    std::string group;
    std::array<int64_t, kPowerStateCount> power_nw;
  };
  std::vector<ComponentPower> component_powers() const;

  // The thermal model's node temperatures at `t` (<= the simulation time: what precedes it
  // is committed first), as the firmware's sensor reads them; written to the VCD.
  const std::vector<double>& read_temperatures(const sc_core::sc_time& t);
  // The thermal model's retention meter of node n at `t` (<= the simulation time: what precedes
  // it is committed first): what aging NAND's data has aged by since the run began.
  double retention_s(uint32_t n, const sc_core::sc_time& t);
  // What the drive did over [0, t_ps), exact, for timeline.csv: t_ps <= the simulation time
  // (what precedes it is committed first), or the end after finish(). `busy_ps`, by groups(),
  // adds up the time each component of the group spent out of its rest states, and
  // `component_busy_ps` is each component's, in component_powers()' order (both with
  // Options::group_busy; else empty); `temps_c` the thermal nodes' temperatures at t_ps.
  struct Totals {
    EnergyNwPs energy_nwps = 0;
    std::vector<uint64_t> busy_ps;
    std::vector<uint64_t> component_busy_ps;
    std::vector<double> temps_c;
  };
  void totals_at(uint64_t t_ps, Totals& out);
  // Sets probe `index` of Options::vcd_probes in the VCD at t_ps (<= the simulation time:
  // what precedes it is committed first, so the VCD stays in time order); nothing without a
  // VCD or after finish().
  void probe(uint64_t t_ps, uint32_t index, double value);
  // A loss of the supply (before the first transition): the drive's energy from then on is
  // metered, and with a VCD the bank's voltage is its probe kHoldUpProbe (if listed in
  // Options::vcd_probes), set as each power segment after the loss ends.
  void meter_hold_up(const HoldUpMeter& meter);
  static constexpr const char* kHoldUpProbe = "power_loss.bank_v";
  HoldUpMeter* hold_up() { return hold_up_ ? &*hold_up_ : nullptr; }
  const HoldUpMeter* hold_up() const { return hold_up_ ? &*hold_up_ : nullptr; }
  // The hardware groups, in the order they were first registered (energy.csv's columns).
  const std::vector<std::string>& groups() const { return groups_; }
  ThermalModel* thermal() { return opts_.thermal.get(); }
  const ThermalModel* thermal() const { return opts_.thermal.get(); }
  double total_energy_j() const;
  double peak_power_w() const;
  double peak_current_ma() const;    // drive supply current at peak power
  double time_at_peak_s() const;     // total time the drive spent at its peak power
  double first_peak_time_s() const;  // when the peak was first reached
  double duration_s() const;         // the integrated span: [0, end)
  double drive_voltage_v() const { return opts_.rails.front().voltage_v; }

  const std::vector<Rail>& rails() const { return opts_.rails; }
  double rail_peak_power_w(uint32_t rail) const {
    return double(std::max<int64_t>(rail_peak_nw_[rail], 0)) / 1e9;
  }
  // Power-analyser figures (docs/energy-model.md#power-analyser-metrics).
  const WindowedPeaks& windowed_peaks() const { return window_peaks_; }
  const std::vector<uint64_t>& current_band_ps() const { return histogram_.band_ps(); }
  // Time every NAND die spent drawing active current at once (none idle or off).
  double all_dies_active_s() const { return double(all_dies_active_ps_) / 1e12; }
  // Idle energy of the dies while at least one die worked: the founding study's NAND idle.
  double nand_busy_period_idle_j() const { return double(busy_idle_nwps_) * 1e-21; }

 private:
  // What a report touches comes first, in as few cache lines as it can: the monitor is fed
  // by every module, and its components' records compete with theirs for the cache.
  struct alignas(64) Component {
    uint64_t since_ps = 0;
    uint64_t transitions = 0;
    PowerState state = PowerState::Idle;  // as reported (leading edge)
    uint8_t rail = 0;
    bool nand = false;  // a die: counts for the all-dies-active time and busy-period idle
    // Per state: the drive-level view of it, kNotDeclared for a state the component lacks.
    // States of one kind have the same current and count alike for the dies' figures, so a
    // report between two of them changes nothing the drive level sees.
    std::array<uint8_t, kPowerStateCount> kind{};
    // Per state: the power it adds to the drive level (-1: state not declared).
    std::array<int64_t, kPowerStateCount> power_nw{};
    std::array<uint64_t, kPowerStateCount> residence_ps{};
    // Committed (time-ordered) view, for the VCD and the energy series.
    PowerState committed_state = PowerState::Idle;
    uint64_t committed_since_ps = 0;
    uint64_t committed_busy_ps = 0;  // Options::group_busy: out of its rest states, to since
    uint32_t group_index = 0;
    uint32_t thermal_node = 0;  // the node it heats, with a thermal model
    std::array<double, kPowerStateCount> current_ma{};
    double voltage_v = 0;
    double efficiency = 1;
    std::string name;
    std::string group;
  };
  static constexpr uint8_t kNotDeclared = 0xff;
  struct Committer;  // commits what the queue pops

  ComponentId add(const std::string& name, const std::string& group, double voltage_v,
                  const std::vector<StateCurrent>& states, PowerState initial, uint32_t rail,
                  double efficiency);
  void declare_vcd();
  // The transition's rare paths, out of its line.
  [[gnu::cold]] void start();
  [[gnu::cold]] void refuse(const Component& c, const sc_core::sc_time& t, PowerState s) const;
  void commit_before(uint64_t horizon_ps);
  // The held report (see held_) moves its component to `s`: what that does to the drive level.
  void hold(const Component& c, PowerState s) {
    const auto to = static_cast<std::size_t>(s);
    const auto from = static_cast<std::size_t>(held_.from);
    held_.entry.state = s;
    held_.entry.power_nw = c.power_nw[to] - c.power_nw[from];
    if (c.nand) {
      held_.entry.working_dies = int8_t(works(s) - works(held_.from));
      held_.entry.idle_dies_nw = idle_nw(c, s) - idle_nw(c, held_.from);
    } else {
      held_.entry.working_dies = 0;
      held_.entry.idle_dies_nw = 0;
    }
    held_.changes = c.kind[to] != c.kind[from];
  }
  // For a die: whether it works in state `s`, and the power it draws there idle.
  static int works(PowerState s) { return s != PowerState::Idle && s != PowerState::Off; }
  static int64_t idle_nw(const Component& c, PowerState s) {
    return s == PowerState::Idle ? c.power_nw[static_cast<std::size_t>(s)] : 0;
  }
  void queue(const TransitionQueue::Entry& e, uint64_t now_ps) { pending_.push(e, now_ps); }
  [[gnu::always_inline]] inline void advance_drive_to(uint64_t t_ps);
  void advance_with_series(uint64_t t_ps);  // the energy series' windows on the way
  // The drive held its power over [start, end): peak, power analyser, the dies' figures.
  // Inline: five times per host request, from the commit.
  [[gnu::always_inline]] inline void account(uint64_t start_ps, uint64_t end_ps);
  [[gnu::always_inline]] inline void analyse_to(uint64_t t_ps);
  // A power loss's meter takes the segment (out of account()'s line: most runs have none).
  [[gnu::cold, gnu::noinline]] void meter_hold_up(uint64_t start_ps, uint64_t end_ps);
  [[noreturn]] void over_cap(uint64_t t_ps) const;  // a model error
  // Every thermal node's temperature at t_ps (at or after its last change), into temps_.
  const std::vector<double>& temperatures_at(uint64_t t_ps);
  // Commits one transition: to the drive level, and per component for the outputs that need it.
  void apply(const TransitionQueue::Entry& e) {
    drive_power_nw_ += e.power_nw;
    rail_power_nw_[e.rail] += e.power_nw;
    working_dies_ += e.working_dies;
    idle_dies_nw_ += e.idle_dies_nw;
    if (per_component_) apply_to_component(e);
  }
  void apply_to_component(const TransitionQueue::Entry& e);
  // The component's committed state up to t_ps: its energy into the series' window, its busy
  // time into its group's; the state counts from t_ps on.
  void settle(Component& c, uint64_t t_ps);
  double drive_ma(int64_t power_nw) const { return double(power_nw) * 1e-6 / drive_voltage_v(); }
  double rail_ma(uint32_t r) const {
    return double(rail_power_nw_[r]) * 1e-6 / opts_.rails[r].voltage_v;
  }

  Options opts_;
  std::vector<Component> comps_;
  std::vector<std::string> groups_;
  TransitionQueue pending_;
  // The latest report, held back from the queue: the same component's next report at the
  // same time replaces it (the state in between lasted no time). This spares the queue and
  // the drive timeline the DRAM's back-to-back accesses. Not with a thermal model, whose
  // exponential steps at every reported time.
  // A report that changes nothing the drive level sees (it returns the component to the state
  // it had, or moves it to a state of the same kind) makes no time point: the drive-level
  // figures, and the energy series' exact sums, add up the same over one segment as over two.
  struct Held {
    TransitionQueue::Entry entry;
    PowerState from;  // the component's state before it
    bool changes;     // to a state of another kind
  };
  Held held_{};
  bool holding_ = false;
  bool merge_reports_ = true;
  // The VCD, the energy series or the thermal model follows each component's committed state.
  bool per_component_ = false;
  // Reports since the last commit: committing in batches keeps the commit loop's code and
  // data hot; what it commits is the same (a time is committed once every report at it is in).
  static constexpr uint32_t kCommitBatch = 64;
  uint32_t commit_batch_ = kCommitBatch;  // no commit while the deferred report (UINT32_MAX)
  uint32_t uncommitted_ = 0;
  std::vector<Deferred*> deferred_;
  // While the deferred report: the horizon committed last (their reports lie before now).
  uint64_t deferred_floor_ps_ = kNever;
  uint64_t committed_ps_ = 0;  // the last commit's horizon
  void report_deferred(uint64_t horizon_ps);
  bool started_ = false;  // a transition was reported: no more components
  // Drive-level committed timeline.
  int64_t drive_power_nw_ = 0;
  uint64_t drive_time_ps_ = 0;        // committed up to here
  EnergyNwPs drive_energy_nwps_ = 0;  // over [0, drive_time_ps_)
  int64_t peak_power_nw_ = -1;
  uint64_t time_at_peak_ps_ = 0;
  uint64_t first_peak_ps_ = 0;
  uint64_t end_ps_ = 0;
  std::vector<int64_t> rail_power_nw_;
  std::vector<int64_t> rail_peak_nw_;
  std::vector<int64_t> rail_before_nw_;  // at the last commit, for the VCD
  WindowedPeaks window_peaks_;
  PowerHistogram histogram_;
  uint64_t analysed_ps_ = 0;       // the analyser has the drive's power up to here
  int64_t analysed_power_nw_ = 0;  // the level held since analysed_ps_
  uint32_t dies_ = 0;
  uint32_t working_dies_ = 0;
  int64_t idle_dies_nw_ = 0;  // power of the dies now idle
  uint64_t all_dies_active_ps_ = 0;
  EnergyNwPs busy_idle_nwps_ = 0;
  bool finished_ = false;
  std::unique_ptr<EnergySeriesWriter> series_;
  std::unique_ptr<VcdWriter> vcd_;
  std::vector<double> temps_;  // scratch for temperatures_at
  std::optional<PhaseMark> host_phase_;
  std::optional<HoldUpMeter> hold_up_;
  uint32_t bank_probe_ = UINT32_MAX;  // kHoldUpProbe's index; UINT32_MAX: not written
  bool bank_charged_ = false;         // its charged voltage written
};

}  // namespace ssd::model
