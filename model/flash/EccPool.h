#pragma once
// The ECC engines a read's decode may take (flash.reliability.ecc_scope, ecc_engines): a
// channel's own, or the controller's, shared by every channel. A decode is booked when its
// data's transfer is granted and takes the engine that can start it first (the lowest-numbered
// on a tie); an engine serves its decodes in booking order. On one channel that is the order the
// data arrives (its bus moves one transfer at a time); across channels sharing the controller's
// engines, a decode booked first is served first even when a shorter transfer granted after it
// ends sooner (by at most a transfer's length).
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "model/flash/EccEngine.h"

namespace ssd::model::flash {

class EccPool {
 public:
  // Its engines are `<owner>.ecc` (one) or `<owner>.ecc0`, `<owner>.ecc1`, ... in the energy
  // report; an empty owner names them `ecc`, `ecc0`, ....
  EccPool(const config::ReliabilityConfig& r, double voltage_v, EnergyMonitor& monitor,
          const std::string& owner);

  // A decode of step `step` for data that arrives at `ready`: when it ends; its energy added to
  // `joules`.
  sc_core::sc_time decode(uint32_t step, const sc_core::sc_time& ready, double& joules);

  const std::vector<EccEngine>& engines() const { return engines_; }
  // Over its engines: decodes, and time data waited for an engine (each engine's own time
  // decoding: engines()).
  uint64_t decodes() const;
  sc_core::sc_time queued() const;

 private:
  std::vector<EccEngine> engines_;
};

}  // namespace ssd::model::flash
