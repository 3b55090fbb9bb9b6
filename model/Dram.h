#pragma once
// The DRAM holding the mapping table (and data buffer). Each access moves access_bytes and
// takes t_access_ns; accesses are served one after another. A transaction of N x
// access_bytes is N back-to-back accesses. Between accesses the DRAM idles (it stays powered
// to keep its contents).
#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "config/DriveConfig.h"
#include "model/PowerStateMachine.h"

namespace ssd::model {

class Dram : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Dram> socket;

  Dram(sc_core::sc_module_name name, const config::DramConfig& cfg, EnergyMonitor& monitor);

  uint64_t accesses() const { return accesses_; }

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);

  uint32_t access_bytes_;
  sc_core::sc_time t_access_;
  sc_core::sc_time free_;
  uint64_t accesses_ = 0;
  PowerStateMachine psm_;
};

}  // namespace ssd::model
