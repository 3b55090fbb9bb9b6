// Several controller cores (controller.cores): host command processing, the FTL's work and
// background work each on the cores given to it, work passed between them at the message
// latency, each core's power of its own, and no data lost whatever runs where.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/run/Simulation.h"
#include "tb/tests/ExactEnergy.h"
#include "tb/tests/RunReport.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/WorkloadGenerator.h"

namespace ssd {
namespace {

using config::CoreConfig;
using test::run_report;

// The X25-M class drive with per-die queues (several cores need them) and firmware costs large
// enough that two commands' firmware overlaps: 20 us per command, 10 us per FTL step.
config::DriveConfig x25m(std::vector<CoreConfig> cores = {}) {
  auto c = test::shipped("x25m");
  c.controller.issue_order = config::IssueOrder::PerDieQueues;
  c.controller.t_fw_per_cmd_us = 20;
  c.controller.t_fw_per_page_us = 10;
  c.controller.cores = std::move(cores);
  return c;
}

// Reads of never-written pages: firmware work alone (a command, one FTL step and one mapping
// look-up per page), no flash.
tb::HostRequest unmapped_read(double at_us, uint64_t bytes = 4096) {
  return test::request(at_us, tb::IoOp::Read, 1 << 20, bytes);
}

double mean_us(const nlohmann::ordered_json& r, const char* op = "read") {
  return r["latency_us"][op]["mean"].get<double>();
}

double core_queue_us(const nlohmann::ordered_json& r) {
  return r["latency_breakdown_us"]["read"]["mean"]["core_queue"].get<double>();
}

// Two reads 1 us apart: on one core the second waits for the first's firmware; on two cores each
// takes one and they run at the same time (their look-ups, 1 us apart, do not meet at the DRAM).
std::vector<tb::HostRequest> two_reads() { return {unmapped_read(0), unmapped_read(1)}; }

TEST(Cores, TwoHostReadsRunTheirFirmwareAtTheSameTime) {
  const std::vector<tb::HostRequest> two = two_reads();
  const auto one = run_report(x25m(), two);
  EXPECT_GT(core_queue_us(one), 10.0);
  const auto both = run_report(x25m({{"c0"}, {"c1"}}), two);
  EXPECT_EQ(core_queue_us(both), 0.0);
  EXPECT_GT(both["utilisation"]["c0"]["busy"].get<double>(), 0.0);
  EXPECT_EQ(both["utilisation"]["c0"]["busy"], both["utilisation"]["c1"]["busy"]);
  EXPECT_FALSE(both["utilisation"].contains("controller"));
}

// Each core is a power-state machine: the two reads' cores each draw the active current for one
// read's work (a command, an FTL step, a look-up) and idle otherwise, to 1e-9.
TEST(Cores, EachCoreDrawsItsOwnCurrent) {
  const auto cfg = x25m({{"c0"}, {"c1"}});
  const auto r = run_report(cfg, two_reads());
  const auto& c = cfg.controller;
  const double work_s =
      (c.t_fw_per_cmd_us + c.t_fw_per_page_us + cfg.dram.t_access_ns / 1000) * 1e-6;
  const double span_s = r["energy_span_s"].get<double>();
  for (const char* core : {"c0", "c1"}) {
    test::expect_rel(test::state_j(r, core, "active"), c.voltage_v * c.i_active_ma * 1e-3 * work_s);
    test::expect_rel(test::state_j(r, core, "idle"),
                     c.voltage_v * c.i_idle_ma * 1e-3 * (span_s - work_s));
  }
}

double stage_us(const nlohmann::ordered_json& r, const char* stage) {
  return r["latency_breakdown_us"]["read"]["mean"][stage].get<double>();
}

// A host core that is no FTL core hands the command to one: the read takes the message there
// and the one back longer than on one core, nothing else. Its breakdown puts the host core's
// parse under firmware, the two messages under messages and the FTL step (and its look-up) under
// ftl_firmware; a one-core drive's breakdown has no such stages.
TEST(Cores, AMessageBetweenCoresCostsItsLatency) {
  const auto one = run_report(x25m(), {unmapped_read(0)});
  const double alone = mean_us(one);
  for (const char* stage : {"messages", "ftl_queue", "ftl_firmware"})
    EXPECT_FALSE(one["latency_breakdown_us"]["read"]["mean"].contains(stage)) << stage;
  for (double message_ns : {0.0, 500.0, 2000.0}) {
    auto cfg = x25m({{"host", true, false, false}, {"ftl", false, true, true}});
    cfg.controller.t_message_ns = message_ns;
    const auto r = run_report(cfg, {unmapped_read(0)});
    EXPECT_NEAR(mean_us(r), alone + 2 * message_ns / 1000, 1e-6) << message_ns;
    EXPECT_GT(r["utilisation"]["host"]["busy"].get<double>(), 0.0);
    EXPECT_GT(r["utilisation"]["ftl"]["busy"].get<double>(), 0.0);
    EXPECT_NEAR(stage_us(r, "firmware"), cfg.controller.t_fw_per_cmd_us, 1e-6);
    EXPECT_NEAR(stage_us(r, "messages"), 2 * message_ns / 1000, 1e-6);
    EXPECT_EQ(stage_us(r, "ftl_queue"), 0.0);
    EXPECT_NEAR(stage_us(r, "ftl_firmware"),
                cfg.controller.t_fw_per_page_us + cfg.dram.t_access_ns / 1000, 1e-6);
  }
}

// Two host cores parse two reads 1 us apart at the same time and hand both to the one FTL core:
// the second waits there until the first's step is done (its FTL step and look-up, less the
// 1 us), which the breakdown shows as ftl_queue, not core_queue.
TEST(Cores, AWaitForTheFtlCoreIsItsOwnStage) {
  auto cfg = x25m({{"h0", true, false, false}, {"h1", true, false, false}, {"ftl", false, true}});
  const auto r = run_report(cfg, two_reads());
  EXPECT_EQ(core_queue_us(r), 0.0);
  const double step_us = cfg.controller.t_fw_per_page_us + cfg.dram.t_access_ns / 1000;
  EXPECT_NEAR(stage_us(r, "ftl_queue"), (step_us - 1) / 2, 1e-6);
  EXPECT_NEAR(stage_us(r, "ftl_firmware"), step_us, 1e-6);
}

// Placement by data: an 8 KiB read's two units go to two FTL cores, which run their steps at the
// same time; their look-ups meet at the shared DRAM, where the second core waits for the first's
// (active: its energy is one access longer). Placement shared gives both units to one core: the
// read takes one FTL step longer.
TEST(Cores, StripesSpreadACommandsUnitsOverTheFtlCores) {
  const std::vector<CoreConfig> cores{
      {"host", true, false, true}, {"f0", false, true, false}, {"f1", false, true, false}};
  auto cfg = x25m(cores);
  const double shared = mean_us(run_report(cfg, {unmapped_read(0, 8192)}));
  cfg.controller.ftl_placement = config::FtlPlacement::Stripes;
  const auto r = run_report(cfg, {unmapped_read(0, 8192)});
  EXPECT_NEAR(shared - mean_us(r), cfg.controller.t_fw_per_page_us, 1e-6);
  const auto& c = cfg.controller;
  test::expect_rel(test::state_j(r, "f1", "active") - test::state_j(r, "f0", "active"),
                   c.voltage_v * c.i_active_ma * 1e-3 * cfg.dram.t_access_ns * 1e-9);
}

// Destaging the write buffer on a core of its own: reads arriving while it runs find their core
// free; on one core they wait for its steps (each issues programs at t_cmd_issue_us apiece).
TEST(Cores, BackgroundWorkOnItsOwnCoreDoesNotDelayTheHostsFirmware) {
  std::vector<tb::HostRequest> reqs;
  for (uint64_t i = 0; i < 64; ++i)
    reqs.push_back(test::request(0, tb::IoOp::Write, i * 4096, 4096));
  for (int i = 0; i < 100; ++i) reqs.push_back(unmapped_read(2000 + 20.0 * i));
  const auto with = [&](std::vector<CoreConfig> cores) {
    auto cfg = x25m(std::move(cores));
    cfg.controller.t_fw_per_cmd_us = 2;
    cfg.controller.t_fw_per_page_us = 1;
    cfg.dram.write_buffer_mb = 4;
    cfg.dram.write_buffer_idle_us = 5;
    return run_report(cfg, reqs);
  };
  const auto one = with({});
  EXPECT_GT(core_queue_us(one), 1.0);
  const auto own = with({{"fw", true, true, false}, {"bg", false, false, true}});
  EXPECT_EQ(core_queue_us(own), 0.0);
  EXPECT_GT(own["utilisation"]["bg"]["busy"].get<double>(), 0.0);
  EXPECT_EQ(own["flash_ops"]["program"], one["flash_ops"]["program"]);
}

// 1, 2, 4 and 8 cores in different roles, both placements, every FTL, at queue depth 32 and 256,
// then overlapping reads, writes and trims on a few hot pages: the scoreboard finds every page's
// latest data (run_report checks it too).
TEST(Cores, ScoreboardHoldsWithAnyCoresUnderEveryFtl) {
  const auto layout = [](uint32_t n) -> std::vector<CoreConfig> {
    if (n == 1) return {};
    if (n == 2) return {{"c0"}, {"c1"}};
    std::vector<CoreConfig> cores{{"h0", true, false, false}, {"bg", false, false, true}};
    if (n == 8) cores.push_back({"h1", true, false, false});
    while (cores.size() < n)
      cores.push_back({"f" + std::to_string(cores.size()), false, true, false});
    return cores;
  };
  for (const char* type : {"page", "dftl", "block", "bast", "bast_star", "fast", "last"}) {
    for (uint32_t n : {1u, 2u, 4u, 8u}) {
      for (auto placement : {config::FtlPlacement::Shared, config::FtlPlacement::Stripes}) {
        auto cfg = test::shipped("small_gc");
        cfg.ftl.type = test::choice<config::FtlType>(type);
        cfg.controller.issue_order = config::IssueOrder::PerDieQueues;
        cfg.controller.cores = layout(n);
        cfg.controller.ftl_placement = placement;
        cfg.controller.stripe_units = 2;
        cfg.controller.t_message_ns = 300;
        const uint32_t qd = n == 8 ? 256 : 32;
        test::set_queue_depth(cfg, qd);
        auto src = tb::make_workload("rw=randrw,mix=0.5,bs=8k,seed=3,qd=" + std::to_string(qd) +
                                         ",count=" + std::to_string(cfg.logical_pages()),
                                     cfg.logical_bytes());
        tb::RunOptions opts;
        opts.series = false;
        const tb::RunResult r = tb::run_simulation(cfg, *src, opts);
        EXPECT_TRUE(r.data_intact) << type << " x" << n << ": " << r.report["scoreboard"].dump();
        EXPECT_GT(r.report["scoreboard"]["pages_checked"].get<uint64_t>(), 0u) << type << n;
        // Reads, writes and trims of 4-16 KiB on 64 hot pages, overlapping while in flight.
        const auto hot = run_report(cfg, test::hot_mix(2000, n, 64));
        EXPECT_GT(hot["scoreboard"]["pages_checked"].get<uint64_t>(), 0u) << type << n;
        EXPECT_GT(hot["firmware"]["page_trims"].get<uint64_t>(), 0u) << type << n;
      }
    }
  }
}

TEST(Cores, RulesNameTheirKey) {
  EXPECT_EQ(test::config_error(R"({"name": "d", "controller": {"cores":
                               [{"name": "a", "background": false}, {"name": "b", "background": false}]}})"),
            "t.json: controller.cores: no core has background true: that work would have no core "
            "to run on");
  EXPECT_EQ(test::config_error(R"({"name": "d", "controller": {"cores":
                               [{"name": "a"}, {"name": "a"}]}})"),
            "t.json: controller.cores[1].name: 'a' names another core too");
  EXPECT_EQ(test::config_error(R"({"name": "d", "controller": {"issue_order": "in_order",
                               "cores": [{"name": "a"}, {"name": "b"}]}})"),
            "t.json: controller.cores: several cores need controller.issue_order per_die_queues");
  EXPECT_EQ(test::config_error(R"({"name": "d", "controller": {"cores": [{"host": true}]}})"),
            "t.json: controller.cores[0].name: required key is missing");
  for (const char* name : {"dram", "ch3", "bottleneck"})
    EXPECT_EQ(
        test::config_error(std::string(R"({"name": "d", "controller": {"cores": [{"name": ")") +
                           name + R"("}]}})"),
        std::string("t.json: controller.cores[0].name: '") + name +
            "' is the name of another part of the drive or of a utilisation figure in the "
            "report");
}

}  // namespace
}  // namespace ssd
