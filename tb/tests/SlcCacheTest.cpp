// The SLC cache of a TLC drive: exact SLC-mode latencies at the drive's interface, the cache
// filling and spilling to the main region, folding when idle and when full, preconditioning,
// the scoreboard with the cache on, and the configuration rules.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tb/run/Simulation.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"
#include "tb/workload/WorkloadGenerator.h"

namespace ssd {
namespace {

using tb::IoOp;

constexpr double kPsTolUs = 1e-6;

// small_gc as a TLC drive: 4 dies of 64 blocks of 30 TLC pages (10 in SLC mode), with an SLC
// cache of 4 blocks per die (40 host pages per die, 160 in all).
config::DriveConfig tlc_drive(uint32_t slc_blocks) {
  auto c = test::shipped("small_gc");
  c.flash.cell_type = config::CellType::Tlc;
  c.flash.pages_per_block = 30;
  c.flash.t_read_slc_us = 25;
  c.flash.t_prog_slc_us = 150;
  c.ftl.slc_cache_blocks_per_plane = slc_blocks;
  return c;
}

tb::RunResult run(const config::DriveConfig& cfg, std::vector<tb::HostRequest> reqs,
                  const tb::RunOptions& opts = {}) {
  tb::VectorSource src(std::move(reqs));
  tb::RunResult r = tb::run_simulation(cfg, src, opts);
  EXPECT_TRUE(r.data_intact);
  return r;
}

// `n` one-page writes to pages 0..n-1, 10 us apart (the drive never idles for 1 ms), then a
// read of each of them after `read_after_us`.
std::vector<tb::HostRequest> writes_then_reads(uint64_t n, double read_after_us) {
  std::vector<tb::HostRequest> reqs;
  for (uint64_t i = 0; i < n; ++i)
    reqs.push_back(test::request(10.0 * double(i), IoOp::Write, i * 4096, 4096));
  for (uint64_t i = 0; i < n; ++i)
    reqs.push_back(test::request(read_after_us + 10.0 * double(i), IoOp::Read, i * 4096, 4096));
  return reqs;
}

// The same write and read on the same drive with and without the cache differ by exactly the
// difference of the array times: everything else on the path is the same.
TEST(SlcCache, AWriteAndItsReadTakeTheSlcModeArrayTimes) {
  const auto reqs = [] {
    return std::vector<tb::HostRequest>{test::request(0, IoOp::Write, 0, 4096),
                                        test::request(5000, IoOp::Read, 0, 4096)};
  };
  const auto with = run(tlc_drive(4), reqs()).report;
  const auto without = run(tlc_drive(0), reqs()).report;
  const auto& c = tlc_drive(4).flash;
  const auto mean = [](const nlohmann::ordered_json& r, const char* op) {
    return r["latency_us"][op]["mean"].get<double>();
  };
  EXPECT_NEAR(mean(without, "write") - mean(with, "write"), c.t_prog_us - c.t_prog_slc_us,
              kPsTolUs);
  EXPECT_NEAR(mean(without, "read") - mean(with, "read"), c.t_read_us - c.t_read_slc_us, kPsTolUs);
  EXPECT_EQ(with["slc_cache"]["host_pages"].get<uint64_t>(), 1u);
  EXPECT_EQ(with["slc_cache"]["blocks"].get<uint64_t>(), 16u);
  EXPECT_EQ(with["slc_cache"]["capacity_bytes"].get<uint64_t>(), 160u * 4096);
  EXPECT_EQ(without["slc_cache"]["host_pages"].get<uint64_t>(), 0u);
  // One page: the cache never filled, and no time passed between host pages.
  EXPECT_TRUE(with["slc_cache"]["full_at_s"].is_null());
  EXPECT_TRUE(with["slc_cache"]["bytes_before_full"].is_null());
  EXPECT_TRUE(with["slc_cache"]["write_mbps_before_full"].is_null());
  EXPECT_TRUE(with["slc_cache"]["write_mbps_after_full"].is_null());
  EXPECT_FALSE(without["slc_cache"].contains("full_at_s")) << "no cache, no such figure";
}

// 200 pages against a 160-page cache that never idles: 160 land in it, 40 in the main region.
// Once the drive idles, every full SLC block is folded (its 10 pages copied, the block
// erased); the reads 200 ms later find every page where folding put it.
TEST(SlcCache, AFullCacheSpillsToTheMainRegionAndIdleTimeFoldsIt) {
  const auto r = run(tlc_drive(4), writes_then_reads(200, 200'000)).report;
  const auto& slc = r["slc_cache"];
  EXPECT_EQ(slc["host_pages"].get<uint64_t>(), 160u);
  EXPECT_EQ(slc["foreground_folds"].get<uint64_t>(), 0u);
  EXPECT_EQ(slc["blocks_folded"].get<uint64_t>(), 16u);
  EXPECT_EQ(slc["pages_folded"].get<uint64_t>(), 160u);
  EXPECT_EQ(r["flash_ops"]["program"].get<uint64_t>(), 200u + 160u);
  EXPECT_EQ(r["flash_ops"]["erase"].get<uint64_t>(), 16u);
  EXPECT_EQ(r["scoreboard"]["pages_checked"].get<uint64_t>(), 200u);
  EXPECT_GT(r["energy_by_work_j"]["slc_fold"].get<double>(), 0.0);
  // The 161st page, arriving at 1600 us, found the cache full (on its die): placed no earlier.
  // The pages arrive every 10 us, faster than the dies program (150 us in SLC mode, 500 us
  // after), so the drive placed them more slowly than they came, and more slowly once full.
  EXPECT_EQ(slc["bytes_before_full"].get<uint64_t>(), 160u * 4096);
  EXPECT_GE(slc["full_at_s"].get<double>(), 1600e-6);
  const double before = slc["write_mbps_before_full"].get<double>();
  EXPECT_LT(before, 409.6);
  EXPECT_GT(before, slc["write_mbps_after_full"].get<double>());
}

// Idle folding keeps every die busy: after 160 writes the four dies fold their caches (4 SLC
// blocks of 10 pages each, copied by 500 us TLC programs) once the drive has idled, each
// die stepping again as its own step ends. (Paced by die 0's steps, a die whose step ended
// just after it idled a step in two: the dies were 69-70 % busy and the fold took 50.4 ms
// against 36.5.)
TEST(SlcCache, IdleFoldingKeepsEveryDieBusy) {
  std::vector<tb::HostRequest> reqs;
  for (uint64_t i = 0; i < 160; ++i)
    reqs.push_back(test::request(10.0 * double(i), IoOp::Write, i * 4096, 4096));
  const auto r = run(tlc_drive(4), reqs).report;
  EXPECT_EQ(r["slc_cache"]["pages_folded"].get<uint64_t>(), 160u);
  const auto& tail = r["utilisation"]["tail"];
  ASSERT_EQ(tail["dies"].size(), 4u);
  // The tail also holds the idle time before the fold starts.
  for (const auto& die : tail["dies"]) EXPECT_GT(die["busy"].get<double>(), 0.95) << die.dump();
  EXPECT_LT(tail["span_s"].get<double>(), 0.037);
}

// Closed loop, the drive writes as fast as it can: in SLC mode (150 us programs) until the
// cache is full, then in TLC mode (500 us), slower.
TEST(SlcCache, WritesFasterUntilTheCacheIsFull) {
  auto src = tb::make_workload("rw=write,bs=4k,qd=8,count=400", tlc_drive(4).logical_bytes());
  const tb::RunResult r = tb::run_simulation(tlc_drive(4), *src, {});
  ASSERT_TRUE(r.data_intact);
  const auto& slc = r.report["slc_cache"];
  EXPECT_EQ(slc["bytes_before_full"].get<uint64_t>(), 160u * 4096);
  EXPECT_GT(slc["write_mbps_before_full"].get<double>(),
            1.5 * slc["write_mbps_after_full"].get<double>());
}

// With slc_fold on_full a die whose cache is full folds its oldest SLC block before the next
// host page, so every host page is written in SLC mode: 50 pages per die against 40 cost one
// foreground fold per die.
TEST(SlcCache, OnFullFoldsInTheForegroundAndKeepsTakingHostPages) {
  auto cfg = tlc_drive(4);
  cfg.ftl.slc_fold = config::SlcFold::OnFull;
  const auto r = run(cfg, writes_then_reads(200, 200'000)).report;
  const auto& slc = r["slc_cache"];
  EXPECT_EQ(slc["host_pages"].get<uint64_t>(), 200u);
  EXPECT_EQ(slc["foreground_folds"].get<uint64_t>(), 4u);
  EXPECT_EQ(r["scoreboard"]["pages_checked"].get<uint64_t>(), 200u);
}

// Preconditioning ends with the cache folded, so the measured run starts with it empty.
TEST(SlcCache, PreconditioningLeavesTheCacheEmpty) {
  for (const char* type : {"page", "dftl"}) {
    SCOPED_TRACE(type);
    auto cfg = tlc_drive(4);
    cfg.ftl.type = test::choice<config::FtlType>(type);
    tb::RunOptions opts;
    opts.precondition = true;
    const auto r = run(cfg, writes_then_reads(160, 100'000), opts).report;
    EXPECT_EQ(r["slc_cache"]["host_pages"].get<uint64_t>(), 160u);
    EXPECT_EQ(r["scoreboard"]["mismatches"].get<uint64_t>(), 0u);
  }
}

TEST(SlcCache, ScoreboardHoldsWithTheCacheAndTheWriteBuffer) {
  for (const char* type : {"page", "dftl"}) {
    for (const char* fold : {"idle", "on_full"}) {
      SCOPED_TRACE(std::string(type) + " " + fold);
      auto cfg = tlc_drive(4);
      cfg.ftl.type = test::choice<config::FtlType>(type);
      cfg.ftl.slc_fold = test::choice<config::SlcFold>(fold);
      cfg.ftl.slc_fold_idle_us = 50;
      cfg.dram.write_buffer_mb = 1;
      const uint64_t pages = cfg.logical_pages();
      const auto check = [](const tb::RunResult& r) {
        EXPECT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
        EXPECT_GT(r.report["slc_cache"]["host_pages"].get<uint64_t>(), 0u);
        EXPECT_GT(r.report["slc_cache"]["blocks_folded"].get<uint64_t>(), 0u);
        EXPECT_GT(r.report["scoreboard"]["pages_checked"].get<uint64_t>(), 0u);
      };
      // Random overwrites of 3x the capacity, back to back.
      auto src = tb::make_workload(
          "rw=randrw,mix=0.25,bs=4k,qd=8,seed=5,count=" + std::to_string(pages * 4),
          cfg.logical_bytes());
      check(tb::run_simulation(cfg, *src, tb::RunOptions{}));
      // Mixed reads, writes and trims of 4-16 KiB on a hot range, in bursts of 40 requests
      // 20 us apart with 2 ms between bursts (folding runs in the gaps).
      tb::VectorSource mixed(test::hot_mix(pages, 31, 512, 40, 2000));
      check(tb::run_simulation(cfg, mixed, tb::RunOptions{}));
    }
  }
}

}  // namespace
}  // namespace ssd
