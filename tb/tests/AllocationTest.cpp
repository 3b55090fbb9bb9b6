// Page allocation orders (ftl.allocation, docs/ftl.md#allocation): the exact placement of each
// order on FakeHal, the plane-aware free-block choice, the config rules, and the write
// bandwidth that 1, 2 and 4 planes give a write-saturated die once plane_first lets the flash
// back end form multi-plane programs.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "firmware/BlockManager.h"
#include "firmware/ftl/Dftl.h"
#include "firmware/ftl/PageFtl.h"
#include "tb/run/Simulation.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/WorkloadGenerator.h"

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
  c.ftl.allocation = test::choice<config::Allocation>(allocation);
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
  c.ftl.type = config::FtlType::Dftl;
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
  nlohmann::json doc = config::to_json(c);
  doc["ftl"]["allocation"] = "plane_major";
  try {
    config::parse_drive_config(doc, "test config");
    ADD_FAILURE() << "accepted";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(),
                 "test config: ftl.allocation: unknown allocation order \"plane_major\" (known: "
                 "channel_first, plane_first, die_first)");
  }
  c.ftl.allocation = config::Allocation::DieFirst;
  c.ftl.type = config::FtlType::Bast;
  EXPECT_EQ(error_of(c),
            "test config: ftl.allocation: only the page and dftl FTLs choose an allocation order");
  // 4 planes x 16 blocks = 64 blocks per die, floor(64 x 0.125) = 8 spare: enough for
  // channel_first (4 + 3), two short of plane_first's 4 + 4 host blocks + 1 GC block + 1.
  c.ftl.type = config::FtlType::Page;
  c.flash.planes_per_die = 4;
  c.flash.blocks_per_plane = 16;
  c.ftl.overprovisioning = 0.125;
  c.ftl.allocation = config::Allocation::ChannelFirst;
  EXPECT_EQ(error_of(c), "(accepted)");
  c.ftl.allocation = config::Allocation::PlaneFirst;
  EXPECT_EQ(error_of(c),
            "test config: ftl.overprovisioning: 0.125 leaves 8 spare blocks per die (floor(64 x "
            "0.125)); garbage collection needs at least gc_threshold_blocks + 6 = 10 "
            "(ftl.allocation plane_first keeps a host block open on each of the 4 planes; one "
            "block of room for GC to reclaim)");
  c.ftl.type = config::FtlType::Dftl;
  c.ftl.overprovisioning = 0.14;  // floor(8.96) = 8 again
  EXPECT_EQ(error_of(c),
            "test config: ftl.overprovisioning: 0.14 leaves 8 spare blocks per die (floor(64 x "
            "0.14)); garbage collection needs at least gc_threshold_blocks + 7 = 11 "
            "(ftl.allocation plane_first keeps a host block open on each of the 4 planes; dftl "
            "keeps a translation block open too; one block of room for GC to reclaim)");
}

// One die (1 channel x 1 way) of small_gc with `planes` planes and the same raw capacity (256
// blocks of 32 pages), plane_first, multi-plane operations on when there are planes to join.
config::DriveConfig one_die(uint32_t planes, bool multiplane, const std::string& allocation) {
  config::DriveConfig c = test::shipped("small_gc");
  c.flash.channels = 1;
  c.flash.ways_per_channel = 1;
  c.flash.planes_per_die = planes;
  c.flash.blocks_per_plane = 256 / planes;
  c.flash.multiplane = multiplane;
  c.ftl.allocation = test::choice<config::Allocation>(allocation);
  return validated(c);
}

constexpr uint32_t kWrites = 4096;

struct Measured {
  double mbps;
  double sim_us;
  uint64_t groups;
};

