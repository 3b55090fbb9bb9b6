// Firmware without simulation: block bookkeeping, the page-mapping FTL and the host command
// processor run on FakeHal (fixed costs, a NAND array that enforces the NAND rules), and the
// scoreboard is driven by hand. Every expectation is worked out from the documented
// behaviour, and the scoreboard tests show it reports the corruptions it exists to catch.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "config/DriveConfig.h"
#include "firmware/BlockManager.h"
#include "firmware/Firmware.h"
#include "firmware/ftl/PageFtl.h"
#include "ip/Scoreboard.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace fw {
// Readable tokens in failure messages (found by argument-dependent lookup).
static void PrintTo(const PageToken& t, std::ostream* os) {
  *os << "{lpn " << t.lpn << ", version " << t.version << "}";
}
}  // namespace fw

namespace {

using fw::BlockManager;
using fw::Lpn;
using fw::PageToken;
using fw::Ppa;
using test::FakeHal;
using OpKind = FakeHal::OpKind;

// Round-trips a config adjusted in a test through validation, so every drive tested here is
// one the model would accept.
config::DriveConfig validated(const config::DriveConfig& c) {
  return config::parse_drive_config(config::to_json(c), "test config");
}

// small_gc reshaped into a single die of `blocks` blocks of `pages` pages: with one die every
// write lands on it, so block allocation and GC can be followed page by page.
// As one_die, one block of spare room short of the spare-block rule allowed: for a test that
// places every page itself and never takes the die to a steady state, which that block is for.
config::DriveConfig one_die_at_old_rule(uint32_t blocks, uint32_t pages, double overprovisioning,
                                        uint32_t gc_threshold) {
  config::DriveConfig c = test::shipped("small_gc");
  c.flash.channels = 1;
  c.flash.ways_per_channel = 1;
  c.flash.dies_per_way = 1;
  c.flash.planes_per_die = 1;
  c.flash.blocks_per_plane = blocks;
  c.flash.pages_per_block = pages;
  c.ftl.overprovisioning = overprovisioning;
  c.ftl.gc_threshold_blocks = gc_threshold;
  return c;
}

config::DriveConfig one_die(uint32_t blocks, uint32_t pages, double overprovisioning,
                            uint32_t gc_threshold) {
  return validated(one_die_at_old_rule(blocks, pages, overprovisioning, gc_threshold));
}

// Fills `block` of `die` (just opened) with lpns first, first + 1, ... and closes it.
void fill_block(BlockManager& bm, uint32_t die, uint32_t block, uint32_t pages, Lpn first) {
  for (uint32_t p = 0; p < pages; ++p) bm.set_valid(Ppa{die, block, p}, first + p);
  bm.close_block(die, block);
}

// Flash commands of one kind, in issue order.
std::vector<FakeHal::FlashOp> ops_of(const FakeHal& hal, OpKind kind, size_t from = 0) {
  std::vector<FakeHal::FlashOp> out;
  for (size_t i = from; i < hal.ops().size(); ++i)
    if (hal.ops()[i].kind == kind) out.push_back(hal.ops()[i]);
  return out;
}

// ---------------------------------------------------------------------------------------
// FakeHal: the NAND rules the other suites rely on are really enforced.

// Runs `body`, which must break a NAND rule: the FakeHal must both record a test failure and
// throw. The failure is intercepted so this test itself passes.
template <class Body>
void expect_violation(FakeHal& hal, Body body, const std::string& what) {
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter intercept(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    EXPECT_THROW(body(), test::NandViolation);
  }
  ASSERT_EQ(failures.size(), 1) << what;
  EXPECT_NE(std::string(failures.GetTestPartResult(0).message()).find(what), std::string::npos)
      << failures.GetTestPartResult(0).message();
  EXPECT_FALSE(hal.violations().empty());
}

TEST(FakeHal, EnforcesNandRules) {
  const config::DriveConfig cfg = test::shipped("small_gc");
  FakeHal hal(cfg.flash);
  PageToken t;
  const auto zero = fw::kNoOp;
  expect_violation(
      hal,
      [&] {
        hal.flash_read(Ppa{0, 0, 0}, t);
      },
      "unprogrammed page");
  hal.flash_program(Ppa{0, 0, 0}, PageToken{1, 1}, zero);
  hal.flash_program(Ppa{0, 0, 2}, PageToken{2, 2}, zero);  // skipping a page is allowed
  expect_violation(
      hal,
      [&] {
        hal.flash_program(Ppa{0, 0, 2}, PageToken{3, 3}, zero);
      },
      "not erased");
  expect_violation(
      hal,
      [&] {
        hal.flash_program(Ppa{0, 0, 1}, PageToken{3, 3}, zero);
      },
      "page order");
  expect_violation(
      hal,
      [&] {
        hal.flash_program(Ppa{0, 0, 32}, PageToken{3, 3}, zero);
      },
      "outside the block");
  expect_violation(
      hal, [&] { hal.flash_erase(4, 0); }, "outside the array");
  expect_violation(
      hal,
      [&] {
        hal.flash_read(Ppa{0, 0, 1}, t);
      },
      "unprogrammed page");
  hal.flash_read(Ppa{0, 0, 2}, t);
  EXPECT_EQ(t, (PageToken{2, 2}));
  // Erase clears the whole block: page 0 may be programmed again, nothing can be read.
  hal.flash_erase(0, 0);
  expect_violation(
      hal,
      [&] {
        hal.flash_read(Ppa{0, 0, 2}, t);
      },
      "unprogrammed page");
  hal.flash_program(Ppa{0, 0, 0}, PageToken{4, 4}, zero);
  EXPECT_EQ(hal.erases(0), 1u);
}

TEST(FakeHal, ChargesFixedTimes) {
  FakeHal hal(test::shipped("small_gc").flash);
  hal.dram_access(3, true);
  EXPECT_EQ(hal.now(), sc_core::sc_time(150, sc_core::SC_NS));
  // A program starts once issued, or once the read it takes its data from has ended.
  EXPECT_EQ(hal.end_of(hal.flash_program(Ppa{1, 0, 0}, PageToken{}, fw::kNoOp)),
            FakeHal::us(30.15 + 500));
  EXPECT_EQ(hal.now(), sc_core::sc_time(30.15, sc_core::SC_US));
  PageToken t;
  const fw::OpId read = hal.flash_read(Ppa{1, 0, 0}, t);
  EXPECT_EQ(hal.end_of(read), FakeHal::us(60.15 + 50));
  EXPECT_EQ(hal.end_of(hal.flash_program(Ppa{1, 0, 1}, t, read)), FakeHal::us(60.15 + 50 + 500));
  const fw::OpId erase = hal.flash_erase(1, 0);
  EXPECT_EQ(hal.end_of(erase), FakeHal::us(120.15 + 2000));
  // Waiting for a command moves the core's clock to its end, never back.
  hal.wait_for(read);
  EXPECT_EQ(hal.now(), FakeHal::us(120.15));
  hal.wait_for(erase);
  EXPECT_EQ(hal.now(), FakeHal::us(2120.15));
  EXPECT_EQ(hal.end_of(fw::kNoOp), sc_core::SC_ZERO_TIME);
  EXPECT_EQ(hal.dram_entries_written(), 3u);
  EXPECT_EQ(hal.dram_entries_read(), 0u);
  EXPECT_EQ(hal.programmed_dies(), (std::vector<uint32_t>{1, 1}));
}

// ---------------------------------------------------------------------------------------
// BlockManager

TEST(BlockManager, FreePoolIsFifoPerDie) {
  BlockManager bm(2, 4, 4);
  EXPECT_EQ(bm.free_blocks(0), 4u);
  EXPECT_EQ(bm.open_block(0), 0u);
  EXPECT_EQ(bm.open_block(0), 1u);
  EXPECT_EQ(bm.free_blocks(0), 2u);
  EXPECT_EQ(bm.free_blocks(1), 4u) << "dies have their own pools";
  EXPECT_EQ(bm.open_block(1), 0u);

  // Released blocks join the back of the pool in release order, so the least recently
  // erased block is reused first and wear spreads.
  bm.close_block(0, 0);
  bm.close_block(0, 1);
  bm.release_block(0, 1);
  bm.release_block(0, 0);
  EXPECT_EQ(bm.free_blocks(0), 4u);
  EXPECT_EQ(bm.open_block(0), 2u);
  EXPECT_EQ(bm.open_block(0), 3u);
  EXPECT_EQ(bm.open_block(0), 1u);
  EXPECT_EQ(bm.open_block(0), 0u);
  EXPECT_EQ(bm.free_blocks(0), 0u);
  EXPECT_THROW(bm.open_block(0), std::logic_error);
  EXPECT_EQ(bm.free_blocks(1), 3u);
}

TEST(BlockManager, OpenCloseReleaseBookkeeping) {
  BlockManager bm(1, 3, 4);
  uint32_t victim = 99;
  EXPECT_FALSE(bm.greedy_victim(0, victim)) << "no block written yet";
  EXPECT_EQ(bm.owner(Ppa{0, 2, 1}), BlockManager::kNoLpn) << "never opened";

  const uint32_t b = bm.open_block(0);
  for (uint32_t p = 0; p < 4; ++p) bm.set_valid(Ppa{0, b, p}, 10 + p);
  EXPECT_FALSE(bm.greedy_victim(0, victim)) << "an open block is still being written";

  bm.close_block(0, b);
  ASSERT_TRUE(bm.greedy_victim(0, victim));
  EXPECT_EQ(victim, b);

  for (uint32_t p = 0; p < 4; ++p) bm.invalidate(Ppa{0, b, p});
  bm.release_block(0, b);
  EXPECT_EQ(bm.free_blocks(0), 3u);
  EXPECT_FALSE(bm.greedy_victim(0, victim)) << "a released block is no GC candidate";

  // Reopened after the other two: its reverse map starts empty again.
  EXPECT_EQ(bm.open_block(0), 1u);
  EXPECT_EQ(bm.open_block(0), 2u);
  EXPECT_EQ(bm.open_block(0), b);
  for (uint32_t p = 0; p < 4; ++p) EXPECT_EQ(bm.owner(Ppa{0, b, p}), BlockManager::kNoLpn);
  EXPECT_EQ(bm.valid_pages(0, b), 0u);
}

TEST(BlockManager, ValidCountsAndOwners) {
  BlockManager bm(2, 2, 4);
  const uint32_t b = bm.open_block(1);
  bm.set_valid(Ppa{1, b, 0}, 7);
  bm.set_valid(Ppa{1, b, 1}, 8);
  EXPECT_EQ(bm.valid_pages(1, b), 2u);
  EXPECT_EQ(bm.owner(Ppa{1, b, 0}), 7u);
  EXPECT_EQ(bm.owner(Ppa{1, b, 1}), 8u);
  EXPECT_EQ(bm.owner(Ppa{1, b, 2}), BlockManager::kNoLpn);
  bm.set_valid(Ppa{1, b, 2}, 9);
  bm.set_valid(Ppa{1, b, 3}, 10);
  bm.close_block(1, b);
  bm.invalidate(Ppa{1, b, 1});
  EXPECT_EQ(bm.valid_pages(1, b), 3u);
  EXPECT_EQ(bm.owner(Ppa{1, b, 1}), BlockManager::kNoLpn);
  EXPECT_EQ(bm.owner(Ppa{1, b, 2}), 9u);
  // Same block number on the other die is a different block.
  EXPECT_EQ(bm.valid_pages(0, b), 0u);
  EXPECT_EQ(bm.owner(Ppa{0, b, 0}), BlockManager::kNoLpn);
}

TEST(BlockManager, GreedyVictimIsFullBlockWithFewestValidPages) {
  constexpr uint32_t kPages = 4;
  BlockManager bm(2, 6, kPages);
  // Blocks written full, then overwritten in part: valid counts 4, 2, 3, 1 for blocks 0..3.
  for (uint32_t i = 0; i < 4; ++i) fill_block(bm, 0, bm.open_block(0), kPages, 100 * i);
  bm.invalidate(Ppa{0, 1, 0});
  bm.invalidate(Ppa{0, 1, 3});
  bm.invalidate(Ppa{0, 2, 2});
  for (uint32_t p = 0; p < 3; ++p) bm.invalidate(Ppa{0, 3, p});
  // Block 4 is open with nothing valid: fewest of all, but not full, so not a candidate.
  EXPECT_EQ(bm.open_block(0), 4u);

  uint32_t victim = 99;
  ASSERT_TRUE(bm.greedy_victim(0, victim));
  EXPECT_EQ(victim, 3u);
  EXPECT_FALSE(bm.greedy_victim(1, victim)) << "die 1 has no full block";

  // Block 1 drops to 0 valid and must overtake block 3 (the index follows invalidations).
  bm.invalidate(Ppa{0, 1, 1});
  bm.invalidate(Ppa{0, 1, 2});
  ASSERT_TRUE(bm.greedy_victim(0, victim));
  EXPECT_EQ(victim, 1u);

  // Once it is erased, block 3 (1 valid) is next, then block 2 (3), then block 0 (4).
  bm.release_block(0, 1);
  ASSERT_TRUE(bm.greedy_victim(0, victim));
  EXPECT_EQ(victim, 3u);
  bm.invalidate(Ppa{0, 3, 3});
  bm.release_block(0, 3);
  ASSERT_TRUE(bm.greedy_victim(0, victim));
  EXPECT_EQ(victim, 2u);
  for (uint32_t p : {0u, 1u, 3u}) bm.invalidate(Ppa{0, 2, p});
  bm.release_block(0, 2);
  ASSERT_TRUE(bm.greedy_victim(0, victim));
  EXPECT_EQ(victim, 0u) << "a fully valid full block is still the only candidate";
}

TEST(BlockManager, EraseCountsIncreaseOnRelease) {
  BlockManager bm(1, 2, 2);
  EXPECT_EQ(bm.erase_count(0, 0), 0u);
  const uint32_t b = bm.open_block(0);
  bm.close_block(0, b);
  bm.release_block(0, b);
  EXPECT_EQ(bm.erase_count(0, b), 1u);
  EXPECT_EQ(bm.erase_count(0, 1), 0u);
  EXPECT_EQ(bm.open_block(0), 1u);  // pool is now 1, 0
  EXPECT_EQ(bm.open_block(0), 0u);
  bm.close_block(0, 0);
  bm.release_block(0, 0);
  EXPECT_EQ(bm.erase_count(0, 0), 2u);
  EXPECT_EQ(bm.erase_count(0, 1), 0u);
}

TEST(BlockManager, ReleaseWithValidPagesThrows) {
  BlockManager bm(1, 2, 2);
  const uint32_t b = bm.open_block(0);
  bm.set_valid(Ppa{0, b, 0}, 5);
  bm.close_block(0, b);
  EXPECT_THROW(bm.release_block(0, b), std::logic_error);
  EXPECT_EQ(bm.free_blocks(0), 1u) << "the block must not rejoin the pool";
  EXPECT_EQ(bm.erase_count(0, b), 0u);
  // An open block with valid data is refused too.
  const uint32_t open = bm.open_block(0);
  bm.set_valid(Ppa{0, open, 0}, 6);
  EXPECT_THROW(bm.release_block(0, open), std::logic_error);
}

// ---------------------------------------------------------------------------------------
// PageFtl

TEST(PageFtl, WritesGoChannelMajorRoundRobin) {
  const config::DriveConfig cfg = test::shipped("small_gc");
  ASSERT_EQ(cfg.flash.channels, 2u);
  ASSERT_EQ(cfg.flash.dies(), 4u);
  FakeHal hal(cfg.flash);
  fw::PageFtl ftl(cfg, hal);
  // Whatever the lpns (repeats included), the die sequence is fixed.
  const std::vector<Lpn> lpns = {500, 3, 3, 4000, 17, 3, 9, 9, 1, 2};
  for (size_t i = 0; i < lpns.size(); ++i) ftl.write(lpns[i], PageToken{lpns[i], i + 1}, fw::kNoOp);
  EXPECT_EQ(hal.programmed_dies(), (std::vector<uint32_t>{0, 1, 2, 3, 0, 1, 2, 3, 0, 1}));
  // die = channel + channels * slot: successive pages alternate channels.
  for (size_t i = 0; i < hal.programmed_dies().size(); ++i)
    EXPECT_EQ(hal.programmed_dies()[i] % cfg.flash.channels, i % 2) << "write " << i;
  // Each die appends to one block, page after page.
  std::vector<Ppa> die0;
  for (const auto& op : ops_of(hal, OpKind::kProgram))
    if (op.ppa.die == 0) die0.push_back(op.ppa);
  ASSERT_EQ(die0.size(), 3u);
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(die0[i].block, die0[0].block);
    EXPECT_EQ(die0[i].page, i);
  }
}

