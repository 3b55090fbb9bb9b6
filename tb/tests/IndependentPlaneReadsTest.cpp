// Independent plane reads (flash.independent_plane_reads, docs/architecture.md#flash-scheduling-
// channels-and-dies) in whole simulations: the scoreboard holds with reads sensing beside each
// other on 2 and 4 planes, alone and with multi-plane operations, suspend and cache program;
// the configuration rules. The scheduling itself, exactly: tb/tests/ChannelSchedulerTest.cpp.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "config/DriveConfig.h"
#include "tb/run/Simulation.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/WorkloadGenerator.h"

namespace ssd {
namespace {

// The small GC drive with its blocks on `planes` planes and independent plane reads; `busy`:
// with multi-plane operations, suspend for reads, read first and cache program too.
config::DriveConfig drive(uint32_t planes, bool busy) {
  config::DriveConfig c = test::shipped("small_gc");
  c.flash.blocks_per_plane = c.flash.blocks_per_plane * c.flash.planes_per_die / planes;
  c.flash.planes_per_die = planes;
  c.flash.independent_plane_reads = true;
  if (busy) {
    c.flash.independent_reads_max = planes == 4 ? 3 : 0;
    c.flash.multiplane = true;
    c.flash.cache_program = true;
    c.controller.suspend_for_reads = true;
    c.controller.scheduler_policy = config::SchedulerPolicy::ReadFirst;
    c.controller.host_first = true;
  }
  return c;
}

// Random 4 KiB reads and writes over twice the capacity at queue depths 32 and 256: no data
// mismatch, and the dies did read on several planes at once (their multi-plane read state).
TEST(IndependentPlaneReads, ScoreboardHoldsAtQd32And256) {
  for (const uint32_t planes : {2u, 4u}) {
    for (const bool busy : {false, true}) {
      for (const int qd : {32, 256}) {
        SCOPED_TRACE(std::to_string(planes) + " planes, busy " + std::to_string(busy) + ", qd " +
                     std::to_string(qd));
        config::DriveConfig c = drive(planes, busy);
        test::set_queue_depth(c, uint32_t(qd));
        const config::DriveConfig cfg = config::parse_drive_config(config::to_json(c), "test");
        auto src = tb::make_workload("rw=randrw,mix=0.5,bs=4k,qd=" + std::to_string(qd) +
                                         ",seed=7,count=" + std::to_string(cfg.logical_units() * 2),
                                     cfg.logical_bytes());
        const tb::RunResult r = tb::run_simulation(cfg, *src, tb::RunOptions{});
        EXPECT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
        EXPECT_EQ(r.report["scoreboard"]["mismatches"].get<uint64_t>(), 0u);
        EXPECT_GT(r.report["scoreboard"]["pages_checked"].get<uint64_t>(), 0u);
        EXPECT_GT(r.report["energy_j"]["ch0.w0d0"].value("read_multiplane", 0.0), 0.0)
            << r.report["energy_j"]["ch0.w0d0"].dump();
      }
    }
  }
}

// With aging NAND, reads that retry keep their planes: the scoreboard holds on 2 and 4 planes
// with every other option of `busy`, and reads did take retry steps.
TEST(IndependentPlaneReads, ScoreboardHoldsWithReadRetries) {
  for (const uint32_t planes : {2u, 4u}) {
    SCOPED_TRACE(std::to_string(planes) + " planes");
    config::DriveConfig c = drive(planes, true);
    test::set_queue_depth(c, 32);
    config::ReliabilityConfig& r = c.flash.reliability;
    r.enabled = true;
    r.rber_base = 0.004;  // about 33 errors a 1 KiB codeword against 40
    r.retry_steps = {{60, 2, 48}, {120, 8, 60}};
    const config::DriveConfig cfg = config::parse_drive_config(config::to_json(c), "test");
    auto src = tb::make_workload(
        "rw=randrw,mix=0.5,bs=4k,qd=32,seed=7,count=" + std::to_string(cfg.logical_units() * 2),
        cfg.logical_bytes());
    const tb::RunResult res = tb::run_simulation(cfg, *src, tb::RunOptions{});
    EXPECT_TRUE(res.data_intact) << res.report["scoreboard"].dump();
    EXPECT_EQ(res.report["scoreboard"]["mismatches"].get<uint64_t>(), 0u);
    EXPECT_GT(res.report["scoreboard"]["pages_checked"].get<uint64_t>(), 0u);
    EXPECT_GT(res.report["reliability"]["reads_by_retry_steps"][1].get<uint64_t>(), 0u);
    EXPECT_GT(res.report["energy_j"]["ch0.w0d0"].value("read_multiplane", 0.0), 0.0);
  }
}

// Each rule names its key.
TEST(IndependentPlaneReads, TheConfigIsValidated) {
  EXPECT_EQ(test::config_error(R"({"name": "d", "flash": {"planes_per_die": 1,
                                  "independent_plane_reads": true}})"),
            "t.json: flash.independent_plane_reads: needs planes_per_die between 2 and 64");
  EXPECT_EQ(test::config_error(R"({"name": "d", "flash": {"planes_per_die": 4,
                                  "independent_plane_reads": true, "independent_reads_max": 5}})"),
            "t.json: flash.independent_reads_max: must be 0 (every plane) or between 2 and "
            "planes_per_die (4)");
  EXPECT_EQ(test::config_error(R"({"name": "d", "flash": {"planes_per_die": 4,
                                  "independent_plane_reads": true, "independent_reads_max": 1}})"),
            "t.json: flash.independent_reads_max: must be 0 (every plane) or between 2 and "
            "planes_per_die (4)");
  EXPECT_NO_THROW(config::parse_drive_config(
      nlohmann::json::parse(R"({"name": "d", "flash": {"planes_per_die": 4,
                               "independent_plane_reads": true, "independent_reads_max": 3}})"),
      "t.json"));
}

}  // namespace
}  // namespace ssd
