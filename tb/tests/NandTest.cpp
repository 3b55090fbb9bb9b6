// The NAND rules the die enforces, and exact module-level timing of read, program and erase
// through a FlashChannel on an idle die.
#include <functional>

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "model/EnergyMonitor.h"
#include "model/FlashChannel.h"
#include "tb/Simulation.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

using model::FlashCommandExt;
using model::FlashOp;

// Issues flash commands to a channel from a thread, as the controller would.
struct Probe : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Probe> socket;
  std::function<void(Probe&)> script;
  tlm::tlm_generic_payload gp;
  FlashCommandExt& cmd = *new FlashCommandExt;

  SC_HAS_PROCESS(Probe);
  explicit Probe(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    gp.set_extension(&cmd);
    SC_THREAD(run);
  }
  void run() { script(*this); }
  // Sends `op` to (die_in_channel, block, page) leaving now; returns when it ends.
  sc_core::sc_time send(FlashOp op, uint32_t die, uint32_t block, uint32_t page,
                        uint64_t version = 0) {
    cmd.op = op;
    cmd.die_in_channel = die;
    cmd.ppa = fw::Ppa{die, block, page};
    cmd.data = fw::PageToken{page, version};
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(gp, delay);
    return sc_core::sc_time_stamp() + delay;
  }
};

class Nand : public ::testing::Test {
 protected:
  void SetUp() override {
    tb::reset_kernel();
    cfg = test::shipped("small_gc").flash;
    cfg.channels = 1;
    monitor = std::make_unique<model::EnergyMonitor>(model::EnergyMonitor::Options{});
    channel = std::make_unique<model::FlashChannel>("ch0", 0, cfg, *monitor);
    probe = std::make_unique<Probe>("probe");
    probe->socket.bind(channel->socket);
  }
  // Runs the script; returns the model error's message, or "" if none.
  std::string run(std::function<void(Probe&)> script) {
    probe->script = std::move(script);
    try {
      sc_core::sc_start();
    } catch (const sc_core::sc_report& e) {
      return e.get_msg();
    }
    return "";
  }
  config::FlashConfig cfg;
  std::unique_ptr<model::EnergyMonitor> monitor;
  std::unique_ptr<model::FlashChannel> channel;
  std::unique_ptr<Probe> probe;
};

TEST_F(Nand, ProgramOfAProgrammedPageIsRejected) {
  const std::string msg = run([](Probe& p) {
    p.send(FlashOp::Program, 0, 3, 0);
    p.send(FlashOp::Program, 0, 3, 0);
  });
  EXPECT_NE(msg.find("NAND rule violated: program of a page that is not erased"), std::string::npos) << msg;
  EXPECT_NE(msg.find("block 3, page 0"), std::string::npos) << msg;
}

TEST_F(Nand, PagesMustBeProgrammedInOrder) {
  const std::string msg = run([](Probe& p) { p.send(FlashOp::Program, 0, 0, 2); });
  EXPECT_NE(msg.find("ascending order: expected page 0"), std::string::npos) << msg;
}

TEST_F(Nand, ReadOfAnErasedPageIsRejected) {
  const std::string msg = run([](Probe& p) {
    p.send(FlashOp::Program, 0, 1, 0);
    p.send(FlashOp::Read, 0, 1, 1);
  });
  EXPECT_NE(msg.find("read of a page that is not programmed"), std::string::npos) << msg;
}

TEST_F(Nand, AddressesOutOfRangeAreRejected) {
  EXPECT_NE(run([this](Probe& p) { p.send(FlashOp::Erase, 0, cfg.blocks_per_die(), 0); })
                .find("block address out of range"),
            std::string::npos);
}

TEST_F(Nand, EraseMakesTheBlockProgrammableAgainAndDataSurvives) {
  fw::PageToken got;
  const std::string msg = run([&](Probe& p) {
    p.send(FlashOp::Program, 0, 5, 0, 11);
    p.send(FlashOp::Erase, 0, 5, 0);
    p.send(FlashOp::Program, 0, 5, 0, 12);
    p.send(FlashOp::Read, 0, 5, 0);
    got = p.cmd.data;
  });
  EXPECT_EQ(msg, "");
  EXPECT_EQ(got.version, 12u);
  EXPECT_EQ(channel->die(0).erase_count(5), 1u);
}

TEST_F(Nand, ReadProgramEraseTimingOnAnIdleDie) {
  const sc_core::sc_time xfer(4096 * cfg.bus_ns_per_byte, sc_core::SC_NS);
  const sc_core::sc_time prog(cfg.t_prog_us, sc_core::SC_US);
  const sc_core::sc_time read(cfg.t_read_us, sc_core::SC_US);
  const sc_core::sc_time erase(cfg.t_erase_us, sc_core::SC_US);
  sc_core::sc_time t_prog, t_read, t_erase;
  EXPECT_EQ(run([&](Probe& p) {
              t_prog = p.send(FlashOp::Program, 0, 0, 0);
              sc_core::wait(t_prog - sc_core::sc_time_stamp());
              t_read = p.send(FlashOp::Read, 0, 0, 0) - sc_core::sc_time_stamp();
              sc_core::wait(t_read);
              t_erase = p.send(FlashOp::Erase, 0, 0, 0) - sc_core::sc_time_stamp();
            }),
            "");
  EXPECT_EQ(t_prog, xfer + prog);   // data in, then tPROG
  EXPECT_EQ(t_read, read + xfer);   // tR, then data out
  EXPECT_EQ(t_erase, erase);        // tBERS
}

TEST_F(Nand, WaysShareTheBusButOverlapTheirArrayWork) {
  const sc_core::sc_time xfer(4096 * cfg.bus_ns_per_byte, sc_core::SC_NS);
  const sc_core::sc_time prog(cfg.t_prog_us, sc_core::SC_US);
  sc_core::sc_time a, b, c;
  EXPECT_EQ(run([&](Probe& p) {
              a = p.send(FlashOp::Program, 0, 0, 0);  // way 0
              b = p.send(FlashOp::Program, 1, 0, 0);  // way 1: its transfer waits for way 0's
              c = p.send(FlashOp::Program, 0, 0, 1);  // way 0 again: waits for its own tPROG
            }),
            "");
  EXPECT_EQ(a, xfer + prog);
  EXPECT_EQ(b, xfer + xfer + prog);
  // The bus is free at 2*xfer, but die 0 is busy until xfer + prog; the transfer is granted
  // in order, so it starts then.
  EXPECT_EQ(c, xfer + prog + xfer + prog);
}

}  // namespace
}  // namespace ssd
