// Static wear levelling (ftl.wear_leveling = static) under a skewed workload, and the
// firmware's per-block erase counts checked against the NAND dies' own.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "firmware/ftl/PageFtl.h"
#include "ip/Scoreboard.h"
#include "model/Ssd.h"
#include "model/power/EnergyMonitor.h"
#include "tb/host/Host.h"
#include "tb/run/Simulation.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"

namespace ssd {
namespace {

config::DriveConfig drive(const std::string& wl, uint32_t threshold) {
  config::DriveConfig c = test::shipped("small_gc");
  c.ftl.wear_leveling = test::choice<config::WearLeveling>(wl);
  c.ftl.wl_threshold_erases = threshold;
  return config::parse_drive_config(config::to_json(c), "test");
}

// The whole space written once (cold data), then `hot_writes` writes to its first 5 %.
std::vector<fw::Lpn> skewed(uint64_t logical, uint64_t hot_writes) {
  std::vector<fw::Lpn> out;
  for (fw::Lpn l = 0; l < logical; ++l) out.push_back(l);
  uint64_t x = 11;
  for (uint64_t i = 0; i < hot_writes; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    out.push_back((x >> 33) % (logical / 20));
  }
  return out;
}

struct Spread {
  uint32_t max_die_spread = 0;
  fw::FtlStats stats;
};

Spread run_skewed(const config::DriveConfig& cfg) {
  test::FakeHal hal(cfg.flash);
  fw::PageFtl ftl(cfg, hal);
  uint64_t v = 0;
  for (fw::Lpn l : skewed(cfg.logical_pages(), 20 * cfg.logical_pages()))
    ftl.write(l, fw::PageToken{l, ++v}, fw::kNoOp);
  Spread s;
  for (uint32_t d = 0; d < cfg.flash.dies(); ++d)
    s.max_die_spread =
        std::max(s.max_die_spread, ftl.blocks().max_erases(d) - ftl.blocks().min_erases(d));
  s.stats = ftl.stats();
  // Nothing lost on the way.
  for (fw::Lpn l = 0; l < cfg.logical_pages(); l += 97) {
    fw::PageToken t;
    ftl.read(l, t);
    EXPECT_EQ(t.lpn, l);
    EXPECT_GT(t.version, 0u);
  }
  return s;
}

TEST(WearLevel, StaticBoundsTheEraseSpreadUnderASkewedWorkload) {
  constexpr uint32_t kThreshold = 8;
  const Spread off = run_skewed(drive("none", kThreshold));
  const Spread on = run_skewed(drive("static", kThreshold));
  EXPECT_GT(off.max_die_spread, 4 * kThreshold) << "cold blocks never erased without WL";
  EXPECT_EQ(off.stats.wl_blocks_moved, 0u);
  // A move happens once the spread exceeds the threshold, after a GC run: the spread can
  // pass it by the erases of one GC run at most.
  EXPECT_LE(on.max_die_spread, kThreshold + 2);
  EXPECT_GT(on.stats.wl_blocks_moved, 0u);
  EXPECT_GT(on.stats.wl_pages_copied, 0u);
  EXPECT_EQ(on.stats.blocks_erased, on.stats.gc_blocks_reclaimed + on.stats.wl_blocks_moved);
}

TEST(WearLevel, EnergyOfMovesIsWearLevellingWork) {
  auto cfg = drive("static", 4);
  std::vector<tb::HostRequest> reqs;
  for (fw::Lpn l : skewed(cfg.logical_pages(), 8 * cfg.logical_pages()))
    reqs.push_back(test::request(0, tb::IoOp::Write, l * 4096, 4096));
  tb::VectorSource src(std::move(reqs), false, 8);
  const auto r = tb::run_simulation(cfg, src, tb::RunOptions{});
  EXPECT_TRUE(r.data_intact);
  EXPECT_GT(r.report["wear_leveling"]["moves"].get<uint64_t>(), 0u);
  EXPECT_GT(r.report["energy_by_work_j"]["wear_leveling"].get<double>(), 0.0);
  EXPECT_EQ(r.report["wear_leveling"]["mode"], "static");
}

// The firmware's erase counts (BlockManager) equal the NAND dies' block by block.
TEST(WearLevel, FirmwareEraseCountsMatchTheNandDies) {
  tb::reset_kernel();
  const auto cfg = drive("static", 4);
  model::EnergyMonitor monitor(model::EnergyMonitor::Options{});
  model::Ssd ssd("ssd", cfg, monitor);
  std::vector<tb::HostRequest> reqs;
  for (fw::Lpn l : skewed(cfg.logical_pages(), 6 * cfg.logical_pages()))
    reqs.push_back(test::request(0, tb::IoOp::Write, l * 4096, 4096));
  tb::VectorSource src(std::move(reqs), false, 8);
  ip::Scoreboard scoreboard;
  tb::Host host("host", src, {cfg.host.queue_depth}, scoreboard, cfg.flash.page_bytes,
                cfg.namespace_layout(), false);
  host.socket.bind(ssd.host_socket());
  sc_core::sc_start();
  const auto& ftl = dynamic_cast<const fw::PageFtl&>(ssd.controller().firmware().ftl());
  uint64_t total = 0;
  for (uint32_t d = 0; d < cfg.flash.dies(); ++d) {
    const auto& die = ssd.channel(d % cfg.flash.channels).die(d / cfg.flash.channels);
    for (uint32_t b = 0; b < cfg.flash.blocks_per_die(); ++b) {
      ASSERT_EQ(ftl.blocks().erase_count(d, b), die.erase_count(b))
          << "die " << d << " block " << b;
      total += die.erase_count(b);
    }
  }
  EXPECT_EQ(total, ssd.controller().flash_counters().erases);
  const auto s = *ftl.erase_summary();
  EXPECT_NEAR(s.mean, double(total) / (cfg.flash.dies() * cfg.flash.blocks_per_die()), 1e-9);
  EXPECT_LE(s.min, s.max);
}

}  // namespace
}  // namespace ssd
