// Page allocation orders (ftl.allocation, docs/ftl.md#allocation): the exact placement of each
// order on FakeHal, the plane-aware free-block choice and the config rules.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "firmware/BlockManager.h"
#include "firmware/ftl/Dftl.h"
#include "firmware/ftl/PageFtl.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

using fw::Ppa;
using test::FakeHal;

config::DriveConfig validated(const config::DriveConfig& c) {
  return config::parse_drive_config(config::to_json(c), "test config");
}

// small_gc as 2 dies (one per channel) x 2 planes x 32 blocks of 4 pages: plane 0 holds
// blocks 0-31, plane 1 blocks 32-63. Spare blocks floor(64 x 0.25) = 16 >= 4 + 2 + 1.
config::DriveConfig two_by_two(const std::string& allocation) {
  config::DriveConfig c = test::shipped("small_gc");
  c.flash.channels = 2;
  c.flash.ways_per_channel = 1;
  c.flash.planes_per_die = 2;
  c.flash.blocks_per_plane = 32;
  c.flash.pages_per_block = 4;
  c.ftl.allocation = allocation;
  return validated(c);
}

// The (die, block, page) of the first `n` host pages written through a page FTL.
std::vector<Ppa> placements(const config::DriveConfig& cfg, uint32_t n) {
  FakeHal hal(cfg.flash);
  fw::PageFtl ftl(cfg, hal);
  for (uint32_t i = 0; i < n; ++i) ftl.write(i, fw::PageToken{i, 1}, fw::kNoOp);
  std::vector<Ppa> out;
  for (const auto& op : hal.ops()) out.push_back(op.ppa);
  return out;
}

std::string show(const std::vector<Ppa>& v) {
  std::string s;
  for (const Ppa& p : v)
    s += "(" + std::to_string(p.die) + "," + std::to_string(p.block) + "," +
         std::to_string(p.page) + ")";
  return s;
}

// 20 pages: 5 page offsets of 4 pages, so every order crosses into its second blocks.
TEST(Allocation, ChannelFirstFillsOneBlockPerDie) {
  // Page i to die i mod 2, the die's one open block (the oldest free: block 0, then 1).
  const std::vector<Ppa> want = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {1, 0, 1}, {0, 0, 2},
                                 {1, 0, 2}, {0, 0, 3}, {1, 0, 3}, {0, 1, 0}, {1, 1, 0},
                                 {0, 1, 1}, {1, 1, 1}, {0, 1, 2}, {1, 1, 2}, {0, 1, 3},
                                 {1, 1, 3}, {0, 2, 0}, {1, 2, 0}, {0, 2, 1}, {1, 2, 1}};
  EXPECT_EQ(show(placements(two_by_two("channel_first"), 20)), show(want));
}

TEST(Allocation, PlaneFirstFillsTheDiesPlanesAtOnePageOffset) {
  // Page i to die (i / 2) mod 2, plane i mod 2, page offset i / 4.
  const std::vector<Ppa> want = {{0, 0, 0},  {0, 32, 0}, {1, 0, 0},  {1, 32, 0}, {0, 0, 1},
                                 {0, 32, 1}, {1, 0, 1},  {1, 32, 1}, {0, 0, 2},  {0, 32, 2},
                                 {1, 0, 2},  {1, 32, 2}, {0, 0, 3},  {0, 32, 3}, {1, 0, 3},
                                 {1, 32, 3}, {0, 1, 0},  {0, 33, 0}, {1, 1, 0},  {1, 33, 0}};
  EXPECT_EQ(show(placements(two_by_two("plane_first"), 20)), show(want));
}

TEST(Allocation, DieFirstVisitsTheDiesThenTheirPlanes) {
  // Page i to die i mod 2, plane (i / 2) mod 2, page offset i / 4.
  const std::vector<Ppa> want = {{0, 0, 0},  {1, 0, 0},  {0, 32, 0}, {1, 32, 0}, {0, 0, 1},
                                 {1, 0, 1},  {0, 32, 1}, {1, 32, 1}, {0, 0, 2},  {1, 0, 2},
                                 {0, 32, 2}, {1, 32, 2}, {0, 0, 3},  {1, 0, 3},  {0, 32, 3},
                                 {1, 32, 3}, {0, 1, 0},  {1, 1, 0},  {0, 33, 0}, {1, 33, 0}};
  EXPECT_EQ(show(placements(two_by_two("die_first"), 20)), show(want));
}

