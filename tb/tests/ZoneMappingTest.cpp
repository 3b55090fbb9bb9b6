// Where a zoned namespace's zones lie on the flash (firmware/zns/ZoneMapping.h): the lanes of
// each stripe, capacity and size, the interleave of units over lanes (pages and one-shot word
// lines), the zones' share of the lanes, and the config's rules. Every figure worked out by
// hand on an 8-die drive: 4 channels x 2 ways, 2 planes of 64 blocks of 96 pages of 16 KiB,
// 4 KiB units (4 a page).
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/Errors.h"
#include "firmware/zns/ZoneMapping.h"

namespace ssd::fw::zns {
namespace {

using config::ZoneConfig;
using config::ZoneSizeRule;
using config::ZoneStripe;

constexpr uint32_t kUnit = 4096;
constexpr uint64_t kMiB = 1024 * 1024;

config::FlashConfig flash() {
  config::FlashConfig f;
  f.channels = 4;
  f.ways_per_channel = 2;
  f.dies_per_way = 1;
  f.planes_per_die = 2;
  f.blocks_per_plane = 64;
  f.pages_per_block = 96;
  f.page_bytes = 16384;
  return f;
}

config::FlashConfig tlc_one_shot() {
  config::FlashConfig f = flash();
  f.cell_type = config::CellType::Tlc;
  f.program_unit = config::ProgramUnit::WordLine;
  return f;
}

ZoneConfig stripe(ZoneStripe s, uint32_t group_dies = 0, uint32_t planes = 0) {
  ZoneConfig z;
  z.stripe = s;
  z.group_dies = group_dies;
  z.planes = planes;
  return z;
}

std::pair<uint32_t, uint32_t> at(const ZoneLane& l) { return {l.die, l.plane}; }

TEST(ZoneMapping, AllDiesTakesABlockOnEveryPlaneOfEveryDie) {
  const ZoneMapping m(stripe(ZoneStripe::AllDies), flash(), kUnit);
  EXPECT_EQ(m.dies_per_zone(), 8u);
  EXPECT_EQ(m.planes_per_zone(), 2u);
  EXPECT_EQ(m.lanes(), 16u);
  EXPECT_EQ(m.lane_groups(), 1u);
  EXPECT_EQ(m.max_zones(), 64u);                // one a block of each plane
  EXPECT_EQ(m.capacity_units(), 16u * 96 * 4);  // 6144
  EXPECT_EQ(m.capacity_bytes(), 24 * kMiB);
  EXPECT_EQ(m.size_bytes(), 32 * kMiB);  // the next power of two
  // Dies first (a channel each of the first four), then the second plane of each.
  EXPECT_EQ(at(m.lane(0, 0)), std::make_pair(0u, 0u));
  EXPECT_EQ(at(m.lane(0, 7)), std::make_pair(7u, 0u));
  EXPECT_EQ(at(m.lane(0, 8)), std::make_pair(0u, 1u));
  EXPECT_EQ(at(m.lane(63, 15)), std::make_pair(7u, 1u));
  // A page's 4 units, then the next lane; after the 16th lane the next page of the first.
  EXPECT_EQ(m.locate(0), (ZonePlace{0, 0, 0}));
  EXPECT_EQ(m.locate(3), (ZonePlace{0, 0, 3}));
  EXPECT_EQ(m.locate(4), (ZonePlace{1, 0, 0}));
  EXPECT_EQ(m.locate(63), (ZonePlace{15, 0, 3}));
  EXPECT_EQ(m.locate(64), (ZonePlace{0, 1, 0}));
  EXPECT_EQ(m.locate(6143), (ZonePlace{15, 95, 3}));
}

TEST(ZoneMapping, ASizeEqualToTheCapacityLeavesNoGapBetweenZones) {
  ZoneConfig z = stripe(ZoneStripe::AllDies);
  z.size = ZoneSizeRule::Capacity;
  EXPECT_EQ(ZoneMapping(z, flash(), kUnit).size_bytes(), 24 * kMiB);
  // A capacity that is a power of two already keeps it.
  config::FlashConfig f = flash();
  f.pages_per_block = 128;
  EXPECT_EQ(ZoneMapping(stripe(ZoneStripe::AllDies), f, kUnit).size_bytes(), 32 * kMiB);
}

TEST(ZoneMapping, DieGroupsOfOnePlaneDealZonesToEveryLaneGroupInTurn) {
  ZoneConfig z = stripe(ZoneStripe::DieGroup, 2, 1);
  z.spare_blocks_per_plane = 4;
  const ZoneMapping m(z, flash(), kUnit);
  EXPECT_EQ(m.lanes(), 2u);
  EXPECT_EQ(m.lane_groups(), 8u);       // 4 die pairs x 2 planes
  EXPECT_EQ(m.max_zones(), 8u * 60);    // 64 blocks a plane, 4 spare
  EXPECT_EQ(m.capacity_units(), 768u);  // 2 blocks x 96 pages x 4 units
  EXPECT_EQ(m.size_bytes(), 4 * kMiB);  // 3 MiB rounded up
  // Zone 3: pair 3 (dies 6, 7), plane 0; zone 5: pair 1 (dies 2, 3: channels 2, 3), plane 1;
  // zone 13 is the next zone on zone 5's lanes.
  EXPECT_EQ(at(m.lane(3, 0)), std::make_pair(6u, 0u));
  EXPECT_EQ(at(m.lane(3, 1)), std::make_pair(7u, 0u));
  EXPECT_EQ(at(m.lane(5, 0)), std::make_pair(2u, 1u));
  EXPECT_EQ(at(m.lane(5, 1)), std::make_pair(3u, 1u));
  EXPECT_EQ(m.lane_group(13), m.lane_group(5));
  EXPECT_EQ(m.locate(4), (ZonePlace{1, 0, 0}));
  EXPECT_EQ(m.locate(8), (ZonePlace{0, 1, 0}));
}

TEST(ZoneMapping, OneShotWordLinesInterleaveAWordLineAtATime) {
  const ZoneMapping m(stripe(ZoneStripe::OneDie), tlc_one_shot(), kUnit);
  EXPECT_EQ(m.dies_per_zone(), 1u);
  EXPECT_EQ(m.lanes(), 2u);  // the die's two planes
  EXPECT_EQ(m.lane_groups(), 8u);
  EXPECT_EQ(m.capacity_units(), 768u);
  // Pages 0-2 (a word line) on plane 0, pages 0-2 of plane 1's block next, then pages 3-5.
  EXPECT_EQ(m.locate(11), (ZonePlace{0, 2, 3}));  // page 2
  EXPECT_EQ(m.locate(12), (ZonePlace{1, 0, 0}));  // page 3 of the zone
  EXPECT_EQ(m.locate(25), (ZonePlace{0, 3, 1}));  // page 6: the second word line of plane 0
  EXPECT_EQ(m.locate(47), (ZonePlace{1, 5, 3}));  // page 11
  EXPECT_EQ(at(m.lane(7, 1)), std::make_pair(7u, 1u));
}

// locate() is one-to-one onto every unit of the zone's blocks, and unit_at() undoes it.
TEST(ZoneMapping, EveryUnitOfAZoneHasItsOwnPlaceAndBack) {
  for (const auto& [z, f] : {std::pair{stripe(ZoneStripe::AllDies), flash()},
                             std::pair{stripe(ZoneStripe::DieGroup, 4, 1), flash()},
                             std::pair{stripe(ZoneStripe::AllDies), tlc_one_shot()},
                             std::pair{stripe(ZoneStripe::OneDie), tlc_one_shot()}}) {
    const ZoneMapping m(z, f, kUnit);
    std::set<uint64_t> seen;
    for (uint64_t u = 0; u < m.capacity_units(); ++u) {
      const ZonePlace p = m.locate(u);
      ASSERT_LT(p.lane, m.lanes());
      ASSERT_LT(p.page, f.pages_per_block);
      ASSERT_LT(p.unit, 4u);
      ASSERT_EQ(m.unit_at(p), u);
      seen.insert((uint64_t(p.lane) * f.pages_per_block + p.page) * 4 + p.unit);
    }
    EXPECT_EQ(seen.size(), m.capacity_units());
  }
}

// Each stripe's lane groups split the drive's planes between them: each plane in exactly one.
TEST(ZoneMapping, LaneGroupsPartitionThePlanes) {
  for (const ZoneConfig& z : {stripe(ZoneStripe::AllDies), stripe(ZoneStripe::AllDies, 0, 1),
                              stripe(ZoneStripe::DieGroup, 2), stripe(ZoneStripe::DieGroup, 4, 1),
                              stripe(ZoneStripe::OneDie), stripe(ZoneStripe::OneDie, 0, 1)}) {
    const ZoneMapping m(z, flash(), kUnit);
    std::set<std::pair<uint32_t, uint32_t>> planes;
    for (uint32_t zone = 0; zone < m.lane_groups(); ++zone)
      for (uint32_t l = 0; l < m.lanes(); ++l) planes.insert(at(m.lane(zone, l)));
    EXPECT_EQ(planes.size(), 16u) << to_string(z.stripe);
    EXPECT_EQ(m.lanes() * m.lane_groups(), 16u);
  }
}

TEST(ZoneMapping, LimitsAreInTheHostsLogicalBlocks) {
  ZoneConfig z = stripe(ZoneStripe::DieGroup, 2, 1);
  z.spare_blocks_per_plane = 4;
  z.max_open = 14;
  z.max_active = 28;
  const ZoneMapping m(z, flash(), kUnit);
  const ZoneLimits l = m.limits(480, 512);
  EXPECT_EQ(l.zones, 480u);
  EXPECT_EQ(l.zone_size, 8192u);      // 4 MiB of 512 B blocks
  EXPECT_EQ(l.zone_capacity, 6144u);  // 3 MiB
  EXPECT_EQ(l.max_open, 14u);
  EXPECT_EQ(l.max_active, 28u);
  EXPECT_EQ(m.limits(1, 4096).zone_capacity, 768u);
  EXPECT_THROW(m.limits(481, 512), std::invalid_argument);
  EXPECT_THROW(m.limits(0, 512), std::invalid_argument);
  EXPECT_THROW(m.limits(1, 8192), std::invalid_argument);  // larger than a unit
  EXPECT_THROW(m.limits(1, 1000), std::invalid_argument);
}

std::string refusal(const ZoneConfig& z) {
  config::Problems problems("t.json");
  config::check_zones(z, flash(), "namespaces[1].zones", problems);
  try {
    problems.raise();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

bool says(const std::string& message, const std::string& part) {
  return message.find(part) != std::string::npos;
}

TEST(ZoneMapping, EachRuleNamesItsKey) {
  EXPECT_EQ(refusal(stripe(ZoneStripe::DieGroup, 4, 2)), "");
  EXPECT_PRED2(says, refusal(stripe(ZoneStripe::DieGroup, 3)),
               "t.json: namespaces[1].zones.group_dies: must divide the drive's 8 dies");
  EXPECT_PRED2(says, refusal(stripe(ZoneStripe::DieGroup, 0)), "zones.group_dies: must divide");
  EXPECT_PRED2(says, refusal(stripe(ZoneStripe::OneDie, 2)),
               "zones.group_dies: only with stripe die_group (stripe one_die sets");
  EXPECT_PRED2(says, refusal(stripe(ZoneStripe::AllDies, 0, 3)),
               "zones.planes: must divide flash.planes_per_die (2), or be 0");
  ZoneConfig z = stripe(ZoneStripe::AllDies);
  z.spare_blocks_per_plane = 64;
  EXPECT_PRED2(says, refusal(z),
               "zones.spare_blocks_per_plane: must be less than "
               "flash.blocks_per_plane (64)");
  z = stripe(ZoneStripe::AllDies);
  z.max_active = 4;
  EXPECT_PRED2(says, refusal(z), "zones.max_open: must be in [1, max_active 4]");
  z.max_open = 5;
  EXPECT_PRED2(says, refusal(z), "zones.max_open: must be in [1, max_active 4]");
  z.max_open = 4;
  EXPECT_EQ(refusal(z), "");
  EXPECT_THROW(ZoneMapping(stripe(ZoneStripe::DieGroup, 3), flash(), kUnit), ConfigError);
  EXPECT_THROW(ZoneMapping(stripe(ZoneStripe::AllDies), flash(), 3000), ConfigError);
}

}  // namespace
}  // namespace ssd::fw::zns