TEST(PageFtl, DramEntriesPerOperationAsDocumented) {
  const config::DriveConfig cfg = test::shipped("small_gc");
  FakeHal hal(cfg.flash);
  fw::PageFtl ftl(cfg, hal);
  uint64_t r0 = 0, w0 = 0;
  // Entries read and written since the previous call.
  auto delta = [&] {
    const std::pair<uint64_t, uint64_t> d{hal.dram_entries_read() - r0,
                                          hal.dram_entries_written() - w0};
    r0 = hal.dram_entries_read();
    w0 = hal.dram_entries_written();
    return d;
  };
  using D = std::pair<uint64_t, uint64_t>;
  PageToken t;
  ftl.read(8, t);
  EXPECT_EQ(delta(), (D{1, 0})) << "unmapped read: the L2P look-up only";
  ftl.write(8, PageToken{8, 1}, fw::kNoOp);
  EXPECT_EQ(delta(), (D{1, 2})) << "write: look-up, L2P and reverse-map updates";
  ftl.write(8, PageToken{8, 2}, fw::kNoOp);
  EXPECT_EQ(delta(), (D{1, 2})) << "overwrite";
  ftl.read(8, t);
  EXPECT_EQ(delta(), (D{1, 0})) << "mapped read";
  ftl.trim(8);
  EXPECT_EQ(delta(), (D{1, 1})) << "trim: look-up and L2P update";
  ftl.read(8, t);
  EXPECT_EQ(delta(), (D{1, 0})) << "read after trim";
  ftl.trim(8);
  EXPECT_EQ(delta(), (D{1, 0})) << "trim of an unmapped page: nothing to update";
}

