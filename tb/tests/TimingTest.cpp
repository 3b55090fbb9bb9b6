// Exact timing of single operations on an idle drive, derived by hand from the config, and
// the parallelism rules: pages on different channels overlap, pages on the ways of one
// channel serialise their bus transfers.
#include <gtest/gtest.h>

#include "tb/run/Simulation.h"
#include "tb/workload/VectorSource.h"
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
  // The command reaches the controller once its first page has crossed the link; every
  // later page's data is in before that page's issue slot (4096 B at 300 MB/s < one step).
  const double link = 4096 / c.host.link_mb_per_s;
  ASSERT_LT(link, step_us(c, 3));
  const double xfer = 4096 * c.flash.bus_ns_per_byte / 1000;
  const double step = step_us(c, 3);
  ASSERT_GT(xfer, step);  // so that the second way's transfer must wait for the first's
  // Page k (1-based) leaves at link + fw + k*step. Page 4 (ch1, w1) leaves at 4*step but
  // ch1's bus is held by page 2 until 2*step + xfer: it transfers after that.
  const double serialised =
      link + c.controller.t_fw_per_cmd_us + 2 * step + 2 * xfer + c.flash.t_prog_us;
  EXPECT_NEAR(rep["latency_us"]["write"]["max"].get<double>(), serialised, kPsTolUs);
  // Had the ways not serialised, page 4 would have finished at 4*step + xfer; had the
  // channels not overlapped, the last transfer would have ended at 1*step + 4*xfer.
  EXPECT_GT(serialised, link + c.controller.t_fw_per_cmd_us + 4 * step + xfer + c.flash.t_prog_us);
  EXPECT_LT(serialised, link + c.controller.t_fw_per_cmd_us + step + 4 * xfer + c.flash.t_prog_us);
}

// The founding study's X25-M measurement: the pages of one write leave the controller one
// channel switch apart (its current rose one page step 30 us after the command, two at
// 60 us). Here each further page on another channel adds exactly one issue step (the switch
// delay plus the per-page firmware step) to the write's latency, and no host-link time: the
// data of page k has crossed the link before its slot.
TEST(Timing, PagesOfAWriteLeaveOneChannelSwitchApart) {
  const auto c = test::shipped("x25m");
  const double step = step_us(c, 3);
  const double page_link = 4096 / c.host.link_mb_per_s;
  ASSERT_LT(page_link, step);
  double previous = 0;
  for (uint64_t pages = 1; pages <= 4; ++pages) {
    const auto rep = run(c, {test::request(0, IoOp::Write, 0, pages * 4096)});
    const double latency = rep["latency_us"]["write"]["max"].get<double>();
    // The last page leaves at first page's link time + per-command firmware + pages x step.
    EXPECT_NEAR(latency,
                page_link + c.controller.t_fw_per_cmd_us + double(pages) * step +
                    4096 * c.flash.bus_ns_per_byte / 1000 + c.flash.t_prog_us,
                kPsTolUs)
        << pages;
    if (pages > 1) {
      EXPECT_NEAR(latency - previous, step, kPsTolUs) << pages;
    }
    previous = latency;
  }
  EXPECT_NEAR(step, 30 + 1 + 0.18, 1e-9);
}

// A multi-page write whose pages wait for the link: at 10 MB/s a page takes 409.6 us to
// cross, longer than an issue step, so page k's program starts when its data is in.
TEST(Timing, PipelinedHostDataGatesEachPage) {
  auto c = test::shipped("small_gc");
  c.host.link_mb_per_s = 10;
  const auto rep = run(c, {test::request(0, IoOp::Write, 0, 8192)});
  const double page_link = 4096 / c.host.link_mb_per_s;
  // Page 2 (channel 1) leaves at page 1's arrival + fw + 2 steps, long before its data is in
  // at 2 x page_link; its transfer then starts at once (its bus is free).
  ASSERT_GT(2 * page_link, page_link + c.controller.t_fw_per_cmd_us + 2 * step_us(c, 3));
  EXPECT_NEAR(rep["latency_us"]["write"]["max"].get<double>(),
              2 * page_link + 4096 * c.flash.bus_ns_per_byte / 1000 + c.flash.t_prog_us, kPsTolUs);
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
