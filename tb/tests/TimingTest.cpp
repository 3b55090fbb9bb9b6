// Exact timing of single operations on an idle drive, derived by hand from the config, and
// the parallelism rules: pages on different channels overlap, pages on the ways of one
// channel serialise their bus transfers.
#include <gtest/gtest.h>

#include "tb/Simulation.h"
#include "tb/VectorSource.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

using tb::IoOp;

constexpr double kPsTolUs = 1e-6;  // 1 ps: sc_time rounds each config time to the resolution

// Runs the scripted requests and returns the report.
nlohmann::ordered_json run(const config::DriveConfig& cfg, std::vector<tb::HostRequest> reqs) {
  tb::VectorSource src(std::move(reqs));
  tb::RunResult r = tb::run_simulation(cfg, src, tb::RunOptions{});
  EXPECT_TRUE(r.data_intact);
  return r.report;
}

// Firmware work before a page's flash command leaves: FTL step, `dram` table accesses, and
// the channel switch delay.
double step_us(const config::DriveConfig& c, int dram) {
  return c.controller.t_fw_per_page_us + dram * c.dram.t_access_ns / 1000 +
         c.controller.t_cmd_issue_us;
}

TEST(Timing, Single4kWriteOnIdleDrive) {
  const auto c = test::shipped("x25m");
  const auto rep = run(c, {test::request(0, IoOp::Write, 0, 4096)});
  // Data over the link, firmware, 3 table accesses (L2P look-up, L2P and reverse-map
  // updates), command issue, page transfer on the bus, program.
  const double expected = 4096 / c.host.link_mb_per_s + c.controller.t_fw_per_cmd_us +
                          step_us(c, 3) + 4096 * c.flash.bus_ns_per_byte / 1000 +
                          c.flash.t_prog_us;
  EXPECT_NEAR(rep["latency_us"]["write"]["max"].get<double>(), expected, kPsTolUs);
  EXPECT_NEAR(expected, 4096 / 300.0 + 2 + 1 + 0.18 + 30 + 81.92 + 500, 1e-9);
}

TEST(Timing, Single4kReadOnIdleDrive) {
  const auto c = test::shipped("x25m");
  // Write first, then read long after everything settled.
  const auto rep = run(c, {test::request(0, IoOp::Write, 8192, 4096),
                           test::request(100000, IoOp::Read, 8192, 4096)});
  const double expected = c.controller.t_fw_per_cmd_us + step_us(c, 1) + c.flash.t_read_us +
                          4096 * c.flash.bus_ns_per_byte / 1000 + 4096 / c.host.link_mb_per_s;
  EXPECT_NEAR(rep["latency_us"]["read"]["max"].get<double>(), expected, kPsTolUs);
  EXPECT_EQ(rep["flash_ops"]["read"].get<uint64_t>(), 1u);
}

TEST(Timing, UnwrittenPageReadsWithoutFlash) {
  const auto c = test::shipped("x25m");
  const auto rep = run(c, {test::request(0, IoOp::Read, 0, 4096)});
  const double expected = c.controller.t_fw_per_cmd_us + c.controller.t_fw_per_page_us +
                          c.dram.t_access_ns / 1000 + 4096 / c.host.link_mb_per_s;
  EXPECT_NEAR(rep["latency_us"]["read"]["max"].get<double>(), expected, kPsTolUs);
  EXPECT_EQ(rep["flash_ops"]["read"].get<uint64_t>(), 0u);
  EXPECT_EQ(rep["firmware"]["unmapped_reads"].get<uint64_t>(), 1u);
}

// small_gc: 2 channels x 2 ways. Dies are numbered channel-major, so the pages of a 16 KB
// write land on (ch0,w0), (ch1,w0), (ch0,w1), (ch1,w1).
TEST(Timing, ChannelsOverlapWaysSerialise) {
  const auto c = test::shipped("small_gc");
  const auto rep = run(c, {test::request(0, IoOp::Write, 0, 16384)});
  const double link = 16384 / c.host.link_mb_per_s;
  const double xfer = 4096 * c.flash.bus_ns_per_byte / 1000;
  const double step = step_us(c, 3);
  ASSERT_GT(xfer, step);  // so that the second way's transfer must wait for the first's
  // Page k (1-based) leaves at link + fw + k*step. Page 4 (ch1, w1) leaves at 4*step but
  // ch1's bus is held by page 2 until 2*step + xfer: it transfers after that.
  const double serialised = link + c.controller.t_fw_per_cmd_us + 2 * step + 2 * xfer + c.flash.t_prog_us;
  EXPECT_NEAR(rep["latency_us"]["write"]["max"].get<double>(), serialised, kPsTolUs);
  // Had the ways not serialised, page 4 would have finished at 4*step + xfer; had the
  // channels not overlapped, the last transfer would have ended at 1*step + 4*xfer.
  EXPECT_GT(serialised, link + c.controller.t_fw_per_cmd_us + 4 * step + xfer + c.flash.t_prog_us);
  EXPECT_LT(serialised, link + c.controller.t_fw_per_cmd_us + step + 4 * xfer + c.flash.t_prog_us);
}

TEST(Timing, QueueDepthLimitsOutstandingCommands) {
  auto c = test::shipped("small_gc");
  c.host.queue_depth = 1;
  // Two writes at once to different channels: with one slot the second waits for the first.
  const auto rep = run(c, {test::request(0, IoOp::Write, 0, 4096),
                           test::request(0, IoOp::Write, 4096, 4096)});
  const double one = 4096 / c.host.link_mb_per_s + c.controller.t_fw_per_cmd_us + step_us(c, 3) +
                     4096 * c.flash.bus_ns_per_byte / 1000 + c.flash.t_prog_us;
  EXPECT_NEAR(rep["latency_us"]["write"]["max"].get<double>(), 2 * one, kPsTolUs);
}

}  // namespace
}  // namespace ssd