TEST(PageFtl, UnmappedReadReturnsVersionZeroWithoutFlash) {
  const config::DriveConfig cfg = test::shipped("small_gc");
  FakeHal hal(cfg.flash);
  fw::PageFtl ftl(cfg, hal);
  PageToken t{999, 999};
  fw::Ftl::ReadResult r = ftl.read(42, t);
  EXPECT_FALSE(r.mapped);
  EXPECT_EQ(t, (PageToken{42, 0}));
  EXPECT_EQ(r.op, fw::kNoOp) << "answered by the look-up";
  EXPECT_EQ(hal.total_reads(), 0u);

  ftl.write(43, PageToken{43, 5}, fw::kNoOp);
  ftl.trim(43);
  t = PageToken{999, 999};
  r = ftl.read(43, t);
  EXPECT_FALSE(r.mapped) << "trimmed";
  EXPECT_EQ(t, (PageToken{43, 0}));
  EXPECT_EQ(hal.total_reads(), 0u);

  // A mapped page goes to flash and returns what the NAND holds.
  ftl.write(44, PageToken{44, 6}, fw::kNoOp);
  const sc_core::sc_time before = hal.now();
  r = ftl.read(44, t);
  EXPECT_TRUE(r.mapped);
  EXPECT_EQ(t, (PageToken{44, 6}));
  EXPECT_EQ(hal.total_reads(), 1u);
  EXPECT_EQ(hal.end_of(r.op), before + FakeHal::dram_time(1) + FakeHal::us(FakeHal::kIssueUs) +
                                  FakeHal::us(FakeHal::kReadUs));
}

