// The hardware read path (controller.hw_read_path): host reads looked up and sent by a read
// engine on its own timeline, with its own costs and current, and no core time.
#include <gtest/gtest.h>

#include <vector>

#include <nlohmann/json.hpp>

#include "tb/run/Simulation.h"
#include "tb/tests/ExactEnergy.h"
#include "tb/tests/RunReport.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"

namespace ssd {
namespace {

using test::run_report;

// The X25-M class drive with per-die queues (the engine does not wait for a channel's bus).
config::DriveConfig base(const char* name = "x25m") {
  auto c = test::shipped(name);
  c.controller.issue_order = config::IssueOrder::PerDieQueues;
  return c;
}

config::DriveConfig with_engine(config::DriveConfig c) {
  c.controller.hw_read_path = {true, 400, 250, 12, 2};
  return c;
}

// One 4 KiB write, then a read of it once the program has ended (X25-M class drive, page FTL,
// per-die queues).
std::vector<tb::HostRequest> write_then_read() {
  return {test::request(0, tb::IoOp::Write, 0, 4096), test::request(3000, tb::IoOp::Read, 0, 4096)};
}

// The read's firmware time (a command, an FTL step, the channel switch) becomes the engine's
// (its command and its issue); the DRAM look-up takes the DRAM's time on either. The core's
// active energy is that of the write alone; the engine's is its work at its current, to 1e-9.
TEST(HwReadPath, AReadSpendsNoCoreTime) {
  const auto plain_cfg = base();
  const auto cfg = with_engine(plain_cfg);
  const auto plain = run_report(plain_cfg, write_then_read());
  const auto hw = run_report(cfg, write_then_read());
  const auto write_only = run_report(cfg, {test::request(0, tb::IoOp::Write, 0, 4096)});
  const auto& c = cfg.controller;
  const double fw_us = c.t_fw_per_cmd_us + c.t_fw_per_page_us + c.t_cmd_issue_us;
  const double engine_us = (c.hw_read_path.t_command_ns + c.hw_read_path.t_issue_ns) / 1000;
  EXPECT_NEAR(hw["latency_us"]["read"]["mean"].get<double>(),
              plain["latency_us"]["read"]["mean"].get<double>() - fw_us + engine_us, 1e-6);
  EXPECT_EQ(hw["latency_us"]["write"]["mean"], plain["latency_us"]["write"]["mean"]);
  test::expect_rel(test::state_j(hw, "controller", "active"),
                   test::state_j(write_only, "controller", "active"));
  const double look_up_us = cfg.dram.t_access_ns / 1000;
  test::expect_rel(test::state_j(hw, "read_engine", "active"),
                   c.voltage_v * 12e-3 * (engine_us + look_up_us) * 1e-6);
  const double span_s = hw["energy_span_s"].get<double>();
  test::expect_rel(test::state_j(hw, "read_engine", "idle"),
                   c.voltage_v * 2e-3 * (span_s - (engine_us + look_up_us) * 1e-6));
  EXPECT_GT(hw["utilisation"]["read_engine"]["busy"].get<double>(), 0.0);
  EXPECT_FALSE(plain["utilisation"].contains("read_engine"));
}

// A read does not queue behind the core's work: an unmapped read arriving while the core
// works through a 64 KiB write (its data has crossed the link; the core issues its 16 pages
// 30 us apart) takes as long as alone; without the engine it waits.
TEST(HwReadPath, AReadDoesNotWaitForTheCore) {
  const std::vector<tb::HostRequest> alone{test::request(300, tb::IoOp::Read, 1 << 20, 4096)};
  const std::vector<tb::HostRequest> behind{test::request(0, tb::IoOp::Write, 0, 65536),
                                            test::request(300, tb::IoOp::Read, 1 << 20, 4096)};
  const auto cfg = with_engine(base());
  EXPECT_EQ(run_report(cfg, behind)["latency_us"]["read"]["mean"],
            run_report(cfg, alone)["latency_us"]["read"]["mean"]);
  const auto plain_cfg = base();
  EXPECT_GT(run_report(plain_cfg, behind)["latency_us"]["read"]["mean"].get<double>(),
            run_report(plain_cfg, alone)["latency_us"]["read"]["mean"].get<double>());
}

// Reads, writes and trims over a few hot pages, with the write buffer and without: the
// scoreboard holds, the engine took the reads and the core the rest.
TEST(HwReadPath, ScoreboardHolds) {
  for (uint32_t buffer_mb : {0u, 4u}) {
    auto cfg = with_engine(base("default"));
    cfg.dram.write_buffer_mb = buffer_mb;
    const auto r = run_report(cfg, test::hot_mix(3000, 7, 64));
    EXPECT_GT(r["utilisation"]["read_engine"]["busy"].get<double>(), 0.0) << buffer_mb;
    EXPECT_GT(r["utilisation"]["controller"]["busy"].get<double>(), 0.0) << buffer_mb;
  }
}

TEST(HwReadPath, RulesNameTheirKey) {
  EXPECT_EQ(test::config_error(R"({"name": "d", "ftl": {"type": "dftl"}, "controller":
                               {"hw_read_path": {"enabled": true}}})"),
            "t.json: controller.hw_read_path.enabled: needs ftl.type page");
  EXPECT_EQ(test::config_error(R"({"name": "d", "controller": {"hw_read_path":
                               {"enabled": true, "i_active_ma": 1, "i_idle_ma": 2}}})"),
            "t.json: controller.hw_read_path.i_idle_ma: is above "
            "controller.hw_read_path.i_active_ma: the engine draws more while it works");
  EXPECT_EQ(test::config_error(R"({"name": "d", "controller": {"issue_order": "in_order",
                               "hw_read_path": {"enabled": true}}})"),
            "t.json: controller.hw_read_path.enabled: needs controller.issue_order "
            "per_die_queues");
}

}  // namespace
}  // namespace ssd