TEST(Allocation, DftlHostPagesFollowTheOrderToo) {
  // DFTL shares PageLevelFtl's placement; its first writes evict nothing (empty cache), so
  // the host pages are the only programs.
  config::DriveConfig c = two_by_two("plane_first");
  c.ftl.type = "dftl";
  c = validated(c);
  FakeHal hal(c.flash);
  fw::Dftl ftl(c, hal);
  for (uint32_t i = 0; i < 4; ++i) ftl.write(i, fw::PageToken{i, 1}, fw::kNoOp);
  std::vector<Ppa> got;
  for (const auto& op : hal.ops())
    if (op.kind == FakeHal::OpKind::kProgram) got.push_back(op.ppa);
  EXPECT_EQ(show(got), show({{0, 0, 0}, {0, 32, 0}, {1, 0, 0}, {1, 32, 0}}));
}

TEST(Allocation, PlaneBlocksComeFromThePlaneWhileItHasAny) {
  // One die, 2 planes of 2 blocks: plane 0 = {0, 1}, plane 1 = {2, 3}.
  fw::BlockManager bm(1, 4, 2, 2);
  EXPECT_EQ(bm.open_block(0, false, 1), 2u);
  EXPECT_EQ(bm.open_block(0, false, 1), 3u);
  EXPECT_EQ(bm.open_block(0, false, 1), 0u) << "plane 1 is empty: the oldest free block";
  EXPECT_EQ(bm.open_block(0, false, 0), 1u);
  // most_worn among the plane's blocks. Pool 0 1 2 3; each release goes to the back.
  fw::BlockManager worn(1, 4, 2, 2);
  for (uint32_t want : {2u, 3u, 2u}) {
    EXPECT_EQ(worn.open_block(0, false, 1), want);
    worn.release_block(0, want);
  }
  // Pool 0 1 3 2, block 2 erased twice, 3 once: the oldest of plane 1 is 3, the most worn 2.
  EXPECT_EQ(worn.open_block(0, true, 1), 2u);
  EXPECT_EQ(worn.open_block(0, true, 0), 0u) << "plane 0: a tie, the oldest";
}

std::string error_of(const config::DriveConfig& c) {
  try {
    validated(c);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(Allocation, ConfigRules) {
  config::DriveConfig c = test::shipped("small_gc");
  c.ftl.allocation = "plane_major";
  EXPECT_EQ(error_of(c),
            "test config: ftl.allocation: unknown allocation order \"plane_major\" (known: "
            "channel_first, plane_first, die_first)");
  c.ftl.allocation = "die_first";
  c.ftl.type = "bast";
  EXPECT_EQ(error_of(c),
            "test config: ftl.allocation: only the page and dftl FTLs choose an allocation order");
  // 4 planes x 16 blocks = 64 blocks per die, floor(64 x 0.125) = 8 spare: enough for
  // channel_first (4 + 2), one short of plane_first's 4 + 4 host blocks + 1 GC block.
  c.ftl.type = "page";
  c.flash.planes_per_die = 4;
  c.flash.blocks_per_plane = 16;
  c.ftl.overprovisioning = 0.125;
  c.ftl.allocation = "channel_first";
  EXPECT_EQ(error_of(c), "(accepted)");
  c.ftl.allocation = "plane_first";
  EXPECT_EQ(error_of(c),
            "test config: ftl.overprovisioning: 0.125 leaves 8 spare blocks per die (floor(64 x "
            "0.125)); garbage collection needs at least gc_threshold_blocks + 5 = 9 "
            "(ftl.allocation plane_first keeps a host block open on each of the 4 planes)");
  c.ftl.type = "dftl";
  c.ftl.overprovisioning = 0.14;  // floor(8.96) = 8 again
  EXPECT_EQ(error_of(c),
            "test config: ftl.overprovisioning: 0.14 leaves 8 spare blocks per die (floor(64 x "
            "0.14)); garbage collection needs at least gc_threshold_blocks + 6 = 10 "
            "(ftl.allocation plane_first keeps a host block open on each of the 4 planes; dftl "
            "keeps a translation block open too)");
}

}  // namespace
}  // namespace ssd
