// The host's zone translation layer (tb/host/ZoneTranslation.h): its plans by hand on a tiny
// namespace, and a seeded soak that runs its plans on the zone state machine and follows every
// block's data through the copies. Namespace: zones of 16 blocks with 12 writable, chunks of 4
// blocks (3 a zone), two zones open and active at most.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "firmware/zns/ZonedNamespace.h"
#include "firmware/zns/Zones.h"
#include "tb/host/ZoneTranslation.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/ZoneTestDrive.h"

namespace ssd::tb {
namespace {

using fw::zns::ZoneLimits;
using fw::zns::Zones;
using fw::zns::ZoneStatus;
using Plan = std::vector<ZoneCommand>;

ZoneLimits namespace_of(uint32_t zones) { return ZoneLimits{zones, 16, 12, 2, 2}; }

ZoneCommand rd(uint64_t lba, uint64_t blocks, bool gc = false) {
  return {ZoneOp::Read, lba, blocks, gc};
}
// `follows`: a zone's first write, the zone before it in its stream.
ZoneCommand wr(uint64_t lba, uint64_t blocks, bool gc = false, uint32_t follows = kNoZone) {
  return {ZoneOp::Write, lba, blocks, gc, follows};
}
ZoneCommand reset(uint64_t zslba) { return {ZoneOp::Reset, zslba, 0, true}; }

Plan write(ZoneTranslation& t, uint64_t lba, uint64_t blocks) {
  Plan p;
  t.write(lba, blocks, p);
  return p;
}

TEST(ZoneTranslation, ChunksGoToTheOpenZoneOneWriteARun) {
  ZoneTranslation t(namespace_of(6), 4, {3});
  ASSERT_EQ(t.capacity_blocks(), 36u);  // 3 zones of 3 chunks
  EXPECT_EQ(write(t, 0, 8), (Plan{wr(0, 8)}));
  EXPECT_EQ(write(t, 20, 4), (Plan{wr(8, 4)}));            // zone 0 is full
  EXPECT_EQ(write(t, 8, 4), (Plan{wr(16, 4, false, 0)}));  // zone 1, after zone 0
  EXPECT_EQ(t.locate(2), 16u);
  EXPECT_EQ(t.locate(5), 8u);
  EXPECT_FALSE(t.locate(3).has_value());
  EXPECT_EQ(t.free_zones(), 4u);
  EXPECT_DOUBLE_EQ(t.stats().waf(), 1.0);
}

TEST(ZoneTranslation, PartlyWrittenChunksReadTheRestFirst) {
  ZoneTranslation t(namespace_of(6), 4, {3});
  write(t, 0, 4);
  EXPECT_EQ(write(t, 1, 2), (Plan{rd(0, 1), rd(3, 1), wr(4, 4)}));
  EXPECT_EQ(write(t, 9, 2), (Plan{wr(8, 4)}));  // nothing there before: nothing to keep
  EXPECT_EQ(t.stats().rmw_blocks_read, 2u);
  EXPECT_EQ(t.stats().host_blocks_written, 8u);
  EXPECT_EQ(t.stats().blocks_written, 12u);
  EXPECT_DOUBLE_EQ(t.stats().waf(), 1.5);
}

TEST(ZoneTranslation, ReadsFollowTheMapAndTrimForgetsWholeChunks) {
  ZoneTranslation t(namespace_of(6), 4, {3});
  write(t, 4, 8);  // chunks 1 and 2: blocks 0-7 of zone 0
  Plan p;
  t.read(2, 8, p);  // chunk 0 never written; 1 and 2 lie one after the other
  EXPECT_EQ(p, (Plan{rd(0, 6)}));
  t.trim(3, 6);  // covers chunk 1 only whole
  EXPECT_FALSE(t.locate(1).has_value());
  EXPECT_EQ(t.valid_chunks(0), 1u);
  p.clear();
  t.read(4, 8, p);
  EXPECT_EQ(p, (Plan{rd(4, 4)}));
  EXPECT_THROW(t.read(30, 7, p), std::out_of_range);
  EXPECT_THROW(write(t, 36, 1), std::out_of_range);
}

TEST(ZoneTranslation, CollectionCopiesTheEmptiestFullZoneThenResetsIt) {
  ZoneTranslation t(namespace_of(6), 4, {3});
  EXPECT_EQ(write(t, 0, 36), (Plan{wr(0, 12), wr(16, 12, false, 0), wr(32, 12, false, 1)}));
  write(t, 0, 4);   // chunk 0 to zone 3
  write(t, 12, 8);  // chunks 3, 4: zone 3 full
  write(t, 4, 4);   // chunk 1 to zone 4; zone 0 keeps chunk 2 only
  write(t, 24, 8);  // chunks 6, 7: zone 4 full; zones 0, 1 and 2 hold a chunk each
  ASSERT_EQ(t.free_zones(), 1u);
  // Chunk 3 needs a zone: the last free one is kept for copies, so zone 0 (chunk 2) and then
  // zone 1 (chunk 5) are collected into zone 5, and chunk 3 goes to zone 0.
  EXPECT_EQ(write(t, 12, 4), (Plan{rd(8, 4, true), wr(80, 4, true), reset(0), rd(24, 4, true),
                                   wr(84, 4, true), reset(16), wr(0, 4, false, 4)}));
  EXPECT_EQ(t.locate(2), 80u);
  EXPECT_EQ(t.locate(5), 84u);
  EXPECT_EQ(t.locate(3), 0u);
  EXPECT_EQ(t.stats().zones_reset, 2u);
  EXPECT_EQ(t.stats().gc_blocks_copied, 8u);
  EXPECT_EQ(t.stats().host_blocks_written, 64u);
  EXPECT_DOUBLE_EQ(t.stats().waf(), 72.0 / 64.0);
}

// Two zones open for copies, two kept free, on 10 zones (5 spare, no open limit). Once the host
// has overwritten one chunk of each of zones 0-2 twice and opened zone 7, two zones are free:
// the next zone it opens sets off collections until three are: zone 0 (chunk 2) into zone 8,
// zone 1 (chunk 5) into zone 9 (the collections take the streams in turn), zone 2 (chunk 8)
// into zone 8 again; the host's chunk then goes to zone 0, after zone 7 in its stream.
TEST(ZoneTranslation, CollectionsTakeTheirStreamsInTurnUntilMoreThanFreeZonesAreFree) {
  ZoneTranslation t(ZoneLimits{10, 16, 12, 0, 0}, 4, {5, 1, 2, 2});
  write(t, 0, 60);
  for (const uint64_t chunk : {0, 3, 6, 9, 12, 1, 4, 7, 10}) write(t, chunk * 4, 4);
  ASSERT_EQ(t.free_zones(), 2u);
  EXPECT_EQ(write(t, 52, 4),
            (Plan{rd(8, 4, true), wr(128, 4, true), reset(0), rd(24, 4, true), wr(144, 4, true),
                  reset(16), rd(40, 4, true), wr(132, 4, true), reset(32), wr(0, 4, false, 7)}));
  EXPECT_EQ(t.free_zones(), 2u);  // zones 1 and 2; zone 0 went to the host
  EXPECT_EQ(t.locate(2), 128u);
  EXPECT_EQ(t.locate(5), 144u);
  EXPECT_EQ(t.locate(8), 132u);
}

TEST(ZoneTranslation, RefusesWhatItCannotServe) {
  EXPECT_THROW(ZoneTranslation(namespace_of(6), 3, {3}), std::invalid_argument);
  EXPECT_THROW(ZoneTranslation(namespace_of(6), 8, {3}), std::invalid_argument);  // 12 blocks
  EXPECT_THROW(ZoneTranslation(namespace_of(6), 4, {2}), std::invalid_argument);
  EXPECT_THROW(ZoneTranslation(namespace_of(3), 4, {3}), std::invalid_argument);
  ZoneLimits one_open = namespace_of(6);
  one_open.max_open = 1;
  EXPECT_THROW(ZoneTranslation(one_open, 4, {3}), std::invalid_argument);
  // Two zones open for host chunks: 4 spare zones, 3 open zones allowed.
  EXPECT_THROW(ZoneTranslation(namespace_of(6), 4, {3, 2}), std::invalid_argument);
  EXPECT_THROW(ZoneTranslation(namespace_of(6), 4, {4, 2}), std::invalid_argument);
  // Two for copies, or two kept free: 4 spare zones; two for copies: 3 open zones.
  EXPECT_THROW(ZoneTranslation(namespace_of(6), 4, {3, 1, 1, 2}), std::invalid_argument);
  EXPECT_THROW(ZoneTranslation(namespace_of(6), 4, {4, 1, 2}), std::invalid_argument);
  EXPECT_NO_THROW(ZoneTranslation(namespace_of(6), 4, {4, 1, 1, 2}));
  for (const ZoneTranslation::Shape none : {ZoneTranslation::Shape{4, 0}, {4, 1, 0}, {4, 1, 1, 0}})
    EXPECT_THROW(ZoneTranslation(namespace_of(6), 4, none), std::invalid_argument);
}

// Runs plans on the zone state machine, every block holding (host block, version) or nothing,
// while a shadow says what each host block should hold. With a zoned namespace's firmware, the
// plans run on it too, and each unit it reads back must hold the version last written there.
struct Drive {
  using Data = std::pair<uint64_t, uint64_t>;  // host block, version; (0, 0): nothing
  static constexpr Data kKept{~0ull, ~0ull};   // a host write's block from its own reads
  Zones zones;
  std::vector<Data> blocks;
  std::deque<Data> copying;  // GC's reads: its writes' data
  std::deque<Data> kept;     // a host write's reads of the chunks' blocks it leaves
  fw::zns::ZonedNamespace* ns = nullptr;
  std::vector<fw::PageToken> units;  // with ns: each unit's last write
  uint64_t writes = 0;

