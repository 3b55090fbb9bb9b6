#pragma once
// The units the core drives on the controller's supply, each a power-state machine active while
// the core drives it: the lifetime manager's data units (lifetime.mode; none when off,
// docs/lifetime.md), the deduplication hash unit and the compression unit, and the SRAM that
// holds the block FTL's replacement-block page offsets (ftl.block_read_lookup sram; none
// otherwise, docs/ftl.md#read-look-up), which draws its standby current while idle.
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
  // When `unit` is free: its work so far has ended (several cores share it).
  const sc_core::sc_time& free_at(fw::Unit unit) const {
    return units_.at(static_cast<std::size_t>(unit)).free_at;
  }
  // `unit` works for `duration` from `start` (not before free_at); returns its active energy.
  double work(fw::Unit unit, const sc_core::sc_time& start, const sc_core::sc_time& duration);

 private:
  struct DataUnit {
    std::unique_ptr<PowerStateMachine> psm;  // none: the drive has no such unit
    double active_w = 0;
    sc_core::sc_time free_at;
  };
  std::vector<DataUnit> units_;  // by fw::Unit
};

}  // namespace ssd::model::controller
