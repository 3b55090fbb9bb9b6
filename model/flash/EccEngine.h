#pragma once
// A channel's ECC engine (flash.reliability): every page read's data is decoded here once it
// is out of the die, one decode at a time, in the order the data arrives (the channel's bus
// moves one transfer at a time, so that is the order its transfers were granted). A decode
// takes its step's t_decode_us (the hard decode, or a retry step's) and draws i_ecc_ma at
// controller.voltage_v while it runs.
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "config/ReliabilityConfig.h"
#include "model/power/PowerStateMachine.h"

namespace ssd::model::flash {

class EccEngine {
 public:
  EccEngine(const config::ReliabilityConfig& r, double voltage_v, EnergyMonitor& monitor,
            const std::string& name);

  // A decode of step `step` for data that arrives at `ready`: when it ends, after the decodes
  // booked before it; its energy added to `joules`.
  sc_core::sc_time decode(uint32_t step, const sc_core::sc_time& ready, double& joules);

  uint64_t decodes() const { return decodes_; }
  // Time it decoded, and spent queued (data waiting for it).
  const sc_core::sc_time& busy() const { return busy_; }
  const sc_core::sc_time& queued() const { return queued_; }

 private:
  std::vector<sc_core::sc_time> t_decode_;  // by step
  double power_w_;
  sc_core::sc_time free_at_;
  uint64_t decodes_ = 0;
  sc_core::sc_time busy_, queued_;
  PowerStateMachine psm_;
};

}  // namespace ssd::model::flash