TEST(PageFtl, OverwriteInvalidatesOldPage) {
  // One lpn written again and again: every full block holds only stale copies, so GC must
  // find empty victims and copy nothing. Were the old copies left valid, the die would run
  // out of reclaimable blocks (or GC would copy them).
  const config::DriveConfig cfg = one_die(16, 4, 0.3125, 2);
  FakeHal hal(cfg.flash);
  fw::PageFtl ftl(cfg, hal);
  const uint64_t writes = 4 * cfg.flash.total_pages();
  for (uint64_t v = 1; v <= writes; ++v) ftl.write(7, PageToken{7, v}, fw::kNoOp);
  EXPECT_GT(ftl.stats().gc_runs, 0u);
  EXPECT_GE(ftl.stats().blocks_erased, writes / 4 - 16);
  EXPECT_EQ(ftl.stats().gc_pages_copied, 0u);
  PageToken t;
  EXPECT_TRUE(ftl.read(7, t).mapped);
  EXPECT_EQ(t, (PageToken{7, writes}));
}

TEST(PageFtl, TrimmedPagesAreNotCopiedByGc) {
  const config::DriveConfig cfg = one_die(16, 4, 0.3125, 2);
  const Lpn logical = cfg.logical_pages();
  ASSERT_EQ(logical, 44u);  // 11 blocks
  FakeHal hal(cfg.flash);
  fw::PageFtl ftl(cfg, hal);
  uint64_t version = 0;
  // Fill the logical space, trim all but lpn 0, then keep rewriting lpn 0: only the blocks
  // holding lpn 0's current copy ever hold valid data, so nothing is copied.
  for (Lpn l = 0; l < logical; ++l) ftl.write(l, PageToken{l, ++version}, fw::kNoOp);
  for (Lpn l = 1; l < logical; ++l) ftl.trim(l);
  for (int i = 0; i < 200; ++i) ftl.write(0, PageToken{0, ++version}, fw::kNoOp);
  EXPECT_GT(ftl.stats().blocks_erased, 11u) << "the trimmed blocks were reclaimed";
  EXPECT_EQ(ftl.stats().gc_pages_copied, 0u);
}

TEST(PageFtl, GcNeverLosesData) {
  const config::DriveConfig cfg = test::shipped("small_gc");
  const uint64_t logical = cfg.logical_pages();
  ASSERT_EQ(logical, 6144u);
  FakeHal hal(cfg.flash);
  fw::PageFtl ftl(cfg, hal);
  std::mt19937_64 rng(20240611);
  std::unordered_map<Lpn, uint64_t> last;  // lpn -> last version written
  const uint64_t writes = 3 * logical;
  for (uint64_t v = 1; v <= writes; ++v) {
    const Lpn lpn = rng() % logical;
    ftl.write(lpn, PageToken{lpn, v}, fw::kNoOp);
    last[lpn] = v;
  }
  const fw::FtlStats& s = ftl.stats();
  EXPECT_GT(s.gc_runs, 0u);
  EXPECT_GT(s.blocks_erased, 0u);
  EXPECT_GT(s.gc_pages_copied, 0u);
  EXPECT_EQ(s.host_pages_written, writes);
  EXPECT_EQ(s.pages_programmed, s.host_pages_written + s.gc_pages_copied);
  EXPECT_EQ(s.gc_blocks_reclaimed, s.blocks_erased);
  EXPECT_EQ(hal.total_erases(), s.blocks_erased);
  EXPECT_EQ(hal.total_programs(), s.pages_programmed);
  EXPECT_EQ(hal.total_reads(), s.gc_pages_copied) << "each copy reads its page once";

  uint64_t bad = 0;
  for (Lpn lpn = 0; lpn < logical; ++lpn) {
    PageToken t;
    const fw::Ftl::ReadResult r = ftl.read(lpn, t);
    auto it = last.find(lpn);
    const PageToken want{lpn, it == last.end() ? 0 : it->second};
    if (r.mapped != (it != last.end()) || !(t == want)) {
      if (++bad <= 5)
        ADD_FAILURE() << "lpn " << lpn << ": got {" << t.lpn << ", " << t.version << "} mapped "
                      << r.mapped << ", want version " << want.version;
    }
  }
  EXPECT_EQ(bad, 0u);
  EXPECT_LT(last.size(), logical) << "some lpns never written, so unmapped reads were checked";
}

// After a power loss (Ftl::power_lost) the flush takes the free blocks GC keeps: pages are
// placed with no collection until the die has no free block left; then, as a last resort, GC
// runs. Every page still reads back its last version.
TEST(PageFtl, APowerLossFlushTakesTheFreeBlocksGcKeeps) {
  const config::DriveConfig cfg = one_die(16, 4, 0.375, 3);  // GC below 3 free blocks
  const Lpn logical = cfg.logical_pages();
  FakeHal hal(cfg.flash);
  fw::PageFtl ftl(cfg, hal);
  std::vector<uint64_t> last(logical, 0);
  uint64_t version = 0;
  Lpn lpn = 0;
  const auto write_next = [&] {
    ftl.write(lpn, PageToken{lpn, ++version}, fw::kNoOp);
    last[lpn] = version;
    lpn = (lpn + 1) % logical;
  };
  for (uint64_t i = 0; i < 3 * logical; ++i) write_next();
  const uint64_t runs = ftl.stats().gc_runs;
  ASSERT_GT(runs, 0u);
  ASSERT_GE(ftl.free_blocks(), 3u);  // the watermark held
  ftl.power_lost();
  uint64_t placed = 0;
  while (ftl.free_blocks() > 0) {
    write_next();
    ++placed;
    ASSERT_EQ(ftl.stats().gc_runs, runs) << "after " << placed << " pages";
  }
  EXPECT_GE(placed, 3 * 4u - 3);  // at least the free blocks' pages, less the open block's rest
  write_next();                   // no free block: the last resort
  EXPECT_EQ(ftl.stats().gc_runs, runs + 1);
  EXPECT_GE(ftl.free_blocks(), 1u);
  for (Lpn l = 0; l < logical; ++l) {
    PageToken t;
    ftl.read(l, t);
    EXPECT_EQ(t, (PageToken{l, last[l]})) << "lpn " << l;
  }
}