  explicit Drive(const ZoneLimits& l, fw::zns::ZonedNamespace* firmware = nullptr)
      : zones(l), blocks(l.zones * l.zone_size), ns(firmware) {
    if (ns) units.resize(blocks.size() / ns->blocks_per_unit());
  }

  void read(const ZoneCommand& c) {
    ASSERT_EQ(zones.read(c.lba, c.blocks), ZoneStatus::Success);
    ASSERT_LE(c.lba + c.blocks, zones.zone(zones.zone_of(c.lba)).write_pointer);
    for (uint64_t b = c.lba; b < c.lba + c.blocks; ++b)
      (c.gc ? copying : kept).push_back(blocks[b]);
    if (!ns) return;
    const fw::zns::ZonedRead r = ns->read(c.lba, c.blocks);
    ASSERT_EQ(r.status, ZoneStatus::Success);
    for (const fw::zns::ZonedUnitRead& u : r.units) {
      ASSERT_TRUE(u.written) << "unit " << u.unit;
      ASSERT_EQ(u.data, units[u.unit]) << "unit " << u.unit;
    }
  }

  void write(const ZoneCommand& c, std::deque<Data>& host) {
    ASSERT_TRUE(zones.write(c.lba, c.blocks).ok()) << c.lba;
    for (uint64_t b = c.lba; b < c.lba + c.blocks; ++b) {
      std::deque<Data>& from = c.gc ? copying : host;
      ASSERT_FALSE(from.empty());
      blocks[b] = from.front();
      from.pop_front();
      if (blocks[b] != kKept) continue;
      ASSERT_FALSE(kept.empty());
      blocks[b] = kept.front();
      kept.pop_front();
    }
    if (!ns) return;
    ++writes;
    ASSERT_EQ(ns->write(c.lba, c.blocks, writes).outcome.lba, c.lba);
    const uint64_t per = ns->blocks_per_unit();
    // A unit written in part holds the latest write's token, as the namespace keeps it.
    for (uint64_t u = c.lba / per; u <= (c.lba + c.blocks - 1) / per; ++u) units[u] = {u, writes};
  }

