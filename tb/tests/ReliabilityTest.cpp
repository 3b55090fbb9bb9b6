// Aging NAND on the read path (flash.reliability, docs/reliability.md), through a FlashChannel
// of NAND dies: a read's data goes to the channel's ECC engine; each failed decode is followed
// by the next retry step's array read and data out; past the last step the read ends
// uncorrectable. Every step is timed and powered exactly; reads queue at the engine. End to
// end, an uncorrectable host read fails its command and the scoreboard counts it as reported.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "tb/tests/CliReport.h"
#include "tb/tests/NandRig.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

using model::FlashOp;
using model::PowerState;
using test::Probe;

class Aging : public test::NandRig {
 protected:
  // A rate of 1: every codeword far beyond a hard decode (2 us) and the two retry steps
  // (70 us + 3 us, 90 us + 5 us), unless a step's reach is raised; the engine at 100 mA.
  void SetUp() override {
    NandRig::SetUp();
    config::ReliabilityConfig& r = drive.flash.reliability;
    r.enabled = true;
    r.rber_base = 1.0;
    r.correctable_bits = 40;
    r.t_decode_us = 2;
    r.retry_steps = {{70, 3, 60}, {90, 5, 80}};
    r.i_ecc_ma = 100;
  }
  // Programs page 0 of block 0 on dies 0 and 1, then reads it on `dies` of them at once;
  // returns when the reads were sent.
  sc_core::sc_time program_then_read(Probe& p, uint32_t dies) {
    for (uint32_t d = 0; d < 2; ++d) p.finish(p.send(FlashOp::Program, d, 0, 0, 1));
    const sc_core::sc_time at = sc_core::sc_time_stamp();
    for (uint32_t d = 0; d < dies; ++d) p.send(FlashOp::Read, d, 0, 0);
    for (uint32_t d = 0; d < dies; ++d) p.finish(2 + d);
    return at;
  }
  // The ECC engine's time and energy while decoding.
  std::pair<double, double> ecc_active() const { return spent("ch0.ecc", PowerState::Active); }
  double ecc_w() const { return 100e-3 * drive.controller.voltage_v; }
};

// Beyond every step: the first read and both retries, each an array read, its data out and a
// decode one after another; the read ends uncorrectable after the last decode.
TEST_F(Aging, AnUncorrectableReadRunsEveryStep) {
  sc_core::sc_time at;
  EXPECT_EQ(run([&](Probe& p) { at = program_then_read(p, 1); }), "");
  const sc_core::sc_time first = read + xfer + us(2);
  const sc_core::sc_time retries = us(70) + xfer + us(3) + us(90) + xfer + us(5);
  EXPECT_EQ(probe->end(2), at + first + retries);
  const model::FlashCommandExt& cmd = *probe->sent[2].cmd;
  EXPECT_TRUE(cmd.uncorrectable);
  EXPECT_EQ(cmd.retries, 2u);
  EXPECT_EQ(cmd.ecc_time, us(10));
  EXPECT_EQ(cmd.retry_time, us(160) + xfer * 2.0);
  EXPECT_EQ(cmd.data.version, 1u);  // the model still knows what was written
  // The die senses three times (tR, 70 us, 90 us) and moves the data out three times.
  EXPECT_NEAR(time_in(0, PowerState::Read), (read + us(160)).to_seconds(), 1e-15);
  EXPECT_NEAR(time_in(0, PowerState::Transfer), 3 * xfer.to_seconds() + 1 * xfer.to_seconds(),
              1e-15);  // and once the program's data in
  const auto [t, j] = ecc_active();
  EXPECT_NEAR(t, 10e-6, 1e-15);
  EXPECT_NEAR(j, ecc_w() * 10e-6, 1e-15);
  const model::FlashChannel::Usage& u = channel->usage();
  EXPECT_EQ(u.retry_reads, 2u);
  EXPECT_EQ(u.uncorrectable_reads, 1u);
  EXPECT_EQ(u.reads_by_retries, (std::vector<uint64_t>{0, 0, 1}));
}

// Data programmed in the run ages from its program: retention_days is the age of the data from
// before the run only. At a rate of one error per bit per day of age, a page read microseconds
// after its program has no error.
TEST_F(Aging, DataOfTheRunAgesFromItsProgram) {
  config::ReliabilityConfig& r = drive.flash.reliability;
  r.rber_base = 0;
  r.rber_retention = 1;
  r.retention_wear_exponent = 0;
  r.retention_time_exponent = 1;
  r.retention_days = 1000;
  EXPECT_EQ(run([&](Probe& p) { program_then_read(p, 1); }), "");
  EXPECT_EQ(probe->sent[2].cmd->retries, 0u);
  EXPECT_FALSE(probe->sent[2].cmd->uncorrectable);
}

