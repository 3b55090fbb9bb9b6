#pragma once
// The lifetime manager's data units (lifetime.mode; none when off, docs/lifetime.md): the
// deduplication hash unit and the compression unit, each a power-state machine on the
// controller's supply, active while the core drives it.
#include <memory>
#include <vector>

#include <systemc>

#include "config/DriveConfig.h"
#include "firmware/Hal.h"
#include "model/power/PowerStateMachine.h"

namespace ssd::model::controller {

class DataUnits {
 public:
  DataUnits(EnergyMonitor& monitor, const config::DriveConfig& cfg);
  // `unit` works for `duration` from `start`; returns its active energy.
  double work(fw::Unit unit, const sc_core::sc_time& start, const sc_core::sc_time& duration);

 private:
  struct DataUnit {
    std::unique_ptr<PowerStateMachine> psm;
    double active_w;
  };
  std::vector<DataUnit> units_;  // by fw::Unit
};

}  // namespace ssd::model::controller