  void reset(const ZoneCommand& c) {
    const uint64_t size = zones.limits().zone_size;
    ASSERT_TRUE(zones.manage(c.lba, fw::zns::ZoneAction::Reset).ok());
    for (uint64_t b = c.lba; b < c.lba + size; ++b) blocks[b] = {};
    if (!ns) return;
    ASSERT_TRUE(ns->manage(c.lba, fw::zns::ZoneAction::Reset).outcome.ok());
    const uint64_t per = ns->blocks_per_unit();
    for (uint64_t u = c.lba / per; u < (c.lba + size) / per; ++u) units[u] = {};
  }

  // Runs the plan; `host` is what the host's writes carry, block by block in order.
  void run(const Plan& plan, std::deque<Data> host = {}) {
    for (const ZoneCommand& c : plan) {
      if (c.op == ZoneOp::Read) read(c);
      if (c.op == ZoneOp::Write) write(c, host);
      if (c.op == ZoneOp::Reset) reset(c);
      if (::testing::Test::HasFatalFailure()) return;
    }
    EXPECT_TRUE(copying.empty());
    EXPECT_TRUE(host.empty());
    const bool host_read = !plan.empty() && plan.back().op == ZoneOp::Read;
    EXPECT_TRUE(host_read || kept.empty());  // a write's reads all went into its chunks
    kept.clear();                            // a host read's data goes to the host
  }
};

// `requests` seeded host requests of 1 to `most` blocks: 70% writes, 10% trims, 20% reads.
void soak(ZoneTranslation& t, Drive& drive, uint64_t requests, uint64_t most) {
  const uint64_t chunk = t.chunk_blocks();
  const uint64_t capacity = t.capacity_blocks();
  std::vector<uint64_t> shadow(capacity, 0);  // each host block's version (0: nothing)
  std::mt19937_64 rng(46);
  for (uint64_t version = 1; version <= requests; ++version) {
    const uint64_t blocks = 1 + rng() % most;
    const uint64_t lba = rng() % (capacity - blocks + 1);
    const uint64_t kind = rng() % 10;
    Plan plan;
    if (kind < 7) {
      // The chunks' blocks: the new ones, and the rest as they were (what the writes' reads
      // fetch, or nothing where the chunk held nothing).
      std::deque<Drive::Data> host;
      for (uint64_t c = lba / chunk; c * chunk < lba + blocks; ++c)
        for (uint64_t b = c * chunk; b < (c + 1) * chunk; ++b)
          host.push_back(b >= lba && b < lba + blocks ? Drive::Data{b, version}
                         : t.locate(c)                ? Drive::kKept
                                                      : Drive::Data{});
      t.write(lba, blocks, plan);
      for (uint64_t b = lba; b < lba + blocks; ++b) shadow[b] = version;
      drive.run(plan, std::move(host));
    } else if (kind < 8) {
      t.trim(lba, blocks);
      for (uint64_t c = (lba + chunk - 1) / chunk; c < (lba + blocks) / chunk; ++c)
        for (uint64_t i = 0; i < chunk; ++i) shadow[c * chunk + i] = 0;
    } else {
      t.read(lba, blocks, plan);
      drive.run(plan);
    }
    if (::testing::Test::HasFatalFailure()) return;
    for (uint64_t b = 0; b < capacity; ++b) {
      const std::optional<uint64_t> at = t.locate(b / chunk);
      const Drive::Data held = at ? drive.blocks[*at + b % chunk] : Drive::Data{};
      const Drive::Data want = shadow[b] ? Drive::Data{b, shadow[b]} : Drive::Data{};
      ASSERT_EQ(held, want) << "block " << b << " after request " << version;
    }
  }
}

// Host writes take the zones open for them in turn, each write's chunks all in one.
TEST(ZoneTranslation, HostWritesTakeTheOpenZonesInTurn) {
  ZoneLimits limits = namespace_of(8);
  limits.max_open = limits.max_active = 3;
  ZoneTranslation t(limits, 4, {4, 2});
  ASSERT_EQ(t.capacity_blocks(), 48u);  // 4 zones of 3 chunks
  EXPECT_EQ(write(t, 0, 8), (Plan{wr(0, 8)}));
  EXPECT_EQ(write(t, 40, 4), (Plan{wr(16, 4)}));
  EXPECT_EQ(write(t, 20, 8), (Plan{wr(8, 4), wr(32, 4, false, 0)}));  // zone 0 fills; 2 opens
  EXPECT_EQ(t.locate(10), 16u);
}

TEST(ZoneTranslation, SoakEveryBlockKeepsItsDataThroughCopiesAndResets) {
  const ZoneLimits limits = namespace_of(9);
  ZoneTranslation t(limits, 4, {3});
  Drive drive(limits);
  soak(t, drive, 4000, 10);
  // Collection ran throughout (about 2,900 resets, host-side WAF about 2.3).
  EXPECT_GT(t.stats().zones_reset, 500u);
  EXPECT_GT(t.stats().waf(), 1.5);
}

// The layer on the zoned namespace's firmware, 512-byte blocks, on the fake HAL's NAND (2 dies,
// 2 planes x 8 blocks x 6 pages of 8 KiB, 4 KiB units): 8 zones of 48 units over both dies, two
// open at most. Chunks of one unit, and of half a unit (units gather in the buffer).
class ZoneTranslationOnFirmware : public ::testing::TestWithParam<uint32_t> {};

TEST_P(ZoneTranslationOnFirmware, SoakKeepsEveryBlockOnTheFlash) {
  const config::FlashConfig f = test::zone_test_flash();
  config::ZoneConfig zc;
  zc.max_open = 2;
  zc.max_active = 2;
  const fw::zns::ZoneMapping mapping(zc, f, 4096);
  test::FakeHal hal(f, 2);
  fw::zns::ZonedNamespace ns(mapping, f, hal, 8, 512);
  ZoneTranslation t(ns.zones().limits(), GetParam(), {3});
  ASSERT_EQ(t.capacity_blocks(), 5u * 384);
  Drive drive(ns.zones().limits(), &ns);
  soak(t, drive, 3000, 40);
  EXPECT_TRUE(hal.violations().empty());  // erase before program, pages in order
  // Zones fill whole: the units the drive took are on the flash, two a page, but for the open
  // zones' last (each less than a page, in the buffer); each reset erased a zone's four blocks.
  const fw::zns::ZoneFlashStats& flash = ns.flash().stats();
  EXPECT_LT(t.stats().blocks_written - 8 * flash.units_written, 16u);
  EXPECT_EQ(flash.pages_programmed, hal.total_programs());
  EXPECT_LE(flash.units_written - 2 * flash.pages_programmed, 2u);
  EXPECT_EQ(flash.blocks_erased, 4 * t.stats().zones_reset);
  EXPECT_GT(t.stats().zones_reset, 50u);
}

INSTANTIATE_TEST_SUITE_P(Chunks, ZoneTranslationOnFirmware, ::testing::Values(8u, 4u));

// Three zones open for host chunks (5 spare, 4 open at most) on 12 zones; and two for copies
// with three kept free (7 spare, 4 open at most).
TEST(ZoneTranslation, SoakWithThreeZonesOpenForHostChunks) {
  ZoneLimits limits = namespace_of(12);
  limits.max_open = limits.max_active = 4;
  ZoneTranslation t(limits, 4, {5, 3});
  Drive drive(limits);
  soak(t, drive, 4000, 10);
  EXPECT_GT(t.stats().zones_reset, 500u);
}

TEST(ZoneTranslation, SoakWithTwoZonesForCopiesAndThreeKeptFree) {
  ZoneLimits limits = namespace_of(12);
  limits.max_open = limits.max_active = 4;
  ZoneTranslation t(limits, 4, {7, 2, 2, 3});
  Drive drive(limits);
  soak(t, drive, 4000, 10);
  EXPECT_GT(t.stats().zones_reset, 500u);
}

}  // namespace
}  // namespace ssd::tb