TEST(PageFtl, GcPicksGreedyVictim) {
  // One die, 16 blocks of 4 pages, GC below 4 free blocks. Free blocks are taken in order
  // (FIFO pool), so the block of every write is known.
  const config::DriveConfig cfg = one_die_at_old_rule(16, 4, 0.375, 4);
  ASSERT_EQ(cfg.logical_pages(), 40u);
  FakeHal hal(cfg.flash);
  fw::PageFtl ftl(cfg, hal);
  std::unordered_map<Lpn, uint64_t> last;
  uint64_t version = 0;
  auto write = [&](Lpn lpn) {
    ftl.write(lpn, PageToken{lpn, ++version}, fw::kNoOp);
    last[lpn] = version;
  };
  for (Lpn l = 0; l < 12; ++l) write(l);  // blocks 0, 1, 2
  for (Lpn l : {8, 9, 10, 4}) write(l);   // block 3
  // Valid pages now: block 0: 4 (oldest), block 1: 3, block 2: 1 (lpn 11), block 3: 4.
  for (Lpn l = 12; l < 40; ++l) write(l);   // blocks 4..10, all valid
  for (Lpn l : {12, 16, 20, 24}) write(l);  // block 11; blocks 4..7 drop to 3 valid
  write(28);                                // block 12 opened: 3 free; block 8 drops to 3
  ASSERT_EQ(ftl.stats().gc_runs, 0u);
  ASSERT_EQ(hal.total_erases(), 0u);

  const uint64_t dram_r = hal.dram_entries_read(), dram_w = hal.dram_entries_written();
  const size_t first_op = hal.ops().size();
  write(32);  // 3 free < 4: GC
  EXPECT_EQ(ftl.stats().gc_runs, 1u);

  // Greedy: block 2 (1 valid) first, although block 0 is older; then one of the 3-valid
  // blocks (1, 4..8), never a fully valid one. Two erases bring the die back to 4 free.
  const auto erases = ops_of(hal, OpKind::kErase, first_op);
  ASSERT_EQ(erases.size(), 2u);
  EXPECT_EQ(erases[0].ppa.block, 2u);
  const std::set<uint32_t> three_valid = {1, 4, 5, 6, 7, 8};
  EXPECT_EQ(three_valid.count(erases[1].ppa.block), 1u) << "block " << erases[1].ppa.block;
  EXPECT_EQ(ftl.stats().gc_pages_copied, 4u);
  EXPECT_EQ(ftl.stats().blocks_erased, 2u);

  // The copies go to GC's own block (block 13, next in the pool), not the host's block 12,
  // and the first is lpn 11, read from block 2 before it was erased.
  const auto copies = ops_of(hal, OpKind::kProgram, first_op);
  ASSERT_EQ(copies.size(), 5u);  // 4 copies, then the host page
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(copies[i].ppa.block, 13u);
    EXPECT_EQ(copies[i].ppa.page, i);
  }
  EXPECT_EQ(copies[0].token, (PageToken{11, last[11]}));
  EXPECT_EQ(copies[4].ppa.block, 12u);
  EXPECT_EQ(copies[4].ppa.page, 1u);
  EXPECT_EQ(copies[4].token, (PageToken{32, last[32]}));

  // DRAM: host write 1 + 2; per victim 1 look-up; per copied page 1 + 2.
  EXPECT_EQ(hal.dram_entries_read() - dram_r, 1u + 2 * 1 + 4 * 1);
  EXPECT_EQ(hal.dram_entries_written() - dram_w, 2u + 4 * 2);

  for (const auto& [lpn, v] : last) {
    PageToken t;
    ASSERT_TRUE(ftl.read(lpn, t).mapped);
    EXPECT_EQ(t, (PageToken{lpn, v})) << "lpn " << lpn;
  }
}

TEST(PageFtl, FullDriveAtMinimumOverprovisioningKeepsWorking) {
  // The validation rule (spare blocks >= gc_threshold_blocks + 3) at its limit, one die, the
  // whole logical space valid and rewritten at random: GC must always find a victim.
  const config::DriveConfig cfg = one_die(16, 4, 0.3125, 2);
  const uint64_t logical = cfg.logical_pages();
  FakeHal hal(cfg.flash);
  fw::PageFtl ftl(cfg, hal);
  std::vector<uint64_t> last(logical, 0);
  uint64_t version = 0;
  for (Lpn l = 0; l < logical; ++l) {
    ftl.write(l, PageToken{l, ++version}, fw::kNoOp);
    last[l] = version;
  }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 5000; ++i) {
    const Lpn l = rng() % logical;
    ASSERT_NO_THROW(ftl.write(l, PageToken{l, ++version}, fw::kNoOp)) << i;
    last[l] = version;
  }
  EXPECT_GT(ftl.stats().gc_pages_copied, 0u);
  for (Lpn l = 0; l < logical; ++l) {
    PageToken t;
    ftl.read(l, t);
    EXPECT_EQ(t, (PageToken{l, last[l]})) << "lpn " << l;
  }
}

TEST(PageFtl, NoReclaimableBlockRaisesDocumentedError) {
  // Reachable on a shipped, validated drive: dies take writes in strict rotation and GC
  // works within a die, so a host whose every 4th write is a new page and whose others
  // rewrite one hot page piles all its data onto die 0. Die 0 then has only fully valid
  // blocks although the drive holds less than a third of its logical capacity.
  const config::DriveConfig cfg = test::shipped("small_gc");
  ASSERT_EQ(cfg.flash.dies(), 4u);
  FakeHal hal(cfg.flash);
  fw::PageFtl ftl(cfg, hal);
  const Lpn hot = cfg.logical_pages() - 1;
  uint64_t version = 0;
  Lpn fresh = 0;
  std::string error;
  try {
    while (version < 4 * cfg.logical_pages()) {
      ftl.write(fresh, PageToken{fresh, ++version}, fw::kNoOp);  // die 0
      ++fresh;
      for (int i = 0; i < 3; ++i)
        ftl.write(hot, PageToken{hot, ++version}, fw::kNoOp);  // dies 1..3
    }
  } catch (const std::runtime_error& e) {
    error = e.what();
  }
  ASSERT_FALSE(error.empty()) << "die 0 never ran out of reclaimable blocks";
  EXPECT_NE(error.find("die 0 has no reclaimable block"), std::string::npos) << error;
  EXPECT_NE(error.find("holds only valid data"), std::string::npos) << error;
  // Die 0: 64 blocks, GC below 4 free: 60 full blocks + the open one's first page.
  EXPECT_EQ(fresh, 60u * 32 + 1);
  EXPECT_LT(fresh, cfg.logical_pages() / 3);
}

