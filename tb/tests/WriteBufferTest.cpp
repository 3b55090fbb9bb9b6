// The DRAM write buffer: exact firmware-level arithmetic on the fake HAL (a write absorbed,
// a buffer-full stall, a flush, a read served from DRAM), exact drive-level latencies, and
// the scoreboard with the buffer on for every FTL.
#include <random>

#include <gtest/gtest.h>

#include "firmware/WriteBuffer.h"
#include "firmware/ftl/PageFtl.h"
#include "tb/run/Simulation.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"
#include "tb/workload/WorkloadGenerator.h"

namespace ssd {
namespace {

using fw::OpId;
using fw::PageToken;
using tb::IoOp;
using test::FakeHal;

sc_core::sc_time us(double v) { return sc_core::sc_time(v, sc_core::SC_US); }

// Fake HAL figures: a 4 KiB burst takes 4.096 us; a PageFtl write costs 3 table entries
// (0.15 us) and the 30 us issue before its program (500 us) starts.
struct Rig {
  explicit Rig(uint64_t capacity)
      : cfg(test::shipped("small_gc")),
        hal(cfg.flash),
        ftl(cfg, hal),
        buffer(capacity, 4096, 2, 1, cfg.logical_units(), false, hal, ftl) {}
  config::DriveConfig cfg;
  FakeHal hal;
  fw::PageFtl ftl;
  fw::WriteBuffer buffer;
};

TEST(WriteBuffer, WriteCompletesInDramAndARewriteIsAbsorbed) {
  Rig r(4);
  EXPECT_EQ(r.buffer.write(1, PageToken{1, 1}, sc_core::SC_ZERO_TIME, fw::kNoOp), us(4.096));
  // Data that arrives later moves later.
  EXPECT_EQ(r.buffer.write(1, PageToken{1, 2}, us(10), fw::kNoOp), us(14.096));
  EXPECT_EQ(r.buffer.stats().absorbed, 1u);
  EXPECT_EQ(r.hal.total_programs(), 0u) << "nothing reaches flash before a destage";
  PageToken t;
  const auto at = r.buffer.read(1, t);
  ASSERT_TRUE(at.has_value());
  EXPECT_EQ(*at, us(18.192)) << "served from DRAM, after the bursts before it";
  EXPECT_EQ(t, (PageToken{1, 2}));
  EXPECT_FALSE(r.buffer.read(2, t).has_value());
}

TEST(WriteBuffer, AFullBufferStallsUntilTheOldestDestageEnds) {
  Rig r(2);
  r.buffer.write(1, PageToken{1, 1}, sc_core::SC_ZERO_TIME, fw::kNoOp);  // burst [0, 4.096)
  r.buffer.write(2, PageToken{2, 1}, sc_core::SC_ZERO_TIME, fw::kNoOp);  // [4.096, 8.192)
  // Full: the stripe (2 pages) destages. Page 1: burst out [8.192, 12.288); its FTL write
  // (0.15) and issue (30) put its program at [30.15, 530.15). Page 2: burst [12.288, 16.384),
  // program from 60.30. The write waits for page 1's program, then moves its data.
  EXPECT_EQ(r.buffer.write(3, PageToken{3, 1}, sc_core::SC_ZERO_TIME, fw::kNoOp),
            us(530.15 + 4.096));
  EXPECT_EQ(r.hal.now(), us(530.15));
  EXPECT_EQ(r.buffer.stats().full_stalls, 1u);
  EXPECT_DOUBLE_EQ(r.buffer.stats().stall_s, us(530.15 - 60.30).to_seconds());
  EXPECT_EQ(r.buffer.stats().destaged, 2u);
  EXPECT_EQ(r.hal.ops()[0].done, us(530.15));
  EXPECT_EQ(r.hal.ops()[1].done, us(560.30));
  EXPECT_EQ(r.hal.ops()[0].data_ready, sc_core::SC_ZERO_TIME);
}

// Full again: issuing page 3 (30.15 us of the core's time) takes the core to 560.30, when
// page 2's program ends: its slot is free then, and the write does not wait (it did count a
// stall of no time before).
TEST(WriteBuffer, ASlotFreedWhileTheCoreIssuesIsNoStall) {
  Rig r(2);
  r.buffer.write(1, PageToken{1, 1}, sc_core::SC_ZERO_TIME, fw::kNoOp);
  r.buffer.write(2, PageToken{2, 1}, sc_core::SC_ZERO_TIME, fw::kNoOp);
  r.buffer.write(3, PageToken{3, 1}, sc_core::SC_ZERO_TIME, fw::kNoOp);  // stalls to 530.15
  r.buffer.write(4, PageToken{4, 1}, sc_core::SC_ZERO_TIME, fw::kNoOp);
  EXPECT_EQ(r.hal.now(), us(560.30));
  EXPECT_EQ(r.hal.ops()[1].done, us(560.30));
  EXPECT_EQ(r.buffer.stats().destaged, 3u);
  EXPECT_EQ(r.buffer.stats().full_stalls, 1u);
  EXPECT_DOUBLE_EQ(r.buffer.stats().stall_s, us(530.15 - 60.30).to_seconds());
}

TEST(WriteBuffer, FlushWaitsForEveryDestage) {
  Rig r(4);
  r.buffer.write(1, PageToken{1, 1}, sc_core::SC_ZERO_TIME, fw::kNoOp);
  r.buffer.write(2, PageToken{2, 1}, sc_core::SC_ZERO_TIME, fw::kNoOp);
  fw::Completion c;
  r.buffer.flush(c.ops);
  ASSERT_EQ(c.ops.size(), 2u);
  EXPECT_EQ(r.hal.done(c), us(560.30));
  EXPECT_EQ(r.buffer.dirty_pages(), 0u);
  // The pages are in flash as the FTL mapped them.
  PageToken t;
  r.ftl.read(2, t);
  EXPECT_EQ(t, (PageToken{2, 1}));
}

TEST(WriteBuffer, TrimDropsADirtyPage) {
  Rig r(4);
  r.buffer.write(5, PageToken{5, 1}, sc_core::SC_ZERO_TIME, fw::kNoOp);
  r.buffer.trim(5);
  PageToken t;
  EXPECT_FALSE(r.buffer.read(5, t).has_value());
  fw::Completion c;
  r.buffer.flush(c.ops);
  EXPECT_TRUE(c.ops.empty());
  EXPECT_EQ(r.hal.total_programs(), 0u);
}

nlohmann::ordered_json run(const config::DriveConfig& cfg, std::vector<tb::HostRequest> reqs) {
  tb::VectorSource src(std::move(reqs));
  tb::RunResult r = tb::run_simulation(cfg, src, tb::RunOptions{});
  EXPECT_TRUE(r.data_intact);
  return r.report;
}

constexpr double kPsTolUs = 1e-6;

// plane_first gives a die two pages at one offset, a two-plane program. After a lone page (an
// idle destage) the next stripe finishes that die's pair first and then takes whole pairs, so it
// ends at a die: no die is left with its planes programming apart.
TEST(WriteBuffer, AStripeAfterALonePageEndsAtADie) {
  config::DriveConfig cfg = test::shipped("small_gc");
  cfg.flash.planes_per_die = 2;
  cfg.ftl.allocation = config::Allocation::PlaneFirst;
  ASSERT_EQ(cfg.flash.dies(), 4u);
  FakeHal hal(cfg.flash);
  fw::PageFtl ftl(cfg, hal);
  ASSERT_EQ(ftl.die_set_pages(), 2u);
  // A stripe as the firmware sizes it: a program on every die.
  fw::WriteBuffer buffer(64, 4096, 4 * 2, 1, cfg.logical_units(), false, hal, ftl);
  buffer.write(0, PageToken{0, 1}, sc_core::SC_ZERO_TIME, fw::kNoOp);
  ASSERT_TRUE(buffer.destage_stripe());  // the lone page: die 0, plane 0
  EXPECT_EQ(ftl.pages_on_die(), 1u);
  for (fw::Lpn lpn = 1; lpn <= 12; ++lpn)
    buffer.write(lpn, PageToken{lpn, 1}, sc_core::SC_ZERO_TIME, fw::kNoOp);
  ASSERT_TRUE(buffer.destage_stripe());
  // Die 0's second page, the pairs of dies 1 to 3 and die 0's next pair: the stripe's 8 pages,
  // reached within die 0's pair, end with it.
  EXPECT_EQ(buffer.stats().destaged, 1u + 9);
  EXPECT_EQ(ftl.pages_on_die(), 2u) << "the stripe ended at a die";
  const auto& ops = hal.ops();
  ASSERT_EQ(ops.size(), 10u);
  for (std::size_t i = 0; i < ops.size(); i += 2) {
    EXPECT_EQ(ops[i].ppa.die, i / 2 % 4);
    EXPECT_EQ(ops[i].ppa.die, ops[i + 1].ppa.die);
    EXPECT_EQ(ops[i].ppa.page, ops[i + 1].ppa.page) << "a pair at one offset";
    EXPECT_NE(ops[i].ppa.block / cfg.flash.blocks_per_plane,
              ops[i + 1].ppa.block / cfg.flash.blocks_per_plane);
  }
}

TEST(WriteBuffer, DriveWriteCompletesWhenItsDataIsInDram) {
  auto c = test::shipped("small_gc");
  c.dram.write_buffer_mb = 1;
  const auto rep =
      run(c, {test::request(0, IoOp::Write, 0, 4096), test::request(100, IoOp::Read, 0, 4096)});
  // Link, per-command and per-page firmware, then the page's burst into DRAM: no table
  // access, no flash.
  const double burst = 4096 / c.dram.burst_mb_per_s;
  const double link = 4096 / c.host.link_mb_per_s;
  EXPECT_NEAR(rep["latency_us"]["write"]["max"].get<double>(),
              link + c.controller.t_fw_per_cmd_us + c.controller.t_fw_per_page_us + burst,
              kPsTolUs);
  // The read 100 us later hits the buffer: firmware, a burst out of DRAM, the link.
  EXPECT_NEAR(rep["latency_us"]["read"]["max"].get<double>(),
              c.controller.t_fw_per_cmd_us + c.controller.t_fw_per_page_us + burst + link,
              kPsTolUs);
  EXPECT_EQ(rep["write_buffer"]["read_hits"].get<uint64_t>(), 1u);
  EXPECT_EQ(rep["flash_ops"]["read"].get<uint64_t>(), 0u);
  // Destaged once the drive idled, before the run ended, and counted.
  EXPECT_EQ(rep["flash_ops"]["program"].get<uint64_t>(), 1u);
  EXPECT_EQ(rep["write_buffer"]["destaged"].get<uint64_t>(), 1u);
  EXPECT_EQ(rep["write_buffer"]["dirty_at_end"].get<uint64_t>(), 0u);
  EXPECT_GT(rep["energy_span_s"].get<double>(),
            (c.dram.write_buffer_idle_us + c.flash.t_prog_us) * 1e-6);
}

// A flush completes when the buffered writes before it are on flash; a FUA write completes
// only once its own page is programmed, while a plain write completes in DRAM.
TEST(WriteBuffer, FlushAndForceUnitAccess) {
  auto c = test::shipped("small_gc");
  c.dram.write_buffer_mb = 1;
  c.dram.write_buffer_idle_us = 1e6;  // no idle destage within the test
  tb::HostRequest fua = test::request(2000, IoOp::Write, 65536, 4096);
  fua.fua = true;
  const auto rep =
      run(c, {test::request(0, IoOp::Write, 0, 4096), test::request(0, IoOp::Write, 4096, 4096),
              test::request(10, IoOp::Flush, 0, 0), fua});
  const auto& lat = rep["latency_us"];
  const auto& ctl = c.controller;
  // The flush waits for both buffered pages' programs, whose commands leave one issue apart.
  EXPECT_GT(lat["flush"]["max"].get<double>(), c.flash.t_prog_us + 2 * ctl.t_cmd_issue_us);
  // The FUA write's data crosses the link, then its page is issued and programmed.
  EXPECT_GT(lat["write"]["max"].get<double>(),
            4096 / c.host.link_mb_per_s + ctl.t_cmd_issue_us + c.flash.t_prog_us);
  EXPECT_LT(lat["write"]["p50"].get<double>(), c.flash.t_prog_us / 5) << "plain writes: DRAM";
  EXPECT_EQ(rep["requests"]["flush"].get<uint64_t>(), 1u);
  EXPECT_EQ(rep["requests"]["fua_write"].get<uint64_t>(), 1u);
  EXPECT_EQ(rep["write_buffer"]["destaged"].get<uint64_t>(), 3u);

  // Without a buffer there is nothing to destage: the flush costs the command's firmware.
  c.dram.write_buffer_mb = 0;
  const auto off = run(c, {test::request(0, IoOp::Flush, 0, 0)});
  EXPECT_NEAR(off["latency_us"]["flush"]["max"].get<double>(), ctl.t_fw_per_cmd_us, kPsTolUs);
}

// Two flushes in flight side by side both wait for the destages on their way (once, a flash
// command served one host command only, and the second flush stopped the run): each completes
// after the buffered pages' programs.
TEST(WriteBuffer, FlushesSideBySideWaitForTheSameDestages) {
  auto c = test::shipped("small_gc");
  c.dram.write_buffer_mb = 1;
  c.dram.write_buffer_idle_us = 1e6;
  // A page written every 10 us, a flush after every second one: each flush finds the programs of
  // the flush before it still on their way.
  std::vector<tb::HostRequest> reqs;
  for (uint64_t i = 0; i < 8; ++i) {
    reqs.push_back(test::request(10.0 * double(i), IoOp::Write, i * 4096, 4096));
    if (i % 2 == 1) reqs.push_back(test::request(10.0 * double(i) + 1, IoOp::Flush, 0, 0));
  }
  const auto rep = run(c, reqs);
  EXPECT_EQ(rep["requests"]["flush"].get<uint64_t>(), 4u);
  EXPECT_EQ(rep["write_buffer"]["destaged"].get<uint64_t>(), 8u);
  EXPECT_GT(rep["latency_us"]["flush"]["p50"].get<double>(), c.flash.t_prog_us);
}

TEST(WriteBuffer, ScoreboardHoldsForEveryFtl) {
  for (const char* type : {"page", "dftl", "block", "bast", "bast_star", "fast", "last"}) {
    SCOPED_TRACE(type);
    auto cfg = test::shipped("small_gc");
    cfg.ftl.type = test::choice<config::FtlType>(type);
    cfg.dram.write_buffer_mb = 1;  // 256 pages of 6144 logical
    const uint64_t pages = cfg.logical_pages();
    const auto check = [](const tb::RunResult& r) {
      EXPECT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
      const auto& wb = r.report["write_buffer"];
      EXPECT_GT(wb["pages_written"].get<uint64_t>(), 0u);
      EXPECT_EQ(wb["dirty_at_end"].get<uint64_t>(), 0u);
      EXPECT_GT(wb["full_stalls"].get<uint64_t>(), 0u) << "the buffer filled";
      EXPECT_GT(r.report["scoreboard"]["pages_checked"].get<uint64_t>(), 0u);
    };
    // Random and sequential overwrites of 3x the capacity.
    for (const std::string& spec :
         {"rw=randrw,mix=0.25,bs=4k,qd=16,seed=11,count=" + std::to_string(pages * 4),
          "rw=rw,mix=0.2,bs=64k,qd=4,count=" +
              std::to_string(cfg.logical_bytes() * 3 / 65536 * 5 / 4)}) {
      SCOPED_TRACE(spec);
      auto src = tb::make_workload(spec, cfg.logical_bytes());
      check(tb::run_simulation(cfg, *src, tb::RunOptions{}));
    }
    // Mixed reads, writes and trims of 4-16 KiB on a hot range, 20 us apart (the queue fills).
    tb::VectorSource src(test::hot_mix(pages, 29, 1024));
    check(tb::run_simulation(cfg, src, tb::RunOptions{}));
  }
}

}  // namespace
}  // namespace ssd