// The first retry step reaches every error: the read ends after its decode, corrected.
TEST_F(Aging, AReadEndsAtTheFirstStepThatCorrectsIt) {
  drive.flash.reliability.retry_steps = {{70, 3, 65536}, {90, 5, 65536}};
  sc_core::sc_time at;
  EXPECT_EQ(run([&](Probe& p) { at = program_then_read(p, 1); }), "");
  EXPECT_EQ(probe->end(2), at + read + xfer + us(2) + us(70) + xfer + us(3));
  EXPECT_FALSE(probe->sent[2].cmd->uncorrectable);
  EXPECT_EQ(probe->sent[2].cmd->retries, 1u);
  EXPECT_NEAR(time_in(0, PowerState::Read), (read + us(70)).to_seconds(), 1e-15);
  EXPECT_EQ(channel->usage().reads_by_retries, (std::vector<uint64_t>{0, 1, 0}));
}

// Error-free reads on two dies at once: their data-outs take turns on the bus, and the second's
// 200 us decode waits for the first's.
TEST_F(Aging, ReadsQueueAtTheChannelsEngine) {
  drive.flash.reliability.rber_base = 0;
  drive.flash.reliability.t_decode_us = 200;
  sc_core::sc_time at;
  EXPECT_EQ(run([&](Probe& p) { at = program_then_read(p, 2); }), "");
  EXPECT_EQ(probe->end(2), at + read + xfer + us(200));
  EXPECT_EQ(probe->end(3), at + read + xfer + us(400));
  EXPECT_EQ(probe->sent[3].cmd->ecc_time, us(400) - xfer);  // queued, then its own decode
  EXPECT_EQ(channel->ecc()->decodes(), 2u);
  EXPECT_EQ(channel->ecc()->queued(), us(200) - xfer);
  EXPECT_EQ(channel->usage().reads_by_retries, (std::vector<uint64_t>{2, 0, 0}));
  EXPECT_NEAR(ecc_active().first, 400e-6, 1e-15);
}

// Independent plane reads: reads on both planes of a die, each needing one retry step. A read
// whose hard decode fails keeps its plane while the other plane's data goes out; its retry
// senses beside the other's work and its data-out waits for the bus. Every stage exact.
TEST_F(Aging, ARetryKeepsItsPlaneWithIndependentPlaneReads) {
  drive.flash.planes_per_die = 2;
  drive.flash.blocks_per_plane = 32;  // block 32 on plane 1
  drive.flash.independent_plane_reads = true;
  drive.flash.reliability.retry_steps = {{70, 3, 65536}};
  sc_core::sc_time at;
  EXPECT_EQ(run([&](Probe& p) {
              for (uint32_t block : {0u, 32u}) p.finish(p.send(FlashOp::Program, 0, block, 0, 1));
              at = sc_core::sc_time_stamp();
              for (uint32_t block : {0u, 32u}) p.send(FlashOp::Read, 0, block, 0);
              p.finish(2);
              p.finish(3);
            }),
            "");
  // Both sense tR together; data-outs take turns, each decode 2 us and failing. Plane 0's
  // retry (70 us) senses while plane 1's data goes out, then waits for the bus; plane 1's
  // retry senses during that data-out. Each ends with its 3 us decode.
  EXPECT_EQ(probe->end(2), at + read + xfer * 3.0 + us(3));
  EXPECT_EQ(probe->end(3), at + read + xfer * 4.0 + us(3));
  for (size_t i : {2u, 3u}) {
    EXPECT_EQ(probe->sent[i].cmd->retries, 1u);
    EXPECT_FALSE(probe->sent[i].cmd->uncorrectable);
  }
  EXPECT_EQ(channel->usage().reads_by_retries, (std::vector<uint64_t>{0, 2}));
  EXPECT_EQ(channel->usage().retry_reads, 2u);
  EXPECT_NEAR(time_in(0, PowerState::ReadMultiplane), read.to_seconds(), 1e-15);
  EXPECT_NEAR(time_in(0, PowerState::Read), 140e-6, 1e-15);  // the retries never overlap
  EXPECT_NEAR(ecc_active().first, (2 + 2 + 3 + 3) * 1e-6, 1e-15);
}

