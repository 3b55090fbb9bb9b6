// Garbage collection that serves the host (ftl.gc_mode incremental, docs/ftl.md#gc-modes):
// below the soft watermark each page placed on a die moves a bounded share of its victim;
// below the hard watermark the host page waits for the erase that brings the die back.
#include <gtest/gtest.h>

#include <cmath>

#include "common/Errors.h"
#include "firmware/ftl/PageFtl.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

using test::FakeHal;

// small_gc (4 dies of 64 blocks of 32 pages, 16 spare blocks a die, hard watermark 4) with
// incremental collection from 8 free blocks on.
config::DriveConfig incremental(uint32_t copies_per_write) {
  config::DriveConfig cfg = test::shipped("small_gc");
  cfg.ftl.gc_mode = config::GcMode::Incremental;
  cfg.ftl.gc_soft_blocks = 8;
  cfg.ftl.gc_copies_per_write = copies_per_write;
  return config::parse_drive_config(config::to_json(cfg), "test");
}

// What one host write made the FTL do.
struct Step {
  uint32_t die;          // where its page went (channel_first: page k on die k mod 4)
  uint32_t free_before;  // that die's free blocks when the write came
  uint64_t copies, erases;
  uint64_t hard_hits;
};

class Rig {
 public:
  explicit Rig(const config::DriveConfig& cfg) : cfg_(cfg), hal_(cfg.flash), ftl_(cfg, hal_) {}
  // Writes logical page `l` (a new version) and says what it cost.
  Step write(fw::Lpn l) {
    const uint32_t die = uint32_t(writes_++ % cfg_.flash.dies());
    const fw::FtlStats before = ftl_.stats();
    const uint64_t erases = hal_.total_erases();
    Step s{die, ftl_.blocks().free_blocks(die), 0, 0, 0};
    ftl_.write(l, fw::PageToken{l, ++version_}, fw::kNoOp);
    s.copies = ftl_.stats().gc_pages_copied - before.gc_pages_copied;
    s.erases = hal_.total_erases() - erases;
    s.hard_hits = ftl_.stats().gc_hard_hits - before.gc_hard_hits;
    return s;
  }
  // A random overwrite of the logical space.
  Step random() {
    x_ = x_ * 6364136223846793005ull + 1442695040888963407ull;
    return write((x_ >> 33) % cfg_.logical_pages());
  }
  FakeHal& hal() { return hal_; }
  fw::PageFtl& ftl() { return ftl_; }

 private:
  config::DriveConfig cfg_;
  FakeHal hal_;
  fw::PageFtl ftl_;
  uint64_t writes_ = 0, version_ = 0, x_ = 17;
};

TEST(GcIncremental, BelowTheSoftWatermarkEachPageMovesExactlyItsBound) {
  const config::DriveConfig cfg = incremental(3);
  Rig rig(cfg);
  for (uint64_t l = 0; l < cfg.logical_pages(); ++l) rig.write(l);
  uint64_t bounded = 0, finishing = 0, above = 0;
  for (int i = 0; i < 20000; ++i) {
    const Step s = rig.random();
    ASSERT_EQ(s.hard_hits, 0u) << "three copies a page keep up on this drive";
    if (s.free_before >= 8) {
      EXPECT_EQ(s.copies, 0u);
      EXPECT_EQ(s.erases, 0u);
      ++above;
    } else if (s.erases == 0) {
      EXPECT_EQ(s.copies, 3u) << "write " << i;
      ++bounded;
    } else {
      // The victim's last valid pages: fewer than the bound, then its erase.
      EXPECT_LE(s.copies, 3u);
      EXPECT_EQ(s.erases, 1u);
      ++finishing;
    }
  }
  EXPECT_GT(bounded, 1000u);
  EXPECT_GT(finishing, 100u);
  EXPECT_GT(above, 0u);
  EXPECT_EQ(rig.ftl().stats().gc_runs, 0u) << "no foreground collection";
  EXPECT_EQ(rig.ftl().stats().gc_incremental_steps, bounded + finishing);
  // GC's commands ranked as background work: none was urgent.
  for (const auto& op : rig.hal().ops()) EXPECT_FALSE(op.urgent);
}

