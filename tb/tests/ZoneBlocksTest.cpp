// The flash side of a zoned namespace (firmware/zns/ZoneBlocks.h) on the fake HAL, whose NAND
// rules (erase before program, pages in order) hold the writes to account. Drive: 2 dies (one
// a channel), 2 planes x 8 blocks x 6 pages of 8 KiB, 4 KiB units (2 a page).
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <stdexcept>
#include <vector>

#include "firmware/zns/ZoneBlocks.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/ZoneTestDrive.h"

namespace ssd::fw::zns {
namespace {

using config::ZoneConfig;
using config::ZoneStripe;
using test::FakeHal;
using test::zone_test_flash;
using OpKind = FakeHal::OpKind;

constexpr uint32_t kUnit = 4096;

PageToken tok(uint64_t unit) { return PageToken{unit, unit + 100}; }

bool at(const FakeHal::FlashOp& op, OpKind kind, uint32_t die, uint32_t block, uint32_t page) {
  return op.kind == kind && op.ppa.die == die && op.ppa.block == block && op.ppa.page == page;
}

// A zone over both dies: lanes die 0 plane 0, die 1 plane 0, die 0 plane 1 (blocks 8-15), die 1
// plane 1; 4 lanes x 6 pages x 2 units = 48 units.
struct ZoneBlocksAllDies : ::testing::Test {
  config::FlashConfig f = zone_test_flash();
  ZoneMapping mapping{ZoneConfig{}, f, kUnit};
  FakeHal hal{f, 2};
  ZoneBlocks zones{mapping, f, hal, 8};