// End to end on the small drive, every read uncorrectable past one retry step: each host read
// fails with an error, the scoreboard counts its page as reported (none lost, none checked),
// and its breakdown holds the retry step and the two decodes exactly.
TEST(AgingDrive, UncorrectableHostReadsAreReportedNeverLost) {
  const std::string dir = test::temp_dir("aging_e2e");
  const nlohmann::json r = test::cli_report(
      "--config " + test::source_path("configs/small_gc.json") +
          " --precondition --workload rw=randread,bs=4096,qd=1,count=200 --reproducible"
          " --set flash.reliability.enabled=true --set flash.reliability.rber_base=1"
          " --set flash.reliability.t_decode_us=2"
          " --set 'flash.reliability.retry_steps=[{\"t_read_us\": 70, \"t_decode_us\": 3,"
          " \"correctable_bits\": 60}]' --request-log csv",
      dir);
  EXPECT_EQ(r["scoreboard"]["reported_errors"], 200);
  // The request log gives each read's status.
  const std::string log = test::slurp(dir + "/requests.csv");
  EXPECT_EQ(test::occurrences(log, ",host,uncorrectable,"), 200u) << log.substr(0, 400);
  EXPECT_EQ(r["scoreboard"]["pages_checked"], 0);
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
  EXPECT_EQ(r["reliability"]["uncorrectable_reads"], 200);
  EXPECT_EQ(r["reliability"]["reads_by_retry_steps"], nlohmann::json({0, 200}));
  EXPECT_EQ(r["reliability"]["retry_reads"], 200);
  EXPECT_EQ(r["reliability"]["ecc"]["decodes"], 400);
  const nlohmann::json& mean = r["latency_breakdown_us"]["read"]["mean"];
  const double xfer_us = 4096 * 20e-3;
  EXPECT_NEAR(mean["read_retry"].get<double>(), 70 + xfer_us, 1e-6);
  EXPECT_NEAR(mean["ecc_decode"].get<double>(), 5, 1e-6);
  EXPECT_NEAR(mean["flash"].get<double>(), 50 + xfer_us, 1e-6);
}

// The stages and figures exist only on drives with aging NAND: the others' reports are as they
// were.
TEST(AgingDrive, OtherDrivesHaveNoAgingFigures) {
  const nlohmann::json r =
      test::cli_report("--config " + test::source_path("configs/small_gc.json") +
                           " --workload rw=randwrite,bs=4096,qd=1,count=50",
                       test::temp_dir("aging_off"));
  EXPECT_FALSE(r.contains("reliability"));
  EXPECT_FALSE(r["scoreboard"].contains("reported_errors"));
  EXPECT_FALSE(r["latency_breakdown_us"]["write"]["mean"].contains("read_retry"));
  // Nor read refresh's figures and energy (ftl.read_refresh).
  EXPECT_FALSE(r.contains("read_refresh"));
  EXPECT_FALSE(r["energy_by_work_j"].contains("refresh"));
}

// Preconditioning's reads (simulated GC copies) neither draw errors nor count as the blocks' reads:
// a drive preconditioned in the run and one loaded from the state it saved run alike.
TEST(AgingDrive, PreconditionedAndLoadedDrivesRunAlike) {
  const std::string cache = test::temp_dir("aging_cache");
  const auto report = [&](const std::string& name, const std::string& state) {
    nlohmann::json r = test::cli_report(
        "--config " + test::source_path("configs/small_gc.json") +
            " --precondition --precondition-mode simulate --precondition-random 1 --reproducible"
            " --set ftl.type=dftl --set ftl.map_cache_bytes=4096"
            " --workload rw=randrw,mix=0.7,bs=4096,qd=8,count=2000,seed=3"
            " --set flash.reliability.enabled=true --set flash.reliability.rber_base=1e-4"
            " --set flash.reliability.rber_disturb=1e-5 --set flash.reliability.correctable_bits=4"
            " --set ftl.read_refresh.enabled=true --set ftl.read_refresh.errors_per_codeword=3 " +
            state,
        test::temp_dir(name));
    r.erase("provenance");
    return r;
  };
  const nlohmann::json in_run = report("aging_in_run", "--no-state-cache");
  report("aging_store", "--state-cache " + cache);
  const nlohmann::json loaded = report("aging_loaded", "--state-cache " + cache);
  EXPECT_GT(in_run["reliability"]["uncorrectable_reads"].get<uint64_t>(), 0u);
  EXPECT_EQ(in_run, loaded);
}

TEST(AgingConfig, RulesNameTheirKeys) {
  const auto refusal = [](const std::string& overrides) {
    return test::cli_output("--config " + test::source_path("configs/nvme_tlc_1tb.json") +
                            " --set flash.reliability.enabled=true " + overrides +
                            " --dump-config");
  };
  EXPECT_NE(refusal("--set 'flash.reliability.retry_steps=[{\"correctable_bits\": 30}]'")
                .find("flash.reliability.retry_steps[0].correctable_bits: corrects 30 bits, "
                      "fewer than the step before it (40)"),
            std::string::npos);
  EXPECT_NE(refusal("--set 'flash.reliability.rber_by_page_type=[1, 2]'")
                .find("flash.reliability.rber_by_page_type: has 2 entries; a tlc cell has 3"),
            std::string::npos);
  EXPECT_NE(refusal("--set flash.reliability.rber_base=2").find("flash.reliability.rber_base"),
            std::string::npos);
}

}  // namespace
}  // namespace ssd
