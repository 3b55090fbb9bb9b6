#pragma once
// The flash bus shared by the ways of one channel, and the dies on it. A page transfer holds
// the bus for page_bytes x bus_ns_per_byte (the way switch delay); transfers are granted in
// the order they are requested. A read is array read then data out; a program is data in
// then array program; so transfers of different ways serialise while their array operations
// overlap.
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "config/DriveConfig.h"
#include "model/NandDie.h"
#include "model/PowerStateMachine.h"

namespace ssd::model {

class FlashChannel : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<FlashChannel> socket;
  tlm_utils::multi_passthrough_initiator_socket<FlashChannel> die_socket;

  // Creates and binds the channel's ways_per_channel x dies_per_way dies.
  FlashChannel(sc_core::sc_module_name name, uint32_t index, const config::FlashConfig& cfg,
               EnergyMonitor& monitor);

  const NandDie& die(uint32_t i) const { return *dies_.at(i); }

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  // Debug transport: a read, program or erase goes to its die as the array operation alone,
  // with no bus phase, no time and no energy (preconditioning).
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp);
  // Sends one die operation with the payload; returns its end (absolute).
  sc_core::sc_time to_die(tlm::tlm_generic_payload& gp, FlashCommandExt& cmd, FlashOp op,
                          const sc_core::sc_time& at);
  // A data phase: waits for the bus, holds it for the page transfer; returns its end.
  sc_core::sc_time transfer(tlm::tlm_generic_payload& gp, FlashCommandExt& cmd, FlashOp op,
                            const sc_core::sc_time& at);

  sc_core::sc_time page_transfer_;
  sc_core::sc_time bus_free_;
  std::vector<std::unique_ptr<NandDie>> dies_;
  PowerStateMachine psm_;
};

}  // namespace ssd::model