// ---------------------------------------------------------------------------------------
// Firmware (command processor over the page FTL)

constexpr uint64_t kPage = 4096;

struct FirmwareFixture {
  FirmwareFixture() : cfg(test::shipped("small_gc")), hal(cfg.flash), firmware(cfg, hal) {}
  sc_core::sc_time run(fw::CommandOp op, uint64_t offset, uint64_t length, uint64_t version = 0,
                       std::vector<PageToken>* data = nullptr) {
    return hal.done(firmware.execute(fw::HostCommand{op, offset, length, version}, data));
  }
  std::vector<PageToken> read(uint64_t offset, uint64_t length) {
    std::vector<PageToken> data;
    run(fw::CommandOp::Read, offset, length, 0, &data);
    return data;
  }
  config::DriveConfig cfg;
  FakeHal hal;
  fw::Firmware firmware;
};

TEST(Firmware, SplitsUnalignedCommandsIntoPages) {
  FirmwareFixture f;
  ASSERT_EQ(f.firmware.page_bytes(), kPage);
  // Bytes 2*4096+100 .. 4*4096+100: a partial page 2, whole page 3, partial page 4.
  f.run(fw::CommandOp::Write, 2 * kPage + 100, 2 * kPage, 7);
  EXPECT_EQ(f.firmware.stats().page_writes, 3u);
  const auto programs = ops_of(f.hal, OpKind::kProgram);
  ASSERT_EQ(programs.size(), 3u);
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(programs[i].token, (PageToken{2 + i, 7}));

  // Last byte of page 2 and first of page 3.
  EXPECT_EQ(f.read(2 * kPage + 4000, 200), (std::vector<PageToken>{{2, 7}, {3, 7}}));
  EXPECT_EQ(f.read(4 * kPage + 1, 1), (std::vector<PageToken>{{4, 7}}));
  // An aligned page ends at the boundary: one page, not two.
  EXPECT_EQ(f.read(3 * kPage, kPage), (std::vector<PageToken>{{3, 7}}));
  EXPECT_EQ(f.read(0, 5 * kPage), (std::vector<PageToken>{{0, 0}, {1, 0}, {2, 7}, {3, 7}, {4, 7}}));
  EXPECT_EQ(f.firmware.stats().page_reads, 2u + 1 + 1 + 5);
  EXPECT_EQ(f.firmware.stats().unmapped_reads, 2u);
  EXPECT_EQ(f.firmware.stats().commands, 5u);

  // Rewriting the same unaligned range now reads the two partial pages, not the whole one.
  const size_t first_op = f.hal.ops().size();
  f.run(fw::CommandOp::Write, 2 * kPage + 100, 2 * kPage, 8);
  EXPECT_EQ(f.firmware.stats().rmw_reads, 2u);
  const auto reads = ops_of(f.hal, OpKind::kRead, first_op);
  ASSERT_EQ(reads.size(), 2u);
  EXPECT_EQ(reads[0].token, (PageToken{2, 7}));
  EXPECT_EQ(reads[1].token, (PageToken{4, 7}));
}

TEST(Firmware, PartialWriteToMappedPageReadsFirst) {
  FirmwareFixture f;
  f.run(fw::CommandOp::Write, kPage, kPage, 1);
  EXPECT_EQ(f.firmware.stats().rmw_reads, 0u);
  const size_t first_op = f.hal.ops().size();

  const sc_core::sc_time done = f.run(fw::CommandOp::Write, kPage + 512, 1024, 2);
  EXPECT_EQ(f.firmware.stats().rmw_reads, 1u);
  ASSERT_EQ(f.hal.ops().size(), first_op + 2);
  const FakeHal::FlashOp& read = f.hal.ops()[first_op];
  const FakeHal::FlashOp& program = f.hal.ops()[first_op + 1];
  ASSERT_EQ(read.kind, OpKind::kRead) << "the old page is read before the program";
  ASSERT_EQ(program.kind, OpKind::kProgram);
  EXPECT_EQ(read.token, (PageToken{1, 1}));
  EXPECT_EQ(program.token, (PageToken{1, 2}));
  // The merged page can only be programmed once the old data is in the buffer.
  EXPECT_EQ(program.data_ready, read.done);
  EXPECT_EQ(done, read.done + FakeHal::us(FakeHal::kProgramUs));
  EXPECT_GT(done, program.issued + FakeHal::us(FakeHal::kProgramUs)) << "data_ready was waited";
  EXPECT_EQ(f.read(kPage, 1), (std::vector<PageToken>{{1, 2}}));
}

TEST(Firmware, PartialWriteToUnmappedPageDoesNotRead) {
  FirmwareFixture f;
  f.run(fw::CommandOp::Write, 3 * kPage + 10, 100, 1);
  EXPECT_EQ(f.firmware.stats().rmw_reads, 0u);
  EXPECT_EQ(f.hal.total_reads(), 0u);
  const auto programs = ops_of(f.hal, OpKind::kProgram);
  ASSERT_EQ(programs.size(), 1u);
  EXPECT_EQ(programs[0].data_ready, sc_core::SC_ZERO_TIME);

  // Trimmed pages are unmapped again: nothing to merge.
  f.run(fw::CommandOp::Write, 5 * kPage, kPage, 2);
  f.run(fw::CommandOp::Trim, 5 * kPage, kPage);
  f.run(fw::CommandOp::Write, 5 * kPage + 1, 1, 3);
  EXPECT_EQ(f.firmware.stats().rmw_reads, 0u);
  EXPECT_EQ(f.hal.total_reads(), 0u);
}

TEST(Firmware, PartialTrimDoesNotUnmap) {
  FirmwareFixture f;
  f.run(fw::CommandOp::Write, 0, 4 * kPage, 1);
  // Bytes 1 .. 4*4096-1: pages 0 and 3 partly, 1 and 2 whole.
  f.run(fw::CommandOp::Trim, 1, 4 * kPage - 2);
  EXPECT_EQ(f.firmware.stats().page_trims, 2u);
  EXPECT_EQ(f.read(0, 4 * kPage), (std::vector<PageToken>{{0, 1}, {1, 0}, {2, 0}, {3, 1}}));
  EXPECT_EQ(f.firmware.stats().unmapped_reads, 2u);
  // Inside one page: nothing trimmed.
  f.run(fw::CommandOp::Trim, 3 * kPage + 10, 100);
  EXPECT_EQ(f.firmware.stats().page_trims, 2u);
  EXPECT_EQ(f.read(3 * kPage, kPage), (std::vector<PageToken>{{3, 1}}));

  // A whole-page trim is done when the mapping is: command and page compute, 2 entries.
  const sc_core::sc_time start = f.hal.now();
  const sc_core::sc_time done = f.run(fw::CommandOp::Trim, 0, kPage);
  EXPECT_EQ(done, start + FakeHal::us(f.cfg.controller.t_fw_per_cmd_us) +
                      FakeHal::us(f.cfg.controller.t_fw_per_page_us) + FakeHal::dram_time(2));
  EXPECT_EQ(f.read(0, kPage), (std::vector<PageToken>{{0, 0}}));
}

