// A zoned namespace's firmware (firmware/zns/ZonedNamespace.h) on the fake HAL: the state
// machine's verdicts carried to the flash, in 512-byte logical blocks. Drive: 2 dies (one a
// channel), 2 planes x 8 blocks x 6 pages of 8 KiB, 4 KiB units (2 a page, 8 blocks a unit). A
// zone over both dies has 4 lanes x 6 pages x 2 units = 48 units: 384 blocks of capacity in a
// zone of 512 (256 KiB, the power of two above 192 KiB).
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "firmware/zns/ZonedNamespace.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/ZoneTestDrive.h"

namespace ssd::fw::zns {
namespace {

using config::ZoneConfig;
using test::FakeHal;
using test::zone_test_flash;
using OpKind = FakeHal::OpKind;

constexpr uint32_t kLba = 512;
constexpr uint64_t kZone = 512;      // blocks
constexpr uint64_t kCapacity = 384;  // blocks

ZoneConfig at_most_one_open() {
  ZoneConfig z;
  z.max_open = 1;
  return z;
}

struct ZonedNamespaceTest : ::testing::Test {
  config::FlashConfig f = zone_test_flash();
  ZoneMapping mapping{at_most_one_open(), f, 4096};
  FakeHal hal{f, 2};
  ZonedNamespace ns{mapping, f, hal, 4, kLba};

