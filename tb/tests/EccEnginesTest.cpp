// The ECC engines (flash.reliability.ecc_scope, ecc_engines; docs/reliability.md#on-the-read-
// path): a channel's several engines decode its reads side by side; the controller's engines are
// shared by every channel, so reads on two channels queue at one engine and do not at two. Every
// decode timed and powered exactly.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "model/flash/EccPool.h"
#include "tb/tests/CliReport.h"
#include "tb/tests/NandRig.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

using model::FlashOp;
using model::PowerState;
using test::Probe;

class EccEngines : public test::NandRig {
 protected:
  // Error-free reads, each decode 200 us (longer than a data-out), the engines at 100 mA.
  void SetUp() override {
    NandRig::SetUp();
    config::ReliabilityConfig& r = drive.flash.reliability;
    r.enabled = true;
    r.t_decode_us = 200;
    r.i_ecc_ma = 100;
  }
  // Programs page 0 of block 0 on `dies` dies, then reads them at once; returns when the reads
  // were sent.
  static sc_core::sc_time program_then_read(Probe& p, uint32_t dies) {
    for (uint32_t d = 0; d < dies; ++d) p.finish(p.send(FlashOp::Program, d, 0, 0, 1));
    const sc_core::sc_time at = sc_core::sc_time_stamp();
    for (uint32_t d = 0; d < dies; ++d) p.send(FlashOp::Read, d, 0, 0);
    for (uint32_t d = 0; d < dies; ++d) p.finish(dies + d);
    return at;
  }
  // The seconds component `name` spent decoding, and the joules it drew then.
  std::pair<double, double> active(const std::string& name) const {
    return spent(name, PowerState::Active);
  }
  double engine_w() const { return 100e-3 * drive.controller.voltage_v; }

  // Two channels sharing the controller's engines, a probe on each running `script`; the
  // model error's message, or "" if none.
  std::string run_two_channels(const std::function<void(Probe&)>& script) {
    drive.flash.reliability.ecc_scope = config::EccScope::Controller;
    monitor = std::make_unique<model::EnergyMonitor>(model::EnergyMonitor::Options{});
    pool = std::make_unique<model::flash::EccPool>(drive.flash.reliability,
                                                   drive.controller.voltage_v, *monitor, "");
    model::FlashChannel::Params params = model::FlashChannel::params(drive);
    params.shared_ecc = pool.get();
    for (uint32_t ch = 0; ch < 2; ++ch) {
      const std::string n = "ch" + std::to_string(ch);
      channels.push_back(std::make_unique<model::FlashChannel>(n.c_str(), ch, params, *monitor));
      probes.push_back(std::make_unique<Probe>(("probe" + std::to_string(ch)).c_str()));
      probes.back()->socket.bind(channels.back()->socket);
      probes.back()->script = script;
    }
    return simulate();
  }

  std::unique_ptr<model::flash::EccPool> pool;
  std::vector<std::unique_ptr<model::FlashChannel>> channels;
  std::vector<std::unique_ptr<Probe>> probes;
};

// A channel's two engines: the second read's data, out right after the first's, is decoded at
// once on the second engine instead of waiting 200 us less a data-out for the first.
TEST_F(EccEngines, AChannelsSecondEngineTakesTheSecondRead) {
  drive.flash.reliability.ecc_engines = 2;
  sc_core::sc_time at;
  EXPECT_EQ(run([&](Probe& p) { at = program_then_read(p, 2); }), "");
  EXPECT_EQ(probe->end(2), at + read + xfer + us(200));
  EXPECT_EQ(probe->end(3), at + read + xfer * 2.0 + us(200));
  EXPECT_EQ(probe->sent[3].cmd->ecc_time, us(200));  // its own decode, no wait
  const model::flash::EccPool& ecc = *channel->ecc();
  ASSERT_EQ(ecc.engines().size(), 2u);
  EXPECT_EQ(ecc.decodes(), 2u);
  EXPECT_EQ(ecc.queued(), sc_core::SC_ZERO_TIME);
  EXPECT_EQ(ecc.engines()[0].decodes(), 1u);
  EXPECT_EQ(ecc.engines()[1].decodes(), 1u);
  for (const char* name : {"ch0.ecc0", "ch0.ecc1"}) {
    const auto [t, j] = active(name);
    EXPECT_NEAR(t, 200e-6, 1e-15) << name;
    EXPECT_NEAR(j, engine_w() * 200e-6, 1e-15) << name;
  }
  EXPECT_EQ(active("ch0.ecc").first, -1);  // named by number when there are several
}

