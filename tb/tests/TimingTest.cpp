// Exact timing of single operations on an idle drive, derived by hand from the config, and
// the parallelism rules: pages on different channels overlap, pages on the ways of one
// channel serialise their bus transfers.
#include <gtest/gtest.h>

#include "tb/run/Simulation.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"

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
                          step_us(c, 3) + 4096 * c.flash.bus_ns_per_byte / 1000 + c.flash.t_prog_us;
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

// Cycle costs (controller.clock_mhz, controller.cycles) add to every step the core takes on a
// read's path: the command, the FTL step and the flash command's issue; halving the clock
// doubles what they add, to the picosecond, and the core's active energy follows its time.
TEST(Timing, HalvingTheClockDoublesTheCycleCostedSteps) {
  const auto read_at = [](double clock_mhz) {
    auto c = test::shipped("x25m");
    c.controller.clock_mhz = clock_mhz;
    c.controller.cycles = {2000, 800, 4000};  // host command, FTL step, flash command
    return run(c, {test::request(0, IoOp::Write, 8192, 4096),
                   test::request(100000, IoOp::Read, 8192, 4096)});
  };
  const auto latency = [](const nlohmann::ordered_json& r) {
    return r["latency_us"]["read"]["max"].get<double>();
  };
  const auto active_j = [](const nlohmann::ordered_json& r) {
    return r["energy_j"]["controller"]["active"].get<double>();
  };
  const auto base = read_at(0);  // no clock: the cycles cost nothing
  const auto fast = read_at(400);
  const auto slow = read_at(200);
  const double cycles_us = (2000.0 + 800 + 4000) / 400;  // 17 us at 400 MHz
  EXPECT_NEAR(latency(fast) - latency(base), cycles_us, 2 * kPsTolUs);
  EXPECT_NEAR(latency(slow) - latency(base), 2 * cycles_us, 2 * kPsTolUs);
  // Two commands (the write's steps cost as many cycles), at the core's active power.
  const auto c = test::shipped("x25m").controller;
  const double active_w = c.i_active_ma * 1e-3 * c.voltage_v;
  EXPECT_NEAR(active_j(fast) - active_j(base), 2 * cycles_us * 1e-6 * active_w, 1e-12);
  EXPECT_NEAR(active_j(slow) - active_j(base), 4 * cycles_us * 1e-6 * active_w, 1e-12);
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

// controller.issue_order in_order, the founding study's controller (Cho et al., ACM TOS 2015):
// a command's issue starts only once the channel bus it needs is free. One 32 KiB write (8
// pages, channel-first: page i on channel i mod C) on the idle case-study drive, by hand. Per
// page the firmware's step f = 1 + 3 x 0.06 = 1.18 us (FTL step, three table accesses), then
// the issue c = 30 us; the page then moves in (w = 81.92 us) and programs (900 us). L_i: when
// page i's command leaves; L_0 = link + t_fw_per_cmd + f + c after the request's arrival.
// - 4x4: page 4 (channel 0 again) reaches its issue at L_3 + f = L_0 + 3 (f + c) + f =
//   L_0 + 94.72, after channel 0's first transfer ended (L_0 + 81.92): no page waits,
//   L_7 = L_0 + 7 (f + c) = L_0 + 218.26; from the first issue's start, 8 c + 7 f = 248.26 us.
// - 2x8: page 2 reaches its issue at L_1 + f = L_0 + 2 f + c = L_0 + 32.36 and waits for
//   channel 0's bus until L_0 + w: L_2 = L_0 + w + c. Page 3 reaches its issue at L_2 + f =
//   L_0 + 113.10, just when channel 1's bus frees (L_1 + w = L_0 + f + c + w): no wait,
//   L_3 = L_2 + f + c. Each pair adds w + c: L_6 = L_0 + 3 (w + c), L_7 = L_6 + f + c =
//   L_0 + 366.94; from the first issue's start, 5 c + 3 w + f = 396.94 us (the study: 372 us
//   against 240 us, without firmware time).
// - per_die_queues, 2x8: the core never waits (L_i = L_0 + i (f + c)); the transfers queue at
//   the channels: channel 1 moves pages 1, 3, 5, 7 back to back from L_1, the last ending at
//   L_1 + 4 w = L_0 + f + c + 4 w = L_0 + 358.86.
TEST(Timing, InOrderIssueOf32KibWrite2x8Against4x4) {
  const auto write_us = [](const char* drive, config::IssueOrder order) {
    auto c = test::shipped(drive);
    c.controller.issue_order = order;
    const auto rep = run(c, {test::request(0, IoOp::Write, 0, 32768)});
    return rep["latency_us"]["write"]["max"].get<double>();
  };
  const auto c = test::shipped("case_2x8");
  EXPECT_EQ(c.controller.issue_order, config::IssueOrder::InOrder);
  EXPECT_EQ(test::shipped("case_4x4").controller.issue_order, config::IssueOrder::InOrder);
  const double f = c.controller.t_fw_per_page_us + 3 * c.dram.t_access_ns / 1000;
  const double issue = c.controller.t_cmd_issue_us;
  const double w = 4096 * c.flash.bus_ns_per_byte / 1000;
  const double l0 = 4096 / c.host.link_mb_per_s + c.controller.t_fw_per_cmd_us + f + issue;
  const double prog = c.flash.t_prog_us;
  ASSERT_NEAR(f, 1.18, 1e-12);
  ASSERT_GT(w, 2 * f + issue);      // the third page's issue finds channel 0's bus busy (2x8)
  ASSERT_LT(w, 4 * f + 3 * issue);  // ... and the fifth finds it free (4x4)
  const double in_order_2x8 = l0 + 3 * (w + issue) + f + issue + w + prog;
  const double four_by_four = l0 + 7 * (f + issue) + w + prog;
  const double per_die_2x8 = l0 + f + issue + 4 * w + prog;
  EXPECT_NEAR(write_us("case_2x8", config::IssueOrder::InOrder), in_order_2x8, kPsTolUs);
  EXPECT_NEAR(write_us("case_4x4", config::IssueOrder::InOrder), four_by_four, kPsTolUs);
  EXPECT_NEAR(write_us("case_4x4", config::IssueOrder::PerDieQueues), four_by_four, kPsTolUs);
  EXPECT_NEAR(write_us("case_2x8", config::IssueOrder::PerDieQueues), per_die_2x8, kPsTolUs);
  // The issue delays, from the start of the first page's issue to the last command leaving.
  EXPECT_NEAR(3 * (w + issue) + f + issue + issue, 396.94, 1e-9);
  EXPECT_NEAR(7 * (f + issue) + issue, 248.26, 1e-9);
  EXPECT_NEAR(in_order_2x8 - per_die_2x8, 90.0, 1e-9);
}

TEST(Timing, QueueDepthLimitsOutstandingCommands) {
  auto c = test::shipped("small_gc");
  c.host.queue_depth = 1;
  // Two writes at once to different channels: with one slot the second waits for the first.
  const auto rep =
      run(c, {test::request(0, IoOp::Write, 0, 4096), test::request(0, IoOp::Write, 4096, 4096)});
  const double one = 4096 / c.host.link_mb_per_s + c.controller.t_fw_per_cmd_us + step_us(c, 3) +
                     4096 * c.flash.bus_ns_per_byte / 1000 + c.flash.t_prog_us;
  EXPECT_NEAR(rep["latency_us"]["write"]["max"].get<double>(), 2 * one, kPsTolUs);
}

}  // namespace
}  // namespace ssd
