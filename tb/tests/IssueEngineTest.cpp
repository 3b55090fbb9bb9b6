// The command-issue engine (controller.issue_engine): the cores post flash commands to a
// hardware engine, which sends them one at a time with its own time and current.
#include <gtest/gtest.h>

#include <vector>

#include <nlohmann/json.hpp>

#include "tb/tests/ExactEnergy.h"
#include "tb/tests/RunReport.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

using test::run_report;

// The X25-M class drive with per-die queues; the engine posts in 40 ns, issues in 250 ns and
// draws 15 mA working, 1 mA idle.
config::DriveConfig base(bool engine) {
  auto c = test::shipped("x25m");
  c.controller.issue_order = config::IssueOrder::PerDieQueues;
  if (engine) c.controller.issue_engine = {true, 40, 250, 15, 1};
  return c;
}

// One 4 KiB write, then a read of it once the program has ended.
std::vector<tb::HostRequest> write_then_read() {
  return {test::request(0, tb::IoOp::Write, 0, 4096), test::request(3000, tb::IoOp::Read, 0, 4096)};
}

// The read's flash command costs the core its post instead of the channel switch, and the
// engine its issue: the read takes that much less; the engine's energy is its issues of the
// program and the read at its current, to 1e-9, and the core's active energy drops by two
// channel switches less two posts.
TEST(IssueEngine, ACommandCostsThePostAndTheEnginesIssue) {
  const auto plain_cfg = base(false), cfg = base(true);
  const auto plain = run_report(plain_cfg, write_then_read());
  const auto eng = run_report(cfg, write_then_read());
  const auto& c = cfg.controller;
  const double post_us = c.issue_engine.t_post_ns / 1000,
               issue_us = c.issue_engine.t_issue_ns / 1000;
  EXPECT_NEAR(
      eng["latency_us"]["read"]["mean"].get<double>(),
      plain["latency_us"]["read"]["mean"].get<double>() - c.t_cmd_issue_us + post_us + issue_us,
      1e-6);
  const double commands = 2;
  EXPECT_EQ(eng["flash_ops"]["read"].get<double>() + eng["flash_ops"]["program"].get<double>(),
            commands);
  const double active_s = commands * issue_us * 1e-6;
  test::expect_rel(test::state_j(eng, "issue_engine", "active"), c.voltage_v * 15e-3 * active_s);
  test::expect_rel(test::state_j(eng, "issue_engine", "idle"),
                   c.voltage_v * 1e-3 * (eng["energy_span_s"].get<double>() - active_s));
  test::expect_rel(
      test::state_j(plain, "controller", "active") - test::state_j(eng, "controller", "active"),
      c.voltage_v * c.i_active_ma * 1e-3 * commands * (c.t_cmd_issue_us - post_us) * 1e-6);
  EXPECT_GT(eng["utilisation"]["issue_engine"]["busy"].get<double>(), 0.0);
  EXPECT_FALSE(plain["utilisation"].contains("issue_engine"));
}

// A 64 KiB read of written pages: the core looks each page up (a DRAM access) and posts its
// flash read, 40 ns, then the next; the engine sends them 250 ns apart, so the k-th waits
// k x (250 - 40 - the access) ns in its queue. The writes before it came over the link far
// apart and never queued: the engine's mean queue over the span is the reads' total wait over
// it (Little's law), exactly.
TEST(IssueEngine, TakesThePostedCommandsOneAtATime) {
  auto cfg = base(true);
  cfg.controller.t_fw_per_cmd_us = 0;
  cfg.controller.t_fw_per_page_us = 0;
  std::vector<tb::HostRequest> reqs;
  for (uint64_t i = 0; i < 16; ++i)
    reqs.push_back(test::request(0, tb::IoOp::Write, i * 4096, 4096));
  reqs.push_back(test::request(50000, tb::IoOp::Read, 0, 16 * 4096));
  const auto r = run_report(cfg, reqs);
  double waited_ns = 0;
  for (int k = 0; k < 16; ++k) waited_ns += k * (250.0 - 40.0 - cfg.dram.t_access_ns);
  test::expect_rel(r["utilisation"]["issue_engine"]["mean_queue"].get<double>() *
                       r["utilisation"]["span_s"].get<double>(),
                   waited_ns * 1e-9);
}

// Reads, writes and trims over a few hot pages, with the write buffer and without, on one core
// and on three: the scoreboard holds (run_report checks it).
TEST(IssueEngine, ScoreboardHolds) {
  for (uint32_t buffer_mb : {0u, 4u}) {
    for (bool cores : {false, true}) {
      auto cfg = base(true);
      cfg.dram.write_buffer_mb = buffer_mb;
      if (cores)
        cfg.controller.cores = {
            {"h", true, false, false}, {"f", false, true, false}, {"bg", false, false, true}};
      const auto r = run_report(cfg, test::hot_mix(3000, 7, 64));
      EXPECT_GT(r["utilisation"]["issue_engine"]["busy"].get<double>(), 0.0) << buffer_mb;
    }
  }
}

TEST(IssueEngine, RulesNameTheirKey) {
  EXPECT_EQ(test::config_error(R"({"name": "d", "controller": {"issue_engine":
                               {"enabled": true, "i_active_ma": 1, "i_idle_ma": 2}}})"),
            "t.json: controller.issue_engine.i_idle_ma: is above "
            "controller.issue_engine.i_active_ma: the engine draws more while it works");
  EXPECT_EQ(test::config_error(R"({"name": "d", "controller": {"issue_order": "in_order",
                               "issue_engine": {"enabled": true}}})"),
            "t.json: controller.issue_engine.enabled: needs controller.issue_order "
            "per_die_queues");
}

}  // namespace
}  // namespace ssd
