#pragma once
// A module's power-state machine: the states it has, the current of each, and the one it is
// in. Every change is reported, with its time, to the EnergyMonitor.
#include <string>
#include <vector>

#include <systemc>

#include "model/power/EnergyMonitor.h"

namespace ssd::model {

class PowerStateMachine {
 public:
  PowerStateMachine(EnergyMonitor& monitor, const std::string& name, const std::string& group,
                    double voltage_v, const std::vector<StateCurrent>& states, PowerState initial)
      : monitor_(monitor),
        id_(monitor.add_component(name, group, voltage_v, states, initial)),
        state_(initial),
        rest_(initial) {}

  PowerState state() const { return state_; }
  // The state the component returns to between operations (idle, or off under a policy).
  PowerState rest_state() const { return rest_; }

  void enter(PowerState s, const sc_core::sc_time& t) {
    if (s == state_) return;
    state_ = s;
    monitor_.transition(id_, t, s);
  }
  // Busy in `s` over [start, end), then back to the rest state.
  void occupy(PowerState s, const sc_core::sc_time& start, const sc_core::sc_time& end) {
    if (state_ == rest_ && s != rest_) {
      monitor_.occupy(id_, s, start, end, rest_);
      return;
    }
    enter(s, start);
    enter(rest_, end);
  }
  void set_rest(PowerState s, const sc_core::sc_time& t) {
    rest_ = s;
    enter(s, t);
  }

 private:
  EnergyMonitor& monitor_;
  EnergyMonitor::ComponentId id_;
  PowerState state_;
  PowerState rest_;
};

}  // namespace ssd::model
