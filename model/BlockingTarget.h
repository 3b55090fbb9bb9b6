#pragma once
// A target that serves every transaction in b_transport, at once: the NAND dies and the DRAM,
// whose initiator decides when an operation starts and learns from them how long it takes.
// It is its own socket's interface, rather than a simple_target_socket's callbacks: each
// transaction is one virtual call instead of three hops through the socket, on a path every
// host request takes several times. nb_transport_fw completes at once (the base protocol's
// TLM_COMPLETED on BEGIN_REQ, with b_transport's annotated delay), so any initiator can use it.
#include <systemc>
#include <tlm>

namespace ssd::model {

class BlockingTarget : public virtual tlm::tlm_fw_transport_if<> {
 public:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) final {
    if (phase != tlm::BEGIN_REQ)
      SC_REPORT_FATAL("/ssdtlm/target", "a blocking target takes BEGIN_REQ only");
    b_transport(gp, delay);
    phase = tlm::BEGIN_RESP;
    return tlm::TLM_COMPLETED;
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) final { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
};

}  // namespace ssd::model
