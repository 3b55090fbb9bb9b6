#pragma once
// The one place power-state transitions go. It integrates energy exactly (current is constant
// between transitions: energy = current x voltage x residence time, with residence time kept
// in integer picoseconds), and merges all components' transitions into the drive-level power
// timeline for peak power/current, time at peak, the windowed energy series and the VCD.
//
// Components report transitions at or after the current simulation time, in order per
// component, but not in global order (timing is annotated ahead of simulation time). The
// monitor queues them and commits, in time order, those that lie strictly before "now":
// no later report can precede them.
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "model/PowerState.h"

namespace ssd::model {

class EnergySeriesWriter;
class VcdWriter;

class EnergyMonitor {
 public:
  using ComponentId = uint32_t;

  struct Options {
    double drive_voltage_v = 5.0;
    sc_core::sc_time window;   // energy series window
    std::string series_path;   // empty: no series
    std::string vcd_path;      // empty: no VCD
  };

  explicit EnergyMonitor(Options opts);
  ~EnergyMonitor();
  EnergyMonitor(const EnergyMonitor&) = delete;
  EnergyMonitor& operator=(const EnergyMonitor&) = delete;

  // `group` names the kind of hardware ("controller", "dram", "host_interface", "channel",
  // "nand") for the energy series columns. Registration ends at the first transition.
  ComponentId add_component(const std::string& name, const std::string& group, double voltage_v,
                            const std::vector<StateCurrent>& states, PowerState initial);

  // `t` must be >= the component's previous transition and >= sc_time_stamp().
  void transition(ComponentId id, const sc_core::sc_time& t, PowerState s);

  // Commits everything up to `end` (>= every reported transition) and closes the outputs.
  // Results below are final after this.
  void finish(const sc_core::sc_time& end);

  struct ComponentEnergy {
    std::string name;
    std::string group;
    std::vector<std::pair<PowerState, double>> energy_j;  // per declared state, in order
    std::vector<std::pair<PowerState, double>> time_s;
    uint64_t transitions = 0;
  };
  std::vector<ComponentEnergy> component_energy() const;
  double total_energy_j() const;
  double peak_power_w() const;
  double peak_current_ma() const;     // drive supply current at peak power
  double time_at_peak_s() const;      // total time the drive spent at its peak power
  double first_peak_time_s() const;   // when the peak was first reached
  double duration_s() const;          // the integrated span: [0, end)
  double drive_voltage_v() const { return opts_.drive_voltage_v; }

 private:
  // A transition reported but not yet committed to the drive-level timeline.
  struct Pending {
    uint64_t t_ps;
    PowerState state;
  };
  struct Component {
    std::string name;
    std::string group;
    uint32_t group_index = 0;
    double voltage_v = 0;
    std::array<int64_t, kPowerStateCount> power_nw{};  // -1: state not declared
    std::array<double, kPowerStateCount> current_ma{};
    std::array<uint64_t, kPowerStateCount> residence_ps{};
    PowerState state = PowerState::Idle;  // as reported (leading edge)
    uint64_t since_ps = 0;
    // Reports are in time order per component, so each component keeps a FIFO; the drive
    // timeline merges the FIFOs' heads.
    std::vector<Pending> pending;
    std::size_t head = 0;
    // Committed (time-ordered) view, for the drive-level timeline.
    PowerState committed_state = PowerState::Idle;
    uint64_t committed_since_ps = 0;
    uint64_t transitions = 0;
  };
  // A component whose oldest pending transition is at t_ps.
  struct Head {
    uint64_t t_ps;
    ComponentId id;
    bool operator>(const Head& o) const { return t_ps != o.t_ps ? t_ps > o.t_ps : id > o.id; }
  };
  // Min-heap of heads. replace_top() moves the component just committed on to its next
  // transition with one sift-down, where std::priority_queue needs a pop and a push: this is
  // the simulator's hottest loop.
  class HeadHeap {
   public:
    bool empty() const { return v_.empty(); }
    const Head& top() const { return v_.front(); }
    void push(const Head& h);
    void pop();
    void replace_top(const Head& h);

   private:
    void sift_down(std::size_t i);
    std::vector<Head> v_;
  };

  void commit_before(uint64_t horizon_ps);
  void advance_drive_to(uint64_t t_ps);
  // Commits component `id`'s oldest pending transition (at t_ps); true if its current changed.
  bool apply(ComponentId id);

  Options opts_;
  std::vector<Component> comps_;
  std::vector<std::string> groups_;
  HeadHeap heads_;
  bool started_ = false;  // a transition was reported: no more components
  // Drive-level committed timeline.
  int64_t drive_power_nw_ = 0;
  uint64_t drive_time_ps_ = 0;  // committed up to here
  int64_t peak_power_nw_ = -1;
  uint64_t time_at_peak_ps_ = 0;
  uint64_t first_peak_ps_ = 0;
  uint64_t end_ps_ = 0;
  bool finished_ = false;
  std::unique_ptr<EnergySeriesWriter> series_;
  std::unique_ptr<VcdWriter> vcd_;
};

}  // namespace ssd::model