TEST(Firmware, ThreePageWriteCompletesWithLastProgram) {
  FirmwareFixture f;
  const auto& c = f.cfg.controller;
  ASSERT_EQ(c.t_fw_per_cmd_us, 2);
  ASSERT_EQ(c.t_fw_per_page_us, 1);
  const sc_core::sc_time done = f.run(fw::CommandOp::Write, 0, 3 * kPage, 1);
  // Per page: FTL step, 3 table entries, command issue; the third page's program ends last.
  const sc_core::sc_time step =
      FakeHal::us(c.t_fw_per_page_us) + FakeHal::dram_time(3) + FakeHal::us(FakeHal::kIssueUs);
  const sc_core::sc_time expected =
      FakeHal::us(c.t_fw_per_cmd_us) + step * 3 + FakeHal::us(FakeHal::kProgramUs);
  EXPECT_EQ(done, expected);
  EXPECT_EQ(expected, FakeHal::us(2 + 3 * (1 + 0.15 + 30) + 500));  // 595.45 us
  EXPECT_GT(done, f.hal.now()) << "the flash finishes long after the controller moved on";
}

TEST(Firmware, ReadCompletesWithLatestPageNotLastPage) {
  FirmwareFixture f;
  f.run(fw::CommandOp::Write, 0, kPage, 1);
  const sc_core::sc_time start = f.hal.now();
  std::vector<PageToken> data;
  // Page 0 comes from flash; page 1 was never written and is ready as soon as it is looked
  // up, long before page 0's data arrives.
  const sc_core::sc_time done = f.run(fw::CommandOp::Read, 0, 2 * kPage, 0, &data);
  EXPECT_EQ(data, (std::vector<PageToken>{{0, 1}, {1, 0}}));
  const auto& c = f.cfg.controller;
  EXPECT_EQ(done, start + FakeHal::us(c.t_fw_per_cmd_us + c.t_fw_per_page_us) +
                      FakeHal::dram_time(1) + FakeHal::us(FakeHal::kIssueUs + FakeHal::kReadUs));
}

// ---------------------------------------------------------------------------------------
// Scoreboard

// A write (version > 0) or trim (version 0) of one page, issued and completed at once.
void commit(ip::Scoreboard& sb, Lpn lpn, uint64_t version) {
  sb.update_completed(lpn, version, sb.update_issued(lpn, version));
}

std::string last_message(const ip::Scoreboard& sb) {
  return sb.messages().empty() ? "(no message)" : sb.messages().back();
}

// Whether the latest mismatch message contains every word.
bool mentions(const ip::Scoreboard& sb, const std::vector<std::string>& words) {
  if (sb.messages().empty()) return false;
  for (const auto& w : words)
    if (sb.messages().back().find(w) == std::string::npos) return false;
  return true;
}

TEST(Scoreboard, QuietReadMustReturnLastVersion) {
  ip::Scoreboard sb;
  commit(sb, 5, 3);
  commit(sb, 5, 7);
  sb.check(sb.watch(5), PageToken{5, 7});
  EXPECT_EQ(sb.mismatches(), 0u);
  sb.check(sb.watch(5), PageToken{5, 3});
  EXPECT_EQ(sb.mismatches(), 1u) << "an older version";
  EXPECT_TRUE(mentions(sb, {"page 5", "version 3", "version 7"})) << last_message(sb);
  sb.check(sb.watch(5), PageToken{5, 8});
  EXPECT_EQ(sb.mismatches(), 2u) << "a version never written";
  sb.check(sb.watch(5), PageToken{5, 0});
  EXPECT_EQ(sb.mismatches(), 3u) << "data lost";
  EXPECT_EQ(sb.pages_checked(), 4u);
}

TEST(Scoreboard, AMismatchNamesTheFlowThatReadIt) {
  ip::Scoreboard sb;
  commit(sb, 5, 7);
  const std::string flow = "reader";
  sb.check(sb.watch(5), PageToken{5, 3}, &flow);
  EXPECT_EQ(sb.mismatches(), 1u);
  EXPECT_TRUE(mentions(sb, {"page 5", "version 3", "(flow reader)"})) << last_message(sb);
}

TEST(Scoreboard, WrongLpnIsMismatch) {
  ip::Scoreboard sb;
  commit(sb, 5, 7);
  commit(sb, 6, 7);
  sb.check(sb.watch(5), PageToken{6, 7});
  EXPECT_EQ(sb.mismatches(), 1u);
  EXPECT_TRUE(mentions(sb, {"page 5", "page 6"})) << last_message(sb);
  // Also while the page is being written, when any recent version would do.
  sb.update_issued(5, 9);
  sb.check(sb.watch(5), PageToken{6, 9});
  EXPECT_EQ(sb.mismatches(), 2u);
}

TEST(Scoreboard, OverlappingReadAcceptsOldOrNewButNotOlder) {
  ip::Scoreboard sb;
  commit(sb, 5, 3);
  commit(sb, 5, 5);
  const uint32_t epoch = sb.update_issued(5, 7);  // in flight while the read is issued
  const ip::Scoreboard::Watch w = sb.watch(5);
  EXPECT_FALSE(w.quiet);
  sb.check(w, PageToken{5, 5});
  sb.check(w, PageToken{5, 7});
  EXPECT_EQ(sb.mismatches(), 0u);
  sb.check(w, PageToken{5, 3});
  EXPECT_EQ(sb.mismatches(), 1u) << "older than the committed version";
  EXPECT_TRUE(mentions(sb, {"page 5", "version 3", "was 5"})) << last_message(sb);
  sb.check(w, PageToken{5, 0});
  EXPECT_EQ(sb.mismatches(), 2u) << "no trim was issued";
  sb.check(w, PageToken{5, 9});
  EXPECT_EQ(sb.mismatches(), 3u) << "never issued";
  // The write completing before the read does not change what the read may return.
  sb.update_completed(5, 7, epoch);
  sb.check(w, PageToken{5, 5});
  sb.check(w, PageToken{5, 7});
  EXPECT_EQ(sb.mismatches(), 3u);
  // A read issued now is quiet again: only the new version.
  sb.check(sb.watch(5), PageToken{5, 5});
  EXPECT_EQ(sb.mismatches(), 4u);
}

