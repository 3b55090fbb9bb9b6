// The DRAM as a TLM target: a non-blocking call is served as the blocking one is, at once.
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "model/dram/Dram.h"
#include "model/power/EnergyMonitor.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket;
  sc_core::sc_time blocking_end, nonblocking_end;
  tlm::tlm_sync_enum status = tlm::TLM_ACCEPTED;
  tlm::tlm_phase phase = tlm::UNINITIALIZED_PHASE;

  SC_HAS_PROCESS(Initiator);
  explicit Initiator(sc_core::sc_module_name n) : sc_module(n), socket("socket") { SC_THREAD(run); }
  // Two mapping-table reads of 3 accesses each, sent at once: the second is served after the
  // first, the same whichever interface carries it.
  void run() {
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_data_length(3 * 4);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(gp, delay);
    blocking_end = delay;
    phase = tlm::BEGIN_REQ;
    delay = sc_core::SC_ZERO_TIME;
    status = socket->nb_transport_fw(gp, phase, delay);
    nonblocking_end = delay;
  }
};

TEST(DramTest, NonBlockingCallCompletesAtOnceAsTheBlockingOneWould) {
  config::DramConfig cfg = test::shipped("nvme_tlc_1tb").dram;
  ASSERT_EQ(cfg.access_bytes, 4u);
  model::EnergyMonitor monitor{model::EnergyMonitor::Options{}};
  model::Dram dram("dram", cfg, monitor);
  Initiator host("host");
  host.socket.bind(dram.socket);
  sc_core::sc_start();
  const sc_core::sc_time access(cfg.t_access_ns, sc_core::SC_NS);
  EXPECT_EQ(host.blocking_end, 3 * access);
  EXPECT_EQ(host.status, tlm::TLM_COMPLETED);
  EXPECT_EQ(host.phase, tlm::BEGIN_RESP);
  EXPECT_EQ(host.nonblocking_end, 6 * access);
  EXPECT_EQ(dram.accesses(), 6u);
}

}  // namespace
}  // namespace ssd
