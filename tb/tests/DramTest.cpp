// The DRAM as a TLM target: a non-blocking call is served as the blocking one is, at once; its
// ports share it by time, each served in its own order, the energy exact.
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "model/dram/Dram.h"
#include "model/power/EnergyMonitor.h"
#include "tb/run/Simulation.h"
#include "tb/tests/ExactEnergy.h"
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
  tb::reset_kernel();
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

// Two initiators, each ahead of simulated time by its own amount: port 0 reserves an access
// 100 ns ahead, then port 1 asks for one now. Port 1 is served at once, in the idle time before
// port 0's access; port 0's next access waits for its own first one.
struct TwoPorts : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<TwoPorts> socket;
  sc_core::sc_time ahead_end, now_end, next_end;
  model::DramPortExt* port1 = new model::DramPortExt;

  SC_HAS_PROCESS(TwoPorts);
  explicit TwoPorts(sc_core::sc_module_name n) : sc_module(n), socket("socket") { SC_THREAD(run); }
  void run() {
    tlm::tlm_generic_payload core, engine;
    for (tlm::tlm_generic_payload* gp : {&core, &engine}) {
      gp->set_command(tlm::TLM_READ_COMMAND);
      gp->set_data_length(4);
    }
    port1->port = 1;
    engine.set_extension(port1);
    sc_core::sc_time delay(100, sc_core::SC_NS);
    socket->b_transport(core, delay);
    ahead_end = delay;
    delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(engine, delay);
    now_end = delay;
    delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(core, delay);
    next_end = delay;
    sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
  }
};

TEST(DramTest, PortsShareTheDramByTime) {
  tb::reset_kernel();
  config::DramConfig cfg = test::shipped("nvme_tlc_1tb").dram;
  model::EnergyMonitor monitor{model::EnergyMonitor::Options{}};
  model::Dram dram("dram", cfg, monitor, 2);
  TwoPorts host("host");
  host.socket.bind(dram.socket);
  sc_core::sc_start();
  monitor.finish(sc_core::sc_time_stamp());
  const sc_core::sc_time access(cfg.t_access_ns, sc_core::SC_NS);
  const sc_core::sc_time ahead(100, sc_core::SC_NS);
  EXPECT_EQ(host.ahead_end, ahead + access);
  EXPECT_EQ(host.now_end, access);
  EXPECT_EQ(host.next_end, ahead + 2 * access);
  // Active for exactly the three accesses, idle the rest of the microsecond.
  for (const auto& c : monitor.component_energy()) {
    if (c.name != "dram") continue;
    for (const auto& [state, s] : c.time_s) {
      if (state == model::PowerState::Active) test::expect_rel(s, 3 * access.to_seconds());
      if (state == model::PowerState::Idle) test::expect_rel(s, 1e-6 - 3 * access.to_seconds());
    }
    for (const auto& [state, j] : c.energy_j)
      if (state == model::PowerState::Active)
        test::expect_rel(j, 3 * access.to_seconds() * cfg.i_active_ma * 1e-3 * cfg.voltage_v);
  }
}

}  // namespace
}  // namespace ssd