  size_t count(OpKind kind) const {
    size_t n = 0;
    for (const FakeHal::FlashOp& op : hal.ops()) n += op.kind == kind;
    return n;
  }
};

TEST_F(ZonedNamespaceTest, BlocksGatherInTheBufferUntilTheirUnitIsWhole) {
  ASSERT_EQ(ns.zones().limits().zone_size, kZone);
  ASSERT_EQ(ns.zones().limits().zone_capacity, kCapacity);
  ASSERT_EQ(ns.blocks_per_unit(), 8u);
  EXPECT_TRUE(ns.write(0, 4, 1).programs.empty());
  ZonedRead r = ns.read(0, 4);
  ASSERT_EQ(r.units.size(), 1u);
  EXPECT_TRUE(r.units[0].written);
  EXPECT_EQ(r.units[0].op, kNoOp);  // from the buffer
  EXPECT_EQ(r.units[0].data, (PageToken{0, 1}));
  EXPECT_EQ(ns.flash().written_units(0), 0u);

  // Blocks 4-15: unit 0 is whole (the latest write's data), unit 1 too: page 0 of lane 0.
  const ZonedWrite w = ns.write(4, 12, 2);
  ASSERT_TRUE(w.outcome.ok());
  EXPECT_EQ(w.outcome.lba, 4u);
  ASSERT_EQ(w.programs.size(), 1u);
  EXPECT_EQ(hal.token(Ppa{0, 0, 0}, 0), (PageToken{0, 2}));
  EXPECT_EQ(hal.token(Ppa{0, 0, 0}, 1), (PageToken{1, 2}));
  r = ns.read(2, 12);
  ASSERT_EQ(r.units.size(), 2u);
  EXPECT_NE(r.units[1].op, kNoOp);
  EXPECT_EQ(r.units[1].data, (PageToken{1, 2}));
  EXPECT_EQ(count(OpKind::kRead), 2u);
  r = ns.read(16, 8);  // at the write pointer: never written, no flash read
  EXPECT_FALSE(r.units[0].written);
  EXPECT_EQ(r.units[0].data, PageToken{});
  EXPECT_EQ(count(OpKind::kRead), 2u);
  EXPECT_EQ(ns.zones().zone(0).write_pointer, 16u);
}

TEST_F(ZonedNamespaceTest, AppendsGoWhereThePointerIsAndSayWhere) {
  EXPECT_EQ(ns.append(0, 8, 1).outcome.lba, 0u);
  EXPECT_EQ(ns.append(0, 4, 2).outcome.lba, 8u);
  // Zone 1 (the zone before was closed to make room: one open zone at most).
  const ZonedWrite other = ns.append(kZone, 8, 3);
  EXPECT_EQ(other.outcome.lba, kZone);
  EXPECT_EQ(other.outcome.closed, 0u);
  EXPECT_EQ(ns.zones().zone(0).state, ZoneState::Closed);
  EXPECT_EQ(ns.read(kZone, 8).units[0].data, (PageToken{kZone / 8, 3}));
  // Closing cost nothing: zone 0's half unit is still in the buffer.
  EXPECT_EQ(ns.read(8, 4).units[0].data, (PageToken{1, 2}));
  EXPECT_TRUE(hal.ops().empty());
  EXPECT_EQ(ns.append(4, 8, 4).outcome.status, ZoneStatus::InvalidField);  // not a zone's start
  EXPECT_EQ(ns.append(0, 4, 4).outcome.lba, 12u);  // reopened implicitly, zone 1 closed
  EXPECT_EQ(hal.total_programs(), 1u);             // units 0 and 1: page 0 of zone 0
}

TEST_F(ZonedNamespaceTest, RefusedCommandsTouchNothing) {
  ns.write(0, 4, 1);
  EXPECT_EQ(ns.write(8, 8, 2).outcome.status, ZoneStatus::InvalidWrite);
  EXPECT_EQ(ns.write(4, kCapacity, 2).outcome.status, ZoneStatus::BoundaryError);
  EXPECT_EQ(ns.write(4 * kZone, 1, 2).outcome.status, ZoneStatus::LbaOutOfRange);
  EXPECT_EQ(ns.read(kZone - 4, 8).status, ZoneStatus::BoundaryError);
  EXPECT_TRUE(ns.read(kZone - 4, 8).units.empty());
  EXPECT_EQ(ns.manage(4, ZoneAction::Reset).outcome.status, ZoneStatus::InvalidField);
  EXPECT_EQ(ns.read(0, 4).units[0].data, (PageToken{0, 1}));
  EXPECT_EQ(ns.zones().zone(0).write_pointer, 4u);
  EXPECT_TRUE(hal.ops().empty());
}

TEST_F(ZonedNamespaceTest, FinishWritesTheBufferedUnitAndPadsItsPage) {
  ns.write(0, 3, 1);
  EXPECT_TRUE(ns.manage(0, ZoneAction::Close).ops.empty());  // the buffer keeps the blocks
  EXPECT_EQ(ns.read(0, 3).units[0].data, (PageToken{0, 1}));
  const ZonedManage m = ns.manage(0, ZoneAction::Finish);
  ASSERT_TRUE(m.outcome.ok());
  EXPECT_EQ(m.changed, std::vector<uint32_t>{0});
  ASSERT_EQ(m.ops.size(), 1u);
  EXPECT_EQ(hal.token(Ppa{0, 0, 0}, 0), (PageToken{0, 1}));
  EXPECT_EQ(hal.token(Ppa{0, 0, 0}, 1), PageToken{});
  EXPECT_EQ(ns.flash().stats().units_padded, 1u);
  EXPECT_EQ(ns.zones().zone(0).state, ZoneState::Full);
  EXPECT_EQ(ns.zones().zone(0).write_pointer, kCapacity);
  const ZonedRead r = ns.read(0, 16);
  EXPECT_NE(r.units[0].op, kNoOp);
  EXPECT_EQ(r.units[0].data, (PageToken{0, 1}));
  EXPECT_FALSE(r.units[1].written);  // padding reads as never written
  EXPECT_EQ(ns.write(kCapacity, 1, 2).outcome.status, ZoneStatus::Full);
  EXPECT_TRUE(ns.manage(0, ZoneAction::Finish).ops.empty());  // already full
}

TEST_F(ZonedNamespaceTest, AResetErasesTheZoneAndItReadsAsNeverWritten) {
  const ZonedWrite whole = ns.write(0, kCapacity, 1);
  EXPECT_EQ(whole.programs.size(), 24u);
  EXPECT_EQ(ns.zones().zone(0).state, ZoneState::Full);
  EXPECT_EQ(ns.zones().counts().filled, 1u);
  const ZonedManage m = ns.manage(0, ZoneAction::Reset);
  EXPECT_EQ(m.ops.size(), 4u);
  EXPECT_EQ(count(OpKind::kErase), 4u);
  EXPECT_EQ(ns.zones().zone(0).state, ZoneState::Empty);
  const ZonedRead r = ns.read(0, 8);
  EXPECT_FALSE(r.units[0].written);
  EXPECT_EQ(r.units[0].op, kNoOp);
  EXPECT_TRUE(ns.write(0, kCapacity, 2).outcome.ok());  // the NAND's rules hold again
  EXPECT_TRUE(hal.violations().empty());

  // A zone holding only buffered blocks has no blocks: its reset erases nothing, drops them.
  ns.write(kZone, 3, 3);
  EXPECT_TRUE(ns.manage(kZone, ZoneAction::Reset).ops.empty());
  EXPECT_FALSE(ns.read(kZone, 3).units[0].written);
  ns.write(kZone, 8, 4);
  EXPECT_EQ(ns.read(kZone, 8).units[0].data, (PageToken{kZone / 8, 4}));
}

TEST_F(ZonedNamespaceTest, SelectAllActionsDoEachZonesFlashWork) {
  ns.write(0, 3, 1);          // zone 0: a buffered unit
  ns.write(kZone, 16, 2);     // zone 1: page 0 programmed; zone 0 closed
  ns.write(2 * kZone, 8, 3);  // zone 2: half a page; zone 1 closed
  const ZonedManage finish = ns.manage_all(ZoneAction::Finish);
  EXPECT_EQ(finish.changed, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(finish.ops.size(), 2u);  // zone 0's unit and pad, zone 2's pad; zone 1 had none
  EXPECT_EQ(ns.flash().stats().units_padded, 2u);
  const ZonedManage reset = ns.manage_all(ZoneAction::Reset);
  EXPECT_EQ(reset.changed, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(reset.ops.size(), 12u);
  EXPECT_EQ(ns.zones().count(ZoneState::Empty), 4u);
}

TEST_F(ZonedNamespaceTest, AnOfflineZoneRefusesReadsAndLosesItsBuffer) {
  ns.write(0, 3, 1);
  ns.make_read_only(0);
  EXPECT_EQ(ns.read(0, 3).units[0].data, (PageToken{0, 1}));  // read only: still readable
  EXPECT_EQ(ns.write(3, 1, 2).outcome.status, ZoneStatus::ReadOnly);
  EXPECT_TRUE(ns.manage(0, ZoneAction::Offline).outcome.ok());
  EXPECT_EQ(ns.read(0, 3).status, ZoneStatus::Offline);
  EXPECT_EQ(ns.manage(0, ZoneAction::Reset).outcome.status, ZoneStatus::InvalidTransition);
}

TEST(ZonedNamespace, LogicalBlocksMustDivideTheUnitAndZonesFit) {
  const config::FlashConfig f = zone_test_flash();
  const ZoneMapping mapping(ZoneConfig{}, f, 4096);
  FakeHal hal(f, 2);
  EXPECT_THROW(ZonedNamespace(mapping, f, hal, 4, 8192), std::invalid_argument);
  EXPECT_THROW(ZonedNamespace(mapping, f, hal, 4, 1000), std::invalid_argument);
  EXPECT_THROW(ZonedNamespace(mapping, f, hal, mapping.max_zones() + 1, kLba),
               std::invalid_argument);
  const ZonedNamespace ns(mapping, f, hal, mapping.max_zones(), 4096);
  EXPECT_EQ(ns.blocks_per_unit(), 1u);
  EXPECT_EQ(ns.zones().limits().zone_capacity, 48u);
}

}  // namespace
}  // namespace ssd::fw::zns
