// The controller core's power states (controller.clock_gating): active while it works, idle
// while it waits, its clock stopped once it has idled a while; the energy of each to 1e-9.
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
// controller.clock_gating: the core's clock stops after idle_us without work, and its next
// work starts at once. One 4 KiB write on an idle X25-M class drive: the core idles from 0 to
// the command's arrival (4 KiB over the link), works 33.18 us, idles idle_us, then is gated
// until the run ends (the page's program, long after).
TEST(ClockGating, EnergyFollowsTheCoresStatesExactly) {
  auto c = test::shipped("x25m");
  c.controller.clock_gating = {true, 100, 1.5};
  const auto r = run_report(c, {test::request(0, tb::IoOp::Write, 0, 4096)});
  const double v = c.controller.voltage_v;
  // The link time as the model keeps it: to the picosecond.
  const double arrive_us =
      sc_core::sc_time(4096 / c.host.link_mb_per_s, sc_core::SC_US).to_seconds() * 1e6;
  const double work_us = c.controller.t_fw_per_cmd_us + c.controller.t_fw_per_page_us +
                         3 * c.dram.t_access_ns / 1000 + c.controller.t_cmd_issue_us;
  const double gated_s = r["energy_span_s"].get<double>() - (arrive_us + work_us + 100) * 1e-6;
  ASSERT_GT(gated_s, 0);
  test::expect_rel(test::state_j(r, "controller", "idle"),
                   v * c.controller.i_idle_ma * 1e-3 * (arrive_us + 100) * 1e-6);
  test::expect_rel(test::state_j(r, "controller", "active"),
                   v * c.controller.i_active_ma * 1e-3 * work_us * 1e-6);
  test::expect_rel(test::state_j(r, "controller", "clock_gated"), v * 1.5e-3 * gated_s);
  const auto& g = r["low_power"]["controller_clock_gating"];
  EXPECT_EQ(g["entries"].get<uint64_t>(), 1u);
  test::expect_rel(g["time_s"].get<double>(), gated_s);
  test::expect_rel(g["energy_j"].get<double>(), v * 1.5e-3 * gated_s);
}

// A gated core wakes for a command at once: latencies and the core's busy time are those of the
// run without gating; only the idle energy drops.
TEST(ClockGating, CostsNoTimeAndCountsAsRest) {
  const auto requests = [] {
    return std::vector<tb::HostRequest>{test::request(0, tb::IoOp::Write, 0, 4096),
                                        test::request(2000, tb::IoOp::Write, 8192, 4096),
                                        test::request(4000, tb::IoOp::Read, 0, 4096)};
  };
  auto c = test::shipped("x25m");
  const auto plain = run_report(c, requests());
  c.controller.clock_gating = {true, 100, 0};
  const auto gated = run_report(c, requests());
  for (const char* op : {"read", "write"})
    for (const char* stat : {"mean", "max"})
      EXPECT_EQ(gated["latency_us"][op][stat], plain["latency_us"][op][stat]) << op << stat;
  EXPECT_EQ(gated["energy_span_s"], plain["energy_span_s"]);
  EXPECT_EQ(gated["utilisation"]["controller"]["busy"], plain["utilisation"]["controller"]["busy"]);
  EXPECT_EQ(gated["energy_j"]["controller"]["active"], plain["energy_j"]["controller"]["active"]);
  EXPECT_LT(gated["energy_j"]["controller"]["idle"].get<double>(),
            plain["energy_j"]["controller"]["idle"].get<double>());
  EXPECT_EQ(gated["low_power"]["controller_clock_gating"]["entries"].get<uint64_t>(), 3u);
}

TEST(ClockGating, RulesNameTheirKey) {
  EXPECT_EQ(test::config_error(R"({"name": "d", "controller": {"clock_gating":
                               {"enabled": true, "idle_us": 0}}})"),
            "t.json: controller.clock_gating.idle_us: must be positive when clock gating is "
            "enabled");
  EXPECT_EQ(test::config_error(R"({"name": "d", "controller": {"i_idle_ma": 10, "clock_gating":
                               {"enabled": true, "i_gated_ma": 11}}})"),
            "t.json: controller.clock_gating.i_gated_ma: is above controller.i_idle_ma: a core "
            "whose clock is stopped draws less than an idle one");
}

}  // namespace
}  // namespace ssd
