// The dynamic SLC cache (ftl.slc_dynamic, docs/ftl.md#slc-cache): free native blocks written
// in SLC mode while the curve allows at the die's free space. The curve's limit; the cache's
// size following it on the firmware as the die fills and folds; the mode reaching the die (SLC
// array times on blocks outside any static region); the scoreboard with mapping units at QD 32
// and 256; the configuration rules.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <tuple>
#include <vector>

#include "config/DriveConfig.h"
#include "firmware/ftl/DynamicSlc.h"
#include "firmware/ftl/PageFtl.h"
#include "tb/run/Simulation.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"
#include "tb/workload/WorkloadGenerator.h"

namespace ssd {
namespace {

using config::SlcDynamicPoint;
using tb::IoOp;

// None at 20 % free, a tenth of the native blocks from half free on, linear between.
std::vector<SlcDynamicPoint> curve() { return {{0.2, 0.0}, {0.5, 0.1}, {1.0, 0.1}}; }

TEST(SlcDynamic, TheLimitFollowsTheCurve) {
  const fw::DynamicSlc d(curve(), 1, 200);
  EXPECT_EQ(d.limit(200), 20u);  // all free: the last point's 0.1
  EXPECT_EQ(d.limit(100), 20u);  // the middle point
  EXPECT_EQ(d.limit(70), 10u);   // 0.35 free: half way between the first two points
  EXPECT_EQ(d.limit(61), 7u);    // 0.305: 0.035 x 200 = 7
  EXPECT_EQ(d.limit(40), 0u);    // the first point
  EXPECT_EQ(d.limit(0), 0u);     // below it: the first point's share
  const fw::DynamicSlc none({}, 1, 200);
  EXPECT_FALSE(none.enabled());
  EXPECT_EQ(none.room(0, 200, 4), 0u);
}

TEST(SlcDynamic, RoomIsTheLimitLessWhatIsHeldAndKeepsGcsBlocks) {
  fw::DynamicSlc d({{0.0, 0.0}, {1.0, 0.5}}, 2, 200);
  EXPECT_EQ(d.room(0, 200, 4), 100u);
  EXPECT_EQ(d.room(0, 6, 4), 2u) << "limit 3 (6 free: 0.03 x 0.5 x 200), 2 above GC's 4";
  EXPECT_EQ(d.room(0, 4, 4), 0u);
  // A block taken is still counted as free space: the limit does not move.
  for (int i = 0; i < 30; ++i) d.took(0);
  EXPECT_EQ(d.room(0, 170, 4), 70u);
  EXPECT_EQ(d.room(1, 170, 4), 85u) << "the other die holds none";
  EXPECT_EQ(d.blocks(), 30u);
  d.gave_back(0);
  EXPECT_EQ(d.held(0), 29u);
  EXPECT_EQ(d.most_blocks(), 30u);
  EXPECT_EQ(d.least_blocks(), 0u);
  EXPECT_THROW(d.gave_back(1), std::logic_error);
}

// One TLC die of 64 blocks of 30 pages (10 in SLC mode), no static cache.
config::DriveConfig one_tlc_die() {
  config::DriveConfig c = test::shipped("small_gc");
  c.flash.channels = 1;
  c.flash.ways_per_channel = 1;
  c.flash.cell_type = config::CellType::Tlc;
  c.flash.pages_per_block = 30;
  c.flash.t_read_slc_us = 25;
  c.flash.t_prog_slc_us = 150;
  c.ftl.slc_dynamic = curve();
  return config::parse_drive_config(config::to_json(c), "test");
}

// On the firmware alone: the cache takes free blocks up to the curve's limit at the die's free
// space, keeps them while native writes fill the die, gives them back when folded, and takes
// again only what the curve allows at the fuller die.
TEST(SlcDynamic, TheCacheSizeFollowsTheCurveAsFreeBlocksChange) {
  const config::DriveConfig cfg = one_tlc_die();
  test::FakeHal hal(cfg.flash);
  fw::PageFtl ftl(cfg, hal);
  const fw::DynamicSlc ref(curve(), 1, 64);
  const auto& slc = ftl.dynamic_slc();
  fw::Lpn next = 0;
  const auto write = [&](uint64_t n) {
    for (uint64_t i = 0; i < n; ++i, ++next) ftl.write(next, fw::PageToken{next, 1}, fw::kNoOp);
  };
  // Empty: 64 free blocks, a limit of 6 blocks (60 pages); the 61st page goes native.
  write(61);
  EXPECT_EQ(slc.held(0), 6u);
  EXPECT_EQ(ftl.stats().slc_host_pages, 60u);
  // 1,139 more native pages: 38 native blocks in use, 20 free: the limit at 26 of 64 free or
  // held is 4, below what the cache holds; it keeps its blocks until they are folded.
  write(1139);
  EXPECT_EQ(ftl.blocks().free_blocks(0), 20u);
  EXPECT_EQ(ref.limit(20 + 6), 4u);
  EXPECT_EQ(slc.held(0), 6u);
  EXPECT_EQ(ftl.stats().slc_host_pages, 60u);
  // Folded: its 60 pages fill 2 native blocks, its 6 blocks are free again: 24 free, a limit
  // of 3 (0.375 free: 0.0583 x 64 = 3.7).
  ftl.settle();
  EXPECT_EQ(slc.held(0), 0u);
  EXPECT_EQ(ftl.blocks().free_blocks(0), 24u);
  EXPECT_EQ(ref.limit(24), 3u);
  write(31);
  EXPECT_EQ(slc.held(0), 3u);
  EXPECT_EQ(ftl.stats().slc_host_pages, 90u);
  EXPECT_EQ(slc.most_blocks(), 3u) << "the range starts again after a settle";
  EXPECT_EQ(slc.least_blocks(), 0u);
  // The blocks holding data in SLC mode are the cache's 3, 10 pages each.
  uint32_t slc_with_data = 0;
  for (uint32_t b = 0; b < 64; ++b) {
    if (!ftl.blocks().modes().slc(0, b) || ftl.blocks().valid_pages(0, b) == 0) continue;
    ++slc_with_data;
    EXPECT_EQ(ftl.blocks().valid_pages(0, b), 10u) << b;
  }
  EXPECT_EQ(slc_with_data, 3u);
  EXPECT_TRUE(hal.violations().empty());
}

// One TLC die's firmware alone, each write the next version of its lpn: the cache's 6 blocks
// filled (lpns 0-59) and one native page (60).
struct FilledCache {
  explicit FilledCache(const config::DriveConfig& c)
      : cfg(c), hal(cfg.flash), ftl(cfg, hal), version(cfg.logical_units(), 0) {
    for (fw::Lpn lpn = 0; lpn < 61; ++lpn) write(lpn);
  }
  void write(fw::Lpn lpn) { ftl.write(lpn, fw::PageToken{lpn, ++version[lpn]}, fw::kNoOp); }
  // Every lpn below `n` reads back its last version; no NAND rule was broken.
  void reads_back(uint64_t n) {
    for (fw::Lpn lpn = 0; lpn < n; ++lpn) {
      fw::PageToken out{};
      const bool mapped = ftl.read(lpn, out).mapped;
      if (!mapped || !(out == fw::PageToken{lpn, version[lpn]})) {
        ADD_FAILURE() << "lpn " << lpn << " read back wrong";
        return;
      }
    }
    EXPECT_TRUE(hal.violations().empty());
  }
  config::DriveConfig cfg;
  test::FakeHal hal;
  fw::PageFtl ftl;
  std::vector<uint64_t> version;
};

// A filling die takes its blocks back: GC folds the cache's full blocks before it takes a native
// victim (a block in SLC mode holds a third of its native data, so a full die's GC that left
// them alone only moved data around), and the fuller die's curve takes none again.
TEST(SlcDynamic, GcFoldsTheCacheBeforeNativeVictims) {
  FilledCache d(one_tlc_die());
  const auto& slc = d.ftl.dynamic_slc();
  const auto& stats = d.ftl.stats();
  ASSERT_EQ(slc.held(0), 6u);
  // Native overwrites of 500 pages: their blocks are reclaimable when GC first runs (below 4
  // free blocks), but two folds of the cache's 10-page blocks are what it takes.
  for (uint64_t i = 0; stats.gc_runs == 0; ++i) d.write(61 + i % 500);
  EXPECT_EQ(stats.gc_blocks_reclaimed, 0u);
  EXPECT_EQ(stats.slc_blocks_folded, 2u);
  EXPECT_EQ(slc.held(0), 4u);
  EXPECT_EQ(stats.slc_host_pages, 60u);
  // Filled, then overwritten three times at random: the die keeps its blocks in native mode.
  const uint64_t logical = d.cfg.logical_units();
  for (fw::Lpn lpn = 0; lpn < logical; ++lpn) d.write(lpn);
  uint64_t x = 1;
  for (uint64_t i = 0; i < 3 * logical; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    d.write((x >> 33) % logical);
  }
  EXPECT_EQ(slc.held(0), 0u);
  EXPECT_EQ(stats.slc_blocks_folded, 6u);
  EXPECT_EQ(stats.slc_host_pages, 60u);
  EXPECT_GT(stats.gc_blocks_reclaimed, 0u);
  d.reads_back(logical);
}

// Incremental GC likewise: its victim below gc_soft_blocks is the cache's oldest full block,
// folded a step per host page, before any native victim.
TEST(SlcDynamic, IncrementalGcFoldsTheCacheFirst) {
  config::DriveConfig c = one_tlc_die();
  c.ftl.gc_mode = config::GcMode::Incremental;
  FilledCache d(config::parse_drive_config(config::to_json(c), "test"));
  const auto& slc = d.ftl.dynamic_slc();
  const auto& stats = d.ftl.stats();
  ASSERT_EQ(slc.held(0), 6u);
  // Native overwrites of 500 pages until collection first steps: it folds, copies no native page.
  uint64_t i = 0;
  for (; stats.gc_incremental_steps == 0; ++i) d.write(61 + i % 500);
  EXPECT_GT(stats.slc_pages_folded, 0u);
  EXPECT_EQ(stats.gc_pages_copied, 0u);
  // On until the cache is empty: every block folded, none by the hard watermark's collection,
  // and only then native victims.
  for (; slc.held(0) != 0; ++i) {
    ASSERT_LT(i, 20000u) << "the cache never emptied";
    d.write(61 + i % 500);
  }
  EXPECT_EQ(stats.slc_blocks_folded, 6u);
  EXPECT_EQ(stats.slc_pages_folded, 60u);
  EXPECT_EQ(stats.gc_runs, 0u) << "the hard watermark was never reached";
  for (uint64_t n = 0; n < 3000; ++n, ++i) d.write(61 + i % 500);
  EXPECT_GT(stats.gc_blocks_reclaimed, 0u);
  EXPECT_EQ(slc.held(0), 0u);
  d.reads_back(561);
}

tb::RunResult run(const config::DriveConfig& cfg, std::vector<tb::HostRequest> reqs) {
  tb::VectorSource src(std::move(reqs));
  tb::RunResult r = tb::run_simulation(cfg, src, tb::RunOptions{});
  EXPECT_TRUE(r.data_intact);
  return r;
}

// A block the firmware opens in SLC mode outside any static region: the controller's command
// carries the mode to the die, whose array times are then the SLC ones (and a mismatch would be
// a NAND rule violation, ending the run).
TEST(SlcDynamic, ABlocksModeTravelsToTheDie) {
  const auto reqs = [] {
    return std::vector<tb::HostRequest>{test::request(0, IoOp::Write, 0, 4096),
                                        test::request(5000, IoOp::Read, 0, 4096)};
  };
  const config::DriveConfig with = one_tlc_die();
  config::DriveConfig without = with;
  without.ftl.slc_dynamic.clear();
  const auto a = run(with, reqs()).report;
  const auto b = run(without, reqs()).report;
  const auto mean = [](const nlohmann::ordered_json& r, const char* op) {
    return r["latency_us"][op]["mean"].get<double>();
  };
  EXPECT_NEAR(mean(b, "write") - mean(a, "write"), with.flash.t_prog_us - 150, 1e-6);
  EXPECT_NEAR(mean(b, "read") - mean(a, "read"), with.flash.t_read_us - 25, 1e-6);
  EXPECT_EQ(a["slc_cache"]["host_pages"].get<uint64_t>(), 1u);
  // The report: the one block the cache took, and nothing new without a curve.
  EXPECT_EQ(a["slc_cache"]["dynamic_blocks"]["end"].get<uint64_t>(), 1u);
  EXPECT_EQ(a["slc_cache"]["dynamic_blocks"]["min"].get<uint64_t>(), 0u);
  EXPECT_EQ(a["slc_cache"]["size_blocks"]["max"].get<uint64_t>(), 1u);
  EXPECT_FALSE(b["slc_cache"].contains("dynamic_blocks"));
}

// 16 KiB TLC pages of 4 KiB units on the 4-die drive, a static cache beside the dynamic one:
// random 4 KiB writes and reads over twice the capacity, then a hot mix with idle gaps (folding
// in them), at queue depths 32 and 256, and with incremental GC.
TEST(SlcDynamic, ScoreboardHoldsWithUnitsAtQd32And256) {
  const std::vector<std::tuple<const char*, int, const char*>> runs = {
      {"idle", 32, "foreground"},
      {"idle", 256, "foreground"},
      {"on_full", 32, "foreground"},
      {"on_full", 256, "foreground"},
      {"idle", 32, "incremental"}};
  for (const auto& [fold, qd, gc_mode] : runs) {
    SCOPED_TRACE(std::string(fold) + " qd " + std::to_string(qd) + " " + gc_mode);
    config::DriveConfig c = test::shipped("small_gc");
    c.flash.cell_type = config::CellType::Tlc;
    c.flash.page_bytes = 16384;
    c.flash.pages_per_block = 30;
    c.ftl.mapping_unit_bytes = 4096;
    c.ftl.slc_cache_blocks_per_plane = 1;
    c.ftl.slc_dynamic = curve();
    c.ftl.slc_fold = test::choice<config::SlcFold>(fold);
    c.ftl.gc_mode = test::choice<config::GcMode>(gc_mode);
    c.ftl.slc_fold_idle_us = 50;
    test::set_queue_depth(c, uint32_t(qd));
    const config::DriveConfig cfg = config::parse_drive_config(config::to_json(c), "test");
    const uint64_t units = cfg.logical_units();
    const auto check = [](const tb::RunResult& r) {
      EXPECT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
      EXPECT_EQ(r.report["scoreboard"]["mismatches"].get<uint64_t>(), 0u);
      EXPECT_GT(r.report["scoreboard"]["pages_checked"].get<uint64_t>(), 0u);
      EXPECT_GT(r.report["slc_cache"]["blocks_folded"].get<uint64_t>(), 0u);
      EXPECT_GT(r.report["slc_cache"]["dynamic_blocks"]["max"].get<uint64_t>(), 0u);
    };
    auto src = tb::make_workload("rw=randrw,mix=0.3,bs=4k,qd=" + std::to_string(qd) +
                                     ",seed=9,count=" + std::to_string(units * 2),
                                 cfg.logical_bytes());
    check(tb::run_simulation(cfg, *src, tb::RunOptions{}));
    tb::VectorSource mixed(test::hot_mix(units / 4, 31, 512, 40, 2000));
    check(tb::run_simulation(cfg, mixed, tb::RunOptions{}));
  }
}

// The curve's rules, each naming its key.
TEST(SlcDynamic, TheCurveIsValidated) {
  const auto error = [](const std::string& json_curve, const char* cell = "tlc") {
    auto j = config::to_json(test::shipped("small_gc"));
    j["flash"]["cell_type"] = cell;
    j["flash"]["pages_per_block"] = 30;
    j["ftl"]["slc_dynamic"] = nlohmann::json::parse(json_curve);
    try {
      config::parse_drive_config(j, "test");
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(
      error(
          R"([{"free_fraction": 0.2, "slc_fraction": 0}, {"free_fraction": 1, "slc_fraction": 0.1}])"),
      "");
  EXPECT_NE(
      error(
          R"([{"free_fraction": 0.5, "slc_fraction": 0}, {"free_fraction": 0.5, "slc_fraction": 0.1}])")
          .find("ftl.slc_dynamic[1].free_fraction"),
      std::string::npos);
  EXPECT_NE(error(R"([{"free_fraction": 0.1, "slc_fraction": 0.2}])")
                .find("ftl.slc_dynamic[0].slc_fraction"),
            std::string::npos);
  EXPECT_NE(error(R"([{"free_fraction": 1.5, "slc_fraction": 0.2}])")
                .find("ftl.slc_dynamic[0].free_fraction"),
            std::string::npos);
  EXPECT_NE(error(R"([{"free_fraction": 1}])").find("ftl.slc_dynamic[0].slc_fraction"),
            std::string::npos);
  EXPECT_NE(error(R"([{"free_fraction": 1, "slc_fraction": 0.1}])", "slc").find("ftl.slc_dynamic"),
            std::string::npos);
}

}  // namespace
}  // namespace ssd