// kWrites random 4 KiB writes, 32 outstanding: 128 of the die's 256 blocks, so no GC.
Measured write_saturated(const config::DriveConfig& cfg) {
  auto src = tb::make_workload(
      "rw=randwrite,bs=4k,qd=32,count=" + std::to_string(kWrites) + ",seed=1", cfg.logical_bytes());
  const tb::RunResult r = tb::run_simulation(cfg, *src, tb::RunOptions{});
  EXPECT_TRUE(r.data_intact);
  EXPECT_EQ(r.report["gc"]["victims"].get<uint64_t>(), 0u);
  return {r.report["bandwidth_mbps"].get<double>(), r.report["sim_time_s"].get<double>() * 1e6,
          r.report["utilisation"]["multiplane_groups"].get<uint64_t>()};
}

// The die is the bottleneck: the controller needs t_fw_per_cmd + t_fw_per_page + 3 DRAM
// accesses + t_cmd_issue = 33.18 us per write, the die at least 206.92 us per page (below),
// and 32 writes outstanding keep its queue full. Per die, n pages on n planes at one page
// offset take n x transfer + one tPROG instead of n x (transfer + tPROG): with transfer =
// 4096 B x 20 ns = 81.92 us and tPROG = 500 us, a page costs 581.92 us on 1 plane, 663.84 / 2
// = 331.92 us on 2 and 827.68 / 4 = 206.92 us on 4 (7.04, 12.34, 19.80 MB/s). The run adds
// the first write's way in (link 4096 B / 300 MB/s + t_fw_per_cmd 2 + step 31.18 = 46.833 us)
// and a start-up: that write finds the die idle and programs alone, and the other planes'
// pages of its page offset then go together (P - 1 pages, one tPROG); from then on every
// program joins all P planes. Writes end when programmed, so the run ends with the last one.
TEST(Allocation, MultiPlaneWriteBandwidthFollowsThePlanes) {
  const double xfer = 4096 * 20e-3, tprog = 500;
  const double way_in = 4096 / 300.0 + 2 + 1 + 3 * 0.06 + 30;
  const double one_page = xfer + tprog;
  double last_mbps = 0;
  for (uint32_t planes : {1u, 2u, 4u}) {
    const config::DriveConfig c = one_die(planes, planes > 1, "plane_first");
    ASSERT_EQ(c.flash.bus_ns_per_byte * c.flash.page_bytes / 1000, xfer);
    ASSERT_EQ(c.flash.t_prog_us, tprog);
    const double rest = planes > 1 ? (planes - 1) * xfer + tprog : 0;
    const double full = double(kWrites - planes) / planes * (planes * xfer + tprog);
    const double sim_us = way_in + one_page + rest + full;
    const double mbps = kWrites * 4096.0 / sim_us;  // bytes per us = MB/s
    const Measured m = write_saturated(c);
    EXPECT_NEAR(m.sim_us, sim_us, 1e-6) << planes << " planes";
    EXPECT_NEAR(m.mbps, mbps, 1e-9) << planes << " planes";
    // Groups of two or more planes: the full ones, and the start-up's if it joins 2 or more.
    const uint32_t groups = planes == 1 ? 0 : (kWrites - planes) / planes + (planes > 2 ? 1 : 0);
    EXPECT_EQ(m.groups, groups) << planes << " planes";
    EXPECT_GT(m.mbps, last_mbps);
    last_mbps = m.mbps;
  }
}

// Planes alone change nothing: without multi-plane operations, or with channel_first (all of
// a die's pages in one block, so on one plane), 4 planes write exactly as 1.
TEST(Allocation, FourPlanesNeedMultiPlaneAndAPlaneAwareOrder) {
  const Measured one = write_saturated(one_die(1, false, "plane_first"));
  for (const auto& [multiplane, allocation] :
       {std::pair{false, "plane_first"}, std::pair{true, "channel_first"}}) {
    const Measured m = write_saturated(one_die(4, multiplane, allocation));
    EXPECT_EQ(m.sim_us, one.sim_us) << allocation;
    EXPECT_EQ(m.groups, 0u) << allocation;
  }
}

}  // namespace
}  // namespace ssd