TEST(Scoreboard, TrimMakesExpectedVersionZero) {
  ip::Scoreboard sb;
  commit(sb, 5, 4);
  commit(sb, 5, 0);
  sb.check(sb.watch(5), PageToken{5, 0});
  EXPECT_EQ(sb.mismatches(), 0u);
  sb.check(sb.watch(5), PageToken{5, 4});
  EXPECT_EQ(sb.mismatches(), 1u) << "trimmed data came back";
  EXPECT_TRUE(mentions(sb, {"page 5", "version 4", "version 0"})) << last_message(sb);
  // A read overlapping a trim may see it or not.
  commit(sb, 6, 4);
  sb.update_issued(6, 0);
  const ip::Scoreboard::Watch w = sb.watch(6);
  sb.check(w, PageToken{6, 4});
  sb.check(w, PageToken{6, 0});
  EXPECT_EQ(sb.mismatches(), 1u);
}

// A write a read-only drive refused (flash.faults) never happened: the page holds what it held,
// reads overlapping it may not return it, and of two in flight the other stays expected.
TEST(Scoreboard, AFailedUpdateLeavesThePageAsItWas) {
  ip::Scoreboard sb;
  commit(sb, 5, 3);
  const uint32_t e = sb.update_issued(5, 7);
  const ip::Scoreboard::Watch during = sb.watch(5);
  sb.update_failed(5, 7, e);
  sb.check(during, PageToken{5, 3});
  EXPECT_EQ(sb.mismatches(), 0u);
  sb.check(during, PageToken{5, 7});
  EXPECT_EQ(sb.mismatches(), 1u) << "a refused write's data";
  sb.release(during);
  sb.check(sb.watch(5), PageToken{5, 3});
  EXPECT_EQ(sb.mismatches(), 1u);
  // The later of two in flight fails first: the earlier is still the one expected once it
  // completes; both fail: the committed one.
  const uint32_t e8 = sb.update_issued(5, 8);
  const uint32_t e9 = sb.update_issued(5, 9);
  sb.update_failed(5, 9, e9);
  sb.update_completed(5, 8, e8);
  sb.check(sb.watch(5), PageToken{5, 8});
  const uint32_t e10 = sb.update_issued(6, 10);
  const uint32_t e11 = sb.update_issued(6, 11);
  sb.update_failed(6, 10, e10);
  sb.update_failed(6, 11, e11);
  sb.check(sb.watch(6), PageToken{6, 0});
  EXPECT_EQ(sb.mismatches(), 1u) << last_message(sb);
  EXPECT_EQ(sb.refused(), 4u);
}

TEST(Scoreboard, NeverWrittenPagesExpectZero) {
  ip::Scoreboard sb;
  sb.check(sb.watch(42), PageToken{42, 0});
  EXPECT_EQ(sb.mismatches(), 0u);
  sb.check(sb.watch(42), PageToken{42, 1});
  EXPECT_EQ(sb.mismatches(), 1u);
  EXPECT_TRUE(mentions(sb, {"page 42", "version 1", "version 0"})) << last_message(sb);
}

TEST(Scoreboard, KeepsOnlyFirstMessagesButCountsAll) {
  ip::Scoreboard sb;
  for (Lpn l = 0; l < 25; ++l) sb.check(sb.watch(l), PageToken{l, 1});
  EXPECT_EQ(sb.mismatches(), 25u);
  EXPECT_EQ(sb.messages().size(), 10u);
  EXPECT_NE(sb.messages().front().find("page 0 "), std::string::npos);
}

// A trim in flight when a read is issued may be applied before the read, so version 0 is a
// legal answer, even when the trim completes before the read is checked. (Regression: an
// earlier scoreboard forgot the trim once it completed and reported a false mismatch.)
TEST(Scoreboard, ReadOverlappingTrimThatCompletesFirstAcceptsZero) {
  ip::Scoreboard sb;
  commit(sb, 5, 4);
  const uint32_t trim = sb.update_issued(5, 0);  // trim in flight
  const ip::Scoreboard::Watch w = sb.watch(5);   // read issued
  sb.update_completed(5, 0, trim);               // trim completes
  sb.check(w, PageToken{5, 0});                  // the drive applied the trim first
  EXPECT_EQ(sb.mismatches(), 0u) << last_message(sb);
}

// After a committed trim, a read overlapping a later write may return 0 or the new version,
// never data written before the trim. (Regression: an earlier scoreboard accepted any
// version above the committed one, and a trim commits as 0.)
TEST(Scoreboard, ReadOverlappingWriteAfterTrimRejectsPreTrimData) {
  ip::Scoreboard sb;
  commit(sb, 5, 4);
  commit(sb, 5, 0);        // trimmed
  sb.update_issued(5, 9);  // write in flight
  sb.check(sb.watch(5), PageToken{5, 4});
  EXPECT_EQ(sb.mismatches(), 1u) << "version 4 was trimmed before the read was issued";
}

// Values of busy pages are kept in records reused from page to page: a page that goes quiet
// keeps its last version, and another page's overlapping read starts from its own.
TEST(Scoreboard, QuietPagesKeepTheirVersionWhileRecordsMoveOn) {
  ip::Scoreboard sb;
  const uint32_t epoch5 = sb.update_issued(5, 3);
  const uint32_t epoch6 = sb.update_issued(6, 4);
  sb.update_completed(5, 3, epoch5);  // page 5 quiet: its record is free
  sb.update_issued(7, 8);             // and taken by page 7
  const ip::Scoreboard::Watch w7 = sb.watch(7);
  sb.check(w7, PageToken{7, 0});  // not yet written: the committed value
  sb.check(w7, PageToken{7, 8});
  sb.check(w7, PageToken{7, 3});
  EXPECT_EQ(sb.mismatches(), 1u) << "page 5's version is not page 7's";
  const ip::Scoreboard::Watch w5 = sb.watch(5);
  sb.check(w5, PageToken{5, 3});
  sb.release(w5);  // page 5 quiet again
  sb.update_completed(6, 4, epoch6);
  sb.check(sb.watch(6), PageToken{6, 4});
  EXPECT_EQ(sb.mismatches(), 1u) << last_message(sb);
  for (uint64_t v = 10; v < 20; ++v) commit(sb, 5, v);  // ten busy periods
  sb.check(sb.watch(5), PageToken{5, 18});
  EXPECT_TRUE(mentions(sb, {"page 5", "version 18", "last written was version 19"}))
      << last_message(sb);
}

}  // namespace
}  // namespace ssd