  void write(uint32_t zone, uint64_t from, uint64_t to) {
    for (uint64_t u = from; u < to; ++u) zones.write(zone, u, tok(u), kNoOp);
  }
};

TEST_F(ZoneBlocksAllDies, UnitsGatherAPageThenProgramOnTheLanesInTurn) {
  EXPECT_EQ(zones.write(0, 0, tok(0), kNoOp), kNoOp);
  EXPECT_EQ(hal.total_programs(), 0u);
  PageToken out;
  const ZoneBlocks::Read buffered = zones.read(0, 0, out);  // from the buffer: no flash read
  EXPECT_TRUE(buffered.written);
  EXPECT_EQ(buffered.op, kNoOp);
  EXPECT_EQ(out, tok(0));
  EXPECT_EQ(hal.total_reads(), 0u);

  EXPECT_NE(zones.write(0, 1, tok(1), kNoOp), kNoOp);
  write(0, 2, 10);
  ASSERT_EQ(hal.ops().size(), 5u);
  EXPECT_TRUE(at(hal.ops()[0], OpKind::kProgram, 0, 0, 0));
  EXPECT_TRUE(at(hal.ops()[1], OpKind::kProgram, 1, 0, 0));
  EXPECT_TRUE(at(hal.ops()[2], OpKind::kProgram, 0, 8, 0));
  EXPECT_TRUE(at(hal.ops()[3], OpKind::kProgram, 1, 8, 0));
  EXPECT_TRUE(at(hal.ops()[4], OpKind::kProgram, 0, 0, 1));  // the first lane's next page
  EXPECT_EQ(hal.token(Ppa{0, 0, 0}, 1), tok(1));
  EXPECT_EQ(hal.token(Ppa{0, 0, 1}, 0), tok(8));

  // Unit 5: page 2 of the zone, on lane 2 (die 0, plane 1), its second unit.
  const ZoneBlocks::Read flash_read = zones.read(0, 5, out);
  EXPECT_TRUE(flash_read.written);
  EXPECT_TRUE(at(hal.ops().back(), OpKind::kRead, 0, 8, 0));
  EXPECT_EQ(hal.ops().back().unit, 1u);
  EXPECT_EQ(out, tok(5));
  EXPECT_FALSE(zones.read(0, 10, out).written);  // at the write pointer
  EXPECT_EQ(out, PageToken{});
  EXPECT_EQ(zones.stats().units_written, 10u);
  EXPECT_EQ(zones.stats().pages_programmed, 5u);
}

TEST_F(ZoneBlocksAllDies, AResetErasesTheZonesBlocksAndZonesTakeTheLeastErased) {
  write(0, 0, 48);  // full: every page of its four blocks, in order
  EXPECT_EQ(hal.total_programs(), 24u);
  EXPECT_EQ(hal.programs(0), 12u);
  EXPECT_EQ(hal.programs(1), 12u);
  write(1, 0, 2);
  EXPECT_EQ(zones.block(1, 0), 1u);  // block 0 is zone 0's
  EXPECT_EQ(zones.block(1, 2), 9u);

  const size_t before = hal.ops().size();
  EXPECT_EQ(zones.reset(0).size(), 4u);
  EXPECT_TRUE(at(hal.ops()[before], OpKind::kErase, 0, 0, 0));
  EXPECT_TRUE(at(hal.ops()[before + 3], OpKind::kErase, 1, 8, 0));
  EXPECT_EQ(zones.erase_count(0, 0), 1u);
  EXPECT_EQ(zones.block(0, 0), ZoneBlocks::kNoBlock);
  EXPECT_EQ(zones.written_units(0), 0u);
  EXPECT_EQ(zones.reset(1).size(), 4u);
  EXPECT_TRUE(zones.reset(2).empty());  // never written: no blocks, nothing to erase

  write(2, 0, 2);  // blocks 0 and 1 were erased once; 2 never
  EXPECT_EQ(zones.block(2, 0), 2u);
  EXPECT_EQ(zones.block(2, 3), 10u);
  write(0, 0, 48);  // zone 0 again, on blocks 3 and 11: the reset made room, pages in order
  EXPECT_EQ(zones.block(0, 1), 3u);
  EXPECT_EQ(zones.stats().blocks_erased, 8u);
  EXPECT_TRUE(hal.violations().empty());
}

TEST_F(ZoneBlocksAllDies, FinishingPadsTheOpenPageOnce) {
  write(0, 0, 3);
  const std::vector<OpId> programs = zones.finish(0);
  ASSERT_EQ(programs.size(), 1u);
  EXPECT_TRUE(at(hal.ops().back(), OpKind::kProgram, 1, 0, 0));
  EXPECT_EQ(hal.token(Ppa{1, 0, 0}, 0), tok(2));
  EXPECT_EQ(hal.token(Ppa{1, 0, 0}, 1), PageToken{});
  EXPECT_EQ(zones.stats().units_padded, 1u);
  EXPECT_EQ(zones.programmed_units(0), 4u);
  PageToken out;
  EXPECT_FALSE(zones.read(0, 3, out).written);
  EXPECT_TRUE(zones.finish(0).empty());
  EXPECT_THROW(zones.write(0, 3, tok(3), kNoOp), std::logic_error);
  EXPECT_THROW(zones.write(1, 1, tok(1), kNoOp), std::logic_error);  // not at the pointer
  EXPECT_TRUE(zones.finish(1).empty());                              // empty: no blocks
}

TEST(ZoneBlocks, EachUnitOfAGatheringPageReadsFromItsSlot) {
  config::FlashConfig f = zone_test_flash();
  f.page_bytes = 16384;  // 4 units a page
  const ZoneMapping mapping(ZoneConfig{}, f, kUnit);
  FakeHal hal(f, 4);
  ZoneBlocks zones(mapping, f, hal, 1);
  for (uint64_t u = 0; u < 3; ++u) zones.write(0, u, tok(u), kNoOp);
  PageToken out;
  for (uint64_t u = 0; u < 3; ++u) {
    EXPECT_TRUE(zones.read(0, u, out).written);
    EXPECT_EQ(out, tok(u));
  }
  EXPECT_EQ(hal.total_programs(), 0u);
}

TEST(ZoneBlocks, FinishingPadsAOneShotWordLineWhole) {
  config::FlashConfig f = zone_test_flash();
  f.cell_type = config::CellType::Tlc;
  f.program_unit = config::ProgramUnit::WordLine;
  const ZoneMapping mapping(ZoneConfig{}, f, kUnit);
  FakeHal hal(f, 2);
  ZoneBlocks zones(mapping, f, hal, 1);
  zones.write(0, 0, tok(0), kNoOp);
  EXPECT_EQ(zones.finish(0).size(), 3u);  // pages 0-2 of lane 0: the word line
  EXPECT_TRUE(at(hal.ops()[2], OpKind::kProgram, 0, 0, 2));
  EXPECT_EQ(zones.stats().units_padded, 5u);
  EXPECT_EQ(zones.programmed_units(0), 6u);
}

TEST(ZoneBlocks, OneDieZonesKeepTheSparesOutAndFitTheFlash) {
  const config::FlashConfig f = zone_test_flash();
  ZoneConfig z;
  z.stripe = ZoneStripe::OneDie;
  z.spare_blocks_per_plane = 2;
  const ZoneMapping mapping(z, f, kUnit);
  ASSERT_EQ(mapping.max_zones(), 12u);  // 2 dies x 6 blocks a plane
  FakeHal hal(f, 2);
  ZoneBlocks zones(mapping, f, hal, 12);
  std::set<uint32_t> taken[2];
  for (uint32_t zone = 0; zone < 12; ++zone) {
    zones.write(zone, 0, tok(0), kNoOp);
    EXPECT_EQ(mapping.lane(zone, 0).die, zone % 2);
    taken[zone % 2].insert(zones.block(zone, 0));
    taken[zone % 2].insert(zones.block(zone, 1));
  }
  const std::set<uint32_t> all = {0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13};  // not 6, 7, 14, 15
  EXPECT_EQ(taken[0], all);
  EXPECT_EQ(taken[1], all);
  EXPECT_THROW(ZoneBlocks(mapping, f, hal, 13), std::invalid_argument);
  EXPECT_THROW(ZoneBlocks(mapping, f, hal, 0), std::invalid_argument);
}

}  // namespace
}  // namespace ssd::fw::zns
