// The utilisation report on a preconditioned drive under many outstanding random mixed
// requests: every die's busy fraction is exactly the array and transfer time of the
// operations it ran, and the figures name the resources as the run used them.
#include <gtest/gtest.h>

#include "tb/run/Simulation.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"
#include "tb/workload/WorkloadGenerator.h"

namespace ssd {
namespace {

TEST(Utilisation, PreconditionedMixedLoadOnA4x4Drive) {
  // The case study's 4 ch x 4 way drive at 1/128 of its blocks (so it preconditions in about
  // a second), 256 requests outstanding, half reads.
  auto cfg = test::shipped("case_4x4");
  // The figures below were measured with per-die queues; the study's in-order issue keeps the
  // dies less busy (about 50 %) as the core waits for each channel's bus.
  cfg.controller.issue_order = config::IssueOrder::PerDieQueues;
  cfg.flash.blocks_per_plane = 256;
  test::set_queue_depth(cfg, 256);
  auto src =
      tb::make_workload("rw=randrw,mix=0.5,bs=4k,qd=256,count=8000,seed=3", cfg.logical_bytes());
  tb::RunOptions opts;
  opts.precondition = true;
  opts.precondition_random = 0.2;
  const tb::RunResult r = tb::run_simulation(cfg, *src, opts);
  ASSERT_TRUE(r.data_intact);
  const auto& rep = r.report;
  const auto& u = rep["utilisation"];
  const double span = u["span_s"].get<double>();
  ASSERT_EQ(u["dies"].size(), 16u);

  // Dies: busy exactly while reading (tR + data out), programming (data in + tPROG) or
  // erasing; no multi-plane, cache program or suspend in this config.
  const auto& f = cfg.flash;
  const double xfer = f.page_bytes * f.bus_ns_per_byte * 1e-9;
  const double die_s =
      double(rep["flash_ops"]["read"].get<uint64_t>()) * (f.t_read_us * 1e-6 + xfer) +
      double(rep["flash_ops"]["program"].get<uint64_t>()) * (xfer + f.t_prog_us * 1e-6) +
      double(rep["flash_ops"]["erase"].get<uint64_t>()) * f.t_erase_us * 1e-6;
  EXPECT_NEAR(u["dies_busy_mean"].get<double>() * 16 * span, die_s, 1e-9 * die_s);
  // Channel buses: one transfer per read and per program.
  double bus_busy = 0;
  for (const auto& c : u["channels"]) bus_busy += c["busy"].get<double>() * span;
  const double transfers = double(rep["flash_ops"]["read"].get<uint64_t>() +
                                  rep["flash_ops"]["program"].get<uint64_t>());
  EXPECT_NEAR(bus_busy, transfers * xfer, 1e-9 * transfers * xfer);
  // The controller issues every flash command (t_cmd_issue_us each) and runs the firmware.
  const double issue_s = (transfers + double(rep["flash_ops"]["erase"].get<uint64_t>())) *
                         cfg.controller.t_cmd_issue_us * 1e-6;
  EXPECT_GE(u["controller"]["busy"].get<double>() * span, issue_s);
  // Measured: dies about 62 % busy, the controller about 55 % and the buses about 36 %; the
  // busiest resource is a die. (What holds the dies back is the controller: foreground GC
  // books its issue slots in bursts, and the dies wait for commands it has not yet issued.)
  EXPECT_GT(u["dies_busy_mean"].get<double>(), 0.5);
  EXPECT_EQ(u["bottleneck"]["name"].get<std::string>().rfind("ch", 0), 0u);
  EXPECT_GT(u["controller"]["mean_queue"].get<double>(), 1.0) << "256 outstanding: commands queue";
}

// Writes that all fit the write buffer complete from DRAM: while the host runs, no die works;
// the buffer is destaged once the drive has idled, after the host's last completion. The
// host phase and the after-run tail each show it, exactly.
TEST(Utilisation, TheHostPhaseAndTheTailAfterIt) {
  auto cfg = test::shipped("small_gc");
  cfg.dram.write_buffer_mb = 1;  // 256 pages of 4 KiB
  std::vector<tb::HostRequest> reqs;
  for (int i = 0; i < 100; ++i)
    reqs.push_back(test::request(10.0 * i, tb::IoOp::Write, i * 4096, 4096));
  tb::VectorSource src(std::move(reqs));
  const tb::RunResult r = tb::run_simulation(cfg, src, tb::RunOptions{});
  ASSERT_TRUE(r.data_intact);
  const auto& u = r.report["utilisation"];
  const auto& host = u["host_phase"];
  const auto& tail = u["tail"];
  const double last_completion = r.report["sim_time_s"].get<double>();
  EXPECT_DOUBLE_EQ(tail["start_s"].get<double>(), last_completion);
  EXPECT_DOUBLE_EQ(tail["end_s"].get<double>(), u["span_s"].get<double>());
  EXPECT_EQ(host["start_s"].get<double>(), 0.0);
  EXPECT_GE(host["end_s"].get<double>(), last_completion);
  EXPECT_EQ(host["dies_busy_mean"].get<double>(), 0.0);
  EXPECT_GT(host["controller"]["busy"].get<double>(), 0.0);
  // The tail: every page destaged, each its data in and its program on a die.
  const auto& f = cfg.flash;
  const double per_page = f.page_bytes * f.bus_ns_per_byte * 1e-9 + f.t_prog_us * 1e-6;
  const double dies = double(tail["dies"].size());
  const double tail_s = tail["span_s"].get<double>();
  EXPECT_NEAR(tail["dies_busy_mean"].get<double>() * dies * tail_s, 100 * per_page,
              1e-9 * 100 * per_page);
  uint64_t commands = 0;
  for (const auto& d : tail["dies"]) commands += d["commands"].get<uint64_t>();
  EXPECT_EQ(commands, 100u);
  for (const auto& d : host["dies"]) EXPECT_EQ(d["commands"].get<uint64_t>(), 0u);
  // The whole span adds them up.
  EXPECT_NEAR(u["dies_busy_mean"].get<double>() * u["span_s"].get<double>(),
              tail["dies_busy_mean"].get<double>() * tail_s, 1e-12);
}

}  // namespace
}  // namespace ssd
