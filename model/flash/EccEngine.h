#pragma once
// An ECC engine (flash.reliability): it decodes a page read's data once it is out of the die,
// one decode at a time, in the order the decodes are booked (EccPool books them as their
// transfers are granted). A decode takes its step's t_decode_us (the hard decode, or a retry
// step's) and draws i_ecc_ma at controller.voltage_v while it runs.
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

  // When it has decoded everything booked so far.
  const sc_core::sc_time& free_at() const { return free_at_; }
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