// Reads of three units of one page, served by one array read: each unit's data is decoded as
// it arrives over the bus. At one engine the three 200 us decodes run one after another from
// the first unit's arrival; at three, side by side, the last ending 200 us after the transfer.
TEST_F(EccEngines, APagesUnitsAreDecodedOneByOne) {
  drive.flash.page_bytes = 16384;
  drive.ftl.mapping_unit_bytes = 4096;
  for (const uint32_t engines : {1u, 3u}) {
    SCOPED_TRACE(engines);
    tb::reset_kernel();
    drive.flash.reliability.ecc_engines = engines;
    sc_core::sc_time t0;
    EXPECT_EQ(run([&](Probe& p) {
                t0 = p.finish(
                    p.send(FlashOp::Program, 0, 0, 0, 3, sc_core::SC_ZERO_TIME, false, false, 4));
                // The reads queue behind another program, so that they go to the die together.
                p.send(FlashOp::Program, 0, 1, 0, 0, sc_core::SC_ZERO_TIME, false, false, 4);
                for (uint32_t u : {0u, 1u, 3u})  // 2, 3, 4
                  p.send(FlashOp::Read, 0, 0, 0, 0, sc_core::SC_ZERO_TIME, false, false, 1, u);
              }),
              "");
    const sc_core::sc_time data_out = t0 + xfer * 4.0 + prog + read;  // its start
    const sc_core::sc_time end =
        engines == 1 ? data_out + xfer + us(600) : data_out + xfer * 3.0 + us(200);
    for (size_t i : {2u, 3u, 4u}) EXPECT_EQ(probe->end(i), end);
    EXPECT_EQ(channel->usage().merged_reads, 2u);
    EXPECT_EQ(channel->ecc()->decodes(), 3u);
    EXPECT_EQ(probe->sent[2].cmd->ecc_time, end - (data_out + xfer * 3.0));
  }
}

// One engine in the controller: reads on two channels, their data out at the same time on
// their own buses, queue at it; one is decoded 200 us after the other.
TEST_F(EccEngines, ChannelsQueueAtTheControllersEngine) {
  std::vector<sc_core::sc_time> at(2);
  uint32_t started = 0;
  EXPECT_EQ(run_two_channels([&](Probe& p) { at[started++] = program_then_read(p, 1); }), "");
  ASSERT_EQ(at[0], at[1]);
  std::vector<sc_core::sc_time> ends = {probes[0]->end(1), probes[1]->end(1)};
  std::sort(ends.begin(), ends.end());
  EXPECT_EQ(ends[0], at[0] + read + xfer + us(200));
  EXPECT_EQ(ends[1], at[0] + read + xfer + us(400));
  EXPECT_EQ(pool->decodes(), 2u);
  EXPECT_EQ(pool->queued(), us(200));
  EXPECT_EQ(channels[0]->ecc(), pool.get());
  EXPECT_EQ(channels[1]->ecc(), pool.get());
  const auto [t, j] = active("ecc");
  EXPECT_NEAR(t, 400e-6, 1e-15);
  EXPECT_NEAR(j, engine_w() * 400e-6, 1e-15);
  EXPECT_EQ(active("ch0.ecc").first, -1);  // the channels have none of their own
}

// Two engines in the controller: the two channels' reads are decoded side by side.
TEST_F(EccEngines, TwoControllerEnginesDecodeTwoChannelsAtOnce) {
  drive.flash.reliability.ecc_engines = 2;
  std::vector<sc_core::sc_time> at(2);
  uint32_t started = 0;
  EXPECT_EQ(run_two_channels([&](Probe& p) { at[started++] = program_then_read(p, 1); }), "");
  for (uint32_t ch = 0; ch < 2; ++ch) EXPECT_EQ(probes[ch]->end(1), at[ch] + read + xfer + us(200));
  EXPECT_EQ(pool->queued(), sc_core::SC_ZERO_TIME);
  EXPECT_NEAR(active("ecc0").first, 200e-6, 1e-15);
  EXPECT_NEAR(active("ecc1").first, 200e-6, 1e-15);
}

// End to end: the report counts the engines by scope, and every read's decode on either.
TEST(EccEnginesDrive, TheReportCountsTheEnginesByScope) {
  const auto report = [](const std::string& name, const std::string& overrides) {
    return test::cli_report("--config " + test::source_path("configs/small_gc.json") +
                                " --precondition --workload rw=randread,bs=4096,qd=8,count=300"
                                " --reproducible --set flash.reliability.enabled=true"
                                " --set flash.reliability.t_decode_us=20 " +
                                overrides,
                            test::temp_dir(name));
  };
  const nlohmann::json per_channel = report("ecc_channel", "");
  const nlohmann::json shared =
      report("ecc_controller",
             "--set flash.reliability.ecc_scope=controller --set flash.reliability.ecc_engines=1");
  const uint32_t channels = test::shipped("small_gc").flash.channels;
  EXPECT_EQ(per_channel["reliability"]["ecc"]["engines"], channels);
  EXPECT_EQ(shared["reliability"]["ecc"]["engines"], 1);
  EXPECT_EQ(per_channel["reliability"]["ecc"]["decodes"], 300);
  EXPECT_EQ(shared["reliability"]["ecc"]["decodes"], 300);
  // One engine for every channel queues more than one per channel.
  EXPECT_GT(shared["reliability"]["ecc"]["queue_us_mean"].get<double>(),
            per_channel["reliability"]["ecc"]["queue_us_mean"].get<double>());
  EXPECT_EQ(shared["scoreboard"]["mismatches"], 0);
}

}  // namespace
}  // namespace ssd
