// Background GC (ftl.background_gc): idle gaps let it reclaim blocks, so bursts of writes
// meet fewer foreground GC runs; it stops for host commands and loses no data.
#include <gtest/gtest.h>

#include <vector>

#include "common/Errors.h"
#include "firmware/ftl/PageFtl.h"
#include "tb/run/Simulation.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"

namespace ssd {
namespace {

// The whole space written in order, then bursts of random writes (and a few reads), each
// burst arriving at once, `gap_ms` apart.
std::vector<tb::HostRequest> bursts(uint64_t logical, double gap_ms) {
  std::vector<tb::HostRequest> out;
  for (uint64_t l = 0; l < logical; ++l)
    out.push_back(test::request(0, tb::IoOp::Write, l * 4096, 4096));
  uint64_t x = 5;
  for (int b = 1; b <= 30; ++b) {
    const double at = 20e6 + b * gap_ms * 1000;  // after the fill is done
    for (int i = 0; i < 300; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const uint64_t lpn = (x >> 33) % logical;
      out.push_back(
          test::request(at, i % 10 == 0 ? tb::IoOp::Read : tb::IoOp::Write, lpn * 4096, 4096));
    }
  }
  return out;
}

nlohmann::ordered_json run(bool background,
                           config::NandIdlePolicy idle = config::NandIdlePolicy::AlwaysOn) {
  config::DriveConfig cfg = test::shipped("small_gc");
  cfg.ftl.background_gc = background;
  cfg.flash.idle_policy = idle;
  cfg.ftl.bg_gc_idle_us = 500;
  cfg = config::parse_drive_config(config::to_json(cfg), "test");
  tb::VectorSource src(bursts(cfg.logical_pages(), 400), true);
  const auto r = tb::run_simulation(cfg, src, tb::RunOptions{});
  EXPECT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
  return r.report;
}

TEST(GcBackground, IdleGapsReclaimBlocksAndSpareForegroundGc) {
  const auto off = run(false), on = run(true);
  EXPECT_EQ(off["gc"]["background_victims"].get<uint64_t>(), 0u);
  EXPECT_GT(on["gc"]["background_victims"].get<uint64_t>(), 0u);
  EXPECT_LT(on["gc"]["runs"].get<uint64_t>(), off["gc"]["runs"].get<uint64_t>() / 2)
      << "off " << off["gc"].dump() << " on " << on["gc"].dump();
  // Its work costs like any other GC's: energy under "gc", controller active time.
  EXPECT_GT(on["energy_by_work_j"]["gc"].get<double>(), 0.0);
  EXPECT_GE(on["gc"]["victims"].get<uint64_t>(),
            on["gc"]["background_victims"].get<uint64_t>() + on["gc"]["runs"].get<uint64_t>());
  EXPECT_EQ(on["requests"]["count"], off["requests"]["count"]);
}

// Dies powered off in idle periods come back on for background GC's flash work.
TEST(GcBackground, WorksWithDiesPoweredOffWhenIdle) {
  const auto r = run(true, config::NandIdlePolicy::OffWhenIdle);
  EXPECT_GT(r["gc"]["background_victims"].get<uint64_t>(), 0u);
  double erase_j = 0;
  for (const auto& [name, states] : r["energy_j"].items())
    if (states.contains("erase")) erase_j += states["erase"].get<double>();
  EXPECT_GT(erase_j, 0.0);
  EXPECT_GT(r["energy_by_work_j"]["gc"].get<double>(), 0.0);
}

TEST(GcBackground, OffKeepsRunsIdenticalToNoIdleTimer) {
  // background_gc off: the idle settings change nothing.
  config::DriveConfig a = test::shipped("small_gc"), b = a;
  b.ftl.bg_gc_idle_us = 1;
  for (auto* c : {&a, &b}) *c = config::parse_drive_config(config::to_json(*c), "test");
  tb::VectorSource sa(bursts(a.logical_pages(), 50), true), sb(bursts(b.logical_pages(), 50), true);
  tb::RunOptions o;
  o.reproducible = true;
  EXPECT_EQ(tb::run_simulation(a, sa, o).report.dump(), tb::run_simulation(b, sb, o).report.dump());
}

// One victim per step, up to 2 x gc_threshold_blocks free blocks per die, as GC work.
TEST(GcBackground, StepsReclaimUpToTwiceTheThreshold) {
  config::DriveConfig cfg = test::shipped("small_gc");
  cfg.ftl.background_gc = true;
  cfg = config::parse_drive_config(config::to_json(cfg), "test");
  test::FakeHal hal(cfg.flash);
  fw::PageFtl ftl(cfg, hal);
  const uint64_t logical = cfg.logical_pages();
  uint64_t x = 9, v = 0;
  for (uint64_t i = 0; i < 2 * logical; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const fw::Lpn l = (x >> 33) % logical;
    ftl.write(l, fw::PageToken{l, ++v}, fw::kNoOp);
  }
  const uint32_t target = 2 * cfg.ftl.gc_threshold_blocks;
  const auto before = ftl.stats();
  uint64_t steps = 0;
  while (ftl.background_step()) ++steps;
  const auto& st = ftl.stats();
  EXPECT_GT(steps, 0u);
  EXPECT_EQ(st.gc_background_blocks - before.gc_background_blocks, steps);
  EXPECT_EQ(st.gc_blocks_reclaimed - before.gc_blocks_reclaimed, steps);
  EXPECT_EQ(st.gc_runs, before.gc_runs) << "foreground runs unchanged";
  for (uint32_t d = 0; d < cfg.flash.dies(); ++d) EXPECT_GE(ftl.blocks().free_blocks(d), target);
  EXPECT_FALSE(ftl.background_step()) << "nothing left: no cost either";
  EXPECT_EQ(ftl.stats().gc_candidates_examined, st.gc_candidates_examined);
  // Off: no background work at all.
  cfg.ftl.background_gc = false;
  fw::PageFtl off(cfg, hal);
  EXPECT_FALSE(off.background_step());
}

TEST(GcBackground, PolicyKeysAreRejectedForFtlsWithoutPageLevelGc) {
  for (const char* key : {"gc_policy", "background_gc", "wear_leveling"}) {
    nlohmann::json doc = config::to_json(test::shipped("small_gc"));
    doc["ftl"]["type"] = "bast";
    if (std::string(key) == "gc_policy") doc["ftl"][key] = "random";
    if (std::string(key) == "background_gc") doc["ftl"][key] = true;
    if (std::string(key) == "wear_leveling") doc["ftl"][key] = "static";
    try {
      config::parse_drive_config(doc, "t.json");
      ADD_FAILURE() << key << " accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("ftl.") + key), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace ssd