// gc_copies_per_write 0: a victim of v valid pages (of 32) is paid for by ceil(v / (32 - v))
// copies per page placed, the rate at which the host fills the room its invalid pages free.
TEST(GcIncremental, WithoutABoundTheVictimsOwnRatePaysForIt) {
  const config::DriveConfig cfg = incremental(0);
  Rig rig(cfg);
  for (uint64_t l = 0; l < cfg.logical_pages(); ++l) rig.write(l);
  // Overwrite until the next page's die is below the soft watermark, then look at the
  // victim greedy will choose there before the write chooses it.
  for (int i = 0;; ++i) {
    ASSERT_LT(i, 100000);
    const uint32_t die = uint32_t((cfg.logical_pages() + uint64_t(i)) % cfg.flash.dies());
    if (rig.ftl().blocks().free_blocks(die) < 8) {
      uint32_t victim = 0;
      ASSERT_TRUE(rig.ftl().blocks().greedy_victim(die, victim));
      const uint32_t v = rig.ftl().blocks().valid_pages(die, victim);
      ASSERT_GT(v, 0u);
      ASSERT_LT(v, 32u);
      const uint64_t rate = (v + (32 - v) - 1) / (32 - v);
      const Step s = rig.write(cfg.logical_pages() - 1);  // not a page of the victim's die
      EXPECT_EQ(s.die, die);
      EXPECT_EQ(s.copies, std::min<uint64_t>(rate, v)) << "v = " << v;
      EXPECT_EQ(s.erases, v <= rate ? 1u : 0u);
      return;
    }
    rig.random();
  }
}

// One copy a page cannot keep up: dies fall to the hard watermark, where collection runs at
// once and urgently, and the host page waits for the erase that brings its die back to it.
TEST(GcIncremental, TheHardWatermarkStallsTheHostPageAndReleasesIt) {
  const config::DriveConfig cfg = incremental(1);
  Rig rig(cfg);
  for (uint64_t l = 0; l < cfg.logical_pages(); ++l) rig.write(l);
  for (int i = 0; i < 20000; ++i) {
    const std::size_t first = rig.hal().ops().size();
    const Step s = rig.random();
    if (s.hard_hits == 0) continue;
    EXPECT_LT(s.free_before, cfg.ftl.gc_threshold_blocks);
    EXPECT_GE(rig.ftl().blocks().free_blocks(s.die), cfg.ftl.gc_threshold_blocks);
    const auto& ops = rig.hal().ops();
    // The collection's commands, urgent; then the host page's program, not urgent, which
    // may not start before the last erase has ended.
    ASSERT_GE(ops.size(), first + 2);
    const auto& host = ops.back();
    ASSERT_EQ(host.kind, FakeHal::OpKind::kProgram);
    EXPECT_FALSE(host.urgent);
    sc_core::sc_time erase_end;
    for (std::size_t k = first; k + 1 < ops.size(); ++k) {
      EXPECT_TRUE(ops[k].urgent) << "command " << k - first << " of the collection";
      if (ops[k].kind == FakeHal::OpKind::kErase) erase_end = ops[k].done;
    }
    EXPECT_GT(erase_end, sc_core::SC_ZERO_TIME);
    EXPECT_EQ(host.data_ready, erase_end);
    // Released: the die's next host page waits for nothing (it is above the hard watermark).
    Step next{};
    do {
      next = rig.random();
    } while (next.die != s.die);
    EXPECT_EQ(next.hard_hits, 0u);
    EXPECT_EQ(rig.hal().ops().back().kind, FakeHal::OpKind::kProgram);
    EXPECT_EQ(rig.hal().ops().back().data_ready, sc_core::SC_ZERO_TIME);
    return;
  }
  FAIL() << "no write met the hard watermark";
}

TEST(GcIncremental, ConfigKeysAreChecked) {
  const auto rejects = [](auto edit, const std::string& key) {
    config::DriveConfig cfg = test::shipped("small_gc");
    edit(cfg);
    try {
      config::parse_drive_config(config::to_json(cfg), "test");
      ADD_FAILURE() << key << " accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  };
  rejects(
      [](config::DriveConfig& c) {
        c.ftl.gc_mode = config::GcMode::Incremental;
        c.ftl.gc_soft_blocks = c.ftl.gc_threshold_blocks;
      },
      "ftl.gc_soft_blocks");
  rejects(
      [](config::DriveConfig& c) {
        c.ftl.gc_mode = config::GcMode::Incremental;
        c.ftl.gc_soft_blocks = 15;  // 16 spare blocks a die, 2 of them open
      },
      "ftl.overprovisioning");
  rejects(
      [](config::DriveConfig& c) {
        c.ftl.type = config::FtlType::Bast;
        c.ftl.gc_mode = config::GcMode::Incremental;
      },
      "ftl.gc_mode");
}

}  // namespace
}  // namespace ssd
