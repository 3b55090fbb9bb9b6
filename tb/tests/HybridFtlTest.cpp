// The log-block FTLs (bast, bast_star, fast, last) on FakeHal: each merge type, BAST's
// replacements, BAST*'s fallback and wear-levelling swap, FAST's sequential and random logs,
// LAST's hot/cold separation, on small hand-built scenarios. Block numbers follow from the
// FIFO free pool (block 0 first) and the rules in firmware/ftl/LogBlockFtl.h and the FTL's
// header; every scenario also checks the data and the program identity.
#include <gtest/gtest.h>

#include <random>

#include "firmware/ftl/LastFtl.h"
#include "tb/tests/LogFtlRig.h"

namespace ssd {
namespace {

using test::FakeHal;
using test::LogFtlRig;
using OpKind = FakeHal::OpKind;

// One die of 16 blocks of 4 pages, 75 % hidden: 16 logical pages = 4 logical blocks (lpn
// 4b .. 4b + 3). log_block_fraction 0.01 gives ceil(0.04) = 1: bast 1 log block, fast 1 random
// + the sequential one.
config::DriveConfig one_die(const std::string& type) {
  return test::log_drive(type, 1, 16, 4, 0.75, 0.01);
}

// ---------------------------------------------------------------------------------------
// BAST

TEST(Bast, FullSequentialLogBlockSwitchesWithoutCopies) {
  LogFtlRig rig(one_die("bast"));
  rig.write_range(0, 4);  // log block 0 fills in order: it becomes the data block
  EXPECT_EQ(rig.log_stats().merges_switch, 1u);
  EXPECT_EQ(rig.stats().blocks_erased, 0u);  // there was no old data block
  rig.write_range(0, 4);  // again, into log block 1: the old data block 0 is erased
  EXPECT_EQ(rig.log_stats().merges_switch, 2u);
  EXPECT_EQ(rig.log_stats().merge_pages_copied, 0u);
  EXPECT_EQ(rig.stats().blocks_erased, 1u);
  const auto erases = rig.ops(OpKind::kErase);
  ASSERT_EQ(erases.size(), 1u);
  EXPECT_EQ(erases[0].ppa.block, 0u);
  EXPECT_EQ(rig.hal().total_reads(), 0u);
  rig.check_all();
  rig.expect_program_identity();
}

TEST(Bast, ReplacingAnIncompleteSequentialLogBlockIsAPartialMerge) {
  LogFtlRig rig(one_die("bast"));
  rig.write_range(0, 4);  // data block 0
  rig.write_range(0, 2);  // log block 1 holds offsets 0, 1
  const size_t from = rig.op_count();
  rig.write(4);  // logical block 1 needs the only log block: replacement
  EXPECT_EQ(rig.figure("merges", "replacements"), 1u);
  EXPECT_EQ(rig.log_stats().merges_partial, 1u);
  EXPECT_EQ(rig.log_stats().merge_pages_copied, 2u);  // offsets 2, 3 from data block 0
  EXPECT_EQ(rig.stats().blocks_erased, 1u);           // data block 0
  const auto programs = rig.ops(OpKind::kProgram, from);
  ASSERT_EQ(programs.size(), 3u);
  EXPECT_EQ(programs[0].ppa.block, 1u);
  EXPECT_EQ(programs[0].ppa.page, 2u);
  EXPECT_EQ(programs[1].ppa.page, 3u);
  EXPECT_EQ(programs[2].ppa.block, 2u);  // logical block 1's new log block
  rig.check_all();
  rig.expect_program_identity();
}

TEST(Bast, OutOfOrderLogBlockFullMergesIntoANewBlock) {
  LogFtlRig rig(one_die("bast"));
  rig.write_range(0, 4);                        // data block 0
  for (fw::Lpn l : {2, 1, 2, 3}) rig.write(l);  // log block 1: full, page 0 stale
  EXPECT_EQ(rig.log_stats().merges_full, 1u);
  EXPECT_EQ(rig.log_stats().merge_pages_copied, 4u);  // offset 0 from data, 1-3 from the log
  EXPECT_EQ(rig.stats().blocks_erased, 2u);           // old data block and the log block
  EXPECT_EQ(rig.log_stats().log_blocks_erased, 1u);
  const auto erases = rig.ops(OpKind::kErase);
  ASSERT_EQ(erases.size(), 2u);
  EXPECT_EQ(erases[0].ppa.block, 0u);
  EXPECT_EQ(erases[1].ppa.block, 1u);
  for (const auto& p : rig.ops(OpKind::kProgram, 8)) EXPECT_EQ(p.ppa.block, 2u);
  rig.check_all();
  rig.expect_program_identity();
}

TEST(Bast, EveryNewLogicalBlockReplacesTheOnlyLogBlock) {
  LogFtlRig rig(one_die("bast"));
  for (fw::Lpn lbn = 0; lbn < 4; ++lbn) rig.write(lbn * 4 + 1);
  // Each replacement full-merges a log block holding offset 1 only: pad 0, copy 1.
  EXPECT_EQ(rig.figure("merges", "replacements"), 3u);
  EXPECT_EQ(rig.log_stats().merges_full, 3u);
  EXPECT_EQ(rig.log_stats().merge_pages_copied, 3u);
  EXPECT_EQ(rig.log_stats().pages_padded, 3u);
  EXPECT_EQ(rig.stats().blocks_erased, 3u);
  EXPECT_EQ(rig.log_stats().log_blocks_erased, 3u);
  rig.check_all();
  rig.expect_program_identity();
}

// A replacement by hand, from FakeHal's costs and small_gc's t_fw_per_page_us = 1 us: logical
// block 0 holds the only log block (offset 1 in block 0); a write to logical block 1 finds
// none free, so the least recently written log block is cleaned (a full merge of logical
// block 0 into block 1: offset 0 padded, offset 1 copied from the log), its block erased, and
// the write takes a new block (2) from the pool.
TEST(Bast, ReplacementMergesTheVictimErasesItsBlockAndTakesANewOne) {
  LogFtlRig rig(one_die("bast"));
  rig.write(1);
  const size_t from = rig.op_count();
  const sc_core::sc_time t0 = rig.hal().now();
  const sc_core::sc_time done = rig.write(5);
  const auto at = [&](double us) { return t0 + FakeHal::us(us); };
  // Victim search: 1 candidate (1 us + 1 DRAM read) -> 1.05; the log block's reverse map
  // (1 read) -> 1.10; the top offset (4 reads) -> 1.30; the block map (1 write) -> 1.35.
  // Offset 0: a step (1 us), padding issued (30 us) -> 32.35, programmed at 532.35.
  // Offset 1: a step -> 33.35; the log copy read -> 63.35, read at 113.35; its program issued
  // -> 93.35, starts when the read ends, 613.35; the log entry dropped (1 write) -> 93.40.
  // The log block erased: issued -> 123.40, erased at 2123.40. The host page: log map reads
  // and writes (2 + 2) -> 123.60, issued -> 153.60, programmed at 653.60.
  const auto ops = std::vector<FakeHal::FlashOp>(rig.hal().ops().begin() + ptrdiff_t(from),
                                                 rig.hal().ops().end());
  ASSERT_EQ(ops.size(), 5u);
  EXPECT_EQ(ops[0].kind, OpKind::kProgram);
  EXPECT_EQ(ops[0].ppa.block, 1u);
  EXPECT_EQ(ops[0].ppa.page, 0u);
  EXPECT_EQ(ops[0].done, at(532.35));
  EXPECT_EQ(ops[1].kind, OpKind::kRead);
  EXPECT_EQ(ops[1].ppa.block, 0u);
  EXPECT_EQ(ops[1].done, at(113.35));
  EXPECT_EQ(ops[2].kind, OpKind::kProgram);
  EXPECT_EQ(ops[2].ppa.block, 1u);
  EXPECT_EQ(ops[2].ppa.page, 1u);
  EXPECT_EQ(ops[2].done, at(613.35));
  EXPECT_EQ(ops[3].kind, OpKind::kErase);
  EXPECT_EQ(ops[3].ppa.block, 0u);
  EXPECT_EQ(ops[3].done, at(2123.40));
  EXPECT_EQ(ops[4].kind, OpKind::kProgram);
  EXPECT_EQ(ops[4].ppa.block, 2u);
  EXPECT_EQ(ops[4].ppa.page, 0u);
  EXPECT_EQ(done, at(653.60));
  EXPECT_EQ(rig.hal().now(), at(153.60));
  EXPECT_EQ(rig.figure("merges", "replacements"), 1u);
  EXPECT_EQ(rig.log_stats().merges_full, 1u);
  EXPECT_EQ(rig.log_stats().log_blocks_erased, 1u);
  rig.check_all();
  rig.expect_program_identity();
}

// ---------------------------------------------------------------------------------------
// BAST*

TEST(BastStar, WithoutAFreeLogBlockWritesGoToTheDataBlock) {
  LogFtlRig rig(one_die("bast_star"));
  rig.write(1);  // logical block 0 takes the only log block (block 0)
  rig.write(5);  // logical block 1: no replacement; in place in a new data block (block 1)
  EXPECT_EQ(rig.figure("merges", "replacements"), 0u);
  EXPECT_EQ(rig.figure("merges", "fallbacks"), 1u);
  EXPECT_EQ(rig.log_stats().pages_padded, 1u);
  EXPECT_EQ(rig.stats().blocks_erased, 0u);
  const auto programs = rig.ops(OpKind::kProgram);
  ASSERT_EQ(programs.size(), 3u);
  EXPECT_EQ(programs[2].ppa.block, 1u);
  EXPECT_EQ(programs[2].ppa.page, 1u);
  // Below the write pointer: copy-on-update into block 2, erasing block 1. No swap: the
  // die's average (1/16 erase) is below 100/15.
  rig.write(4);
  EXPECT_EQ(rig.figure("merges", "fallbacks"), 2u);
  EXPECT_EQ(rig.log_stats().merges_full, 1u);
  EXPECT_EQ(rig.log_stats().merge_pages_copied, 1u);
  EXPECT_EQ(rig.figure("merges", "wl_swaps"), 0u);
  const auto erases = rig.ops(OpKind::kErase);
  ASSERT_EQ(erases.size(), 1u);
  EXPECT_EQ(erases[0].ppa.block, 1u);
  rig.check_all();
  rig.expect_program_identity();
}

TEST(BastStar, HotVictimSwapsWithTheColdestDataBlock) {
  LogFtlRig rig(one_die("bast_star"));
  rig.write_range(0, 16);  // four switches: logical blocks 0-3 in blocks 0-3, no erase
  EXPECT_EQ(rig.log_stats().merges_switch, 4u);
  EXPECT_EQ(rig.figure("merges", "wl_swaps"), 0u);
  // Rewriting logical block 0 switches a log block in and erases its old data block: one
  // erase per round, spread by the FIFO pool over the 13 blocks not holding logical blocks
  // 1-3. Levelling waits for the die's average to reach 100/15: 107 erases over 16 blocks.
  // Then the block just erased has 107 / 13 > 8 erases, above 1.15 x 107/16 = 7.7; every data
  // block but logical block 0's is unerased, and logical block 1 holds the oldest data, so
  // its block 1 moves into the hot block and block 1 is erased.
  for (int round = 1; round < 106; ++round) rig.write_range(0, 4);
  EXPECT_EQ(rig.stats().blocks_erased, 105u);
  EXPECT_EQ(rig.figure("merges", "wl_swaps"), 0u);
  // The round before and the swap's round do the same merge work; the swap adds, on the core:
  // 4 candidates (the 4 data blocks, 1 us + 1 DRAM read each: 4.2 us), 4 copies (a step, a
  // read issued and a program issued: 61 us each), the block map (1 write) and the cold
  // block's erase issued (30 us): 278.25 us.
  const sc_core::sc_time before_last = rig.hal().now();
  rig.write_range(0, 4);
  const sc_core::sc_time round = rig.hal().now() - before_last;
  EXPECT_EQ(rig.figure("merges", "wl_swaps"), 0u);
  const size_t from = rig.op_count();
  const sc_core::sc_time before_swap = rig.hal().now();
  rig.write_range(0, 4);
  EXPECT_EQ(rig.hal().now() - before_swap, round + FakeHal::us(278.25));
  EXPECT_EQ(rig.figure("merges", "wl_swaps"), 1u);
  EXPECT_EQ(rig.stats().wl_pages_copied, 4u);
  EXPECT_EQ(rig.stats().blocks_erased, 108u);
  const auto erases = rig.ops(OpKind::kErase, from);
  ASSERT_EQ(erases.size(), 2u);
  const uint32_t hot = erases[0].ppa.block;
  EXPECT_EQ(erases[1].ppa.block, 1u);
  const auto copies = rig.ops(OpKind::kProgram, from + 4);
  ASSERT_EQ(copies.size(), 4u);
  for (uint32_t p = 0; p < 4; ++p) {
    EXPECT_EQ(copies[p].ppa.block, hot);
    EXPECT_EQ(copies[p].token.lpn, 4u + p);
  }
  // Logical block 1 is now read from the hot block.
  const size_t before = rig.op_count();
  rig.check(5);
  EXPECT_EQ(rig.ops(OpKind::kRead, before).at(0).ppa.block, hot);
  rig.check_all();
  rig.expect_program_identity();
}

// Logical blocks 0-3 rewritten over and over, 4-15 written once: without levelling the cold
// data pins 12 blocks at 0 erases while the rest wear; BAST* moves it onto worn blocks.
TEST(BastStar, LevellingNarrowsTheEraseSpreadOfAHotColdWorkload) {
  uint32_t spread[2];
  for (int star = 0; star < 2; ++star) {
    LogFtlRig rig(test::log_drive(star ? "bast_star" : "bast", 1, 40, 4, 0.6, 0.01));
    rig.write_range(0, rig.cfg().logical_pages());
    // 4 erases a round; levelling starts once the average reaches 100/15 (about round 67).
    for (int round = 0; round < 300; ++round) rig.write_range(0, 16);
    rig.check_all();
    rig.expect_program_identity();
    const auto summary = rig.ftl().erase_summary();
    ASSERT_TRUE(summary.has_value());
    spread[star] = summary->max - summary->min;
    EXPECT_EQ(rig.figure("merges", "wl_swaps") > 0, star == 1);
  }
  EXPECT_GE(spread[0], 10u);
  EXPECT_LE(spread[1] * 2, spread[0]) << "bast " << spread[0] << ", bast_star " << spread[1];
}

// Every swap, replayed from the NAND's own erase log: the hot block had at least 1.15 x the
// die's average erase count when chosen, and the block it took data from had fewer erases.
TEST(BastStar, EverySwapMeetsTheThresholdRule) {
  LogFtlRig rig(test::log_drive("bast_star", 1, 40, 4, 0.6, 0.05));
  const uint64_t pages = rig.cfg().logical_pages();
  std::vector<uint32_t> count(40, 0);
  uint64_t sum = 0;
  std::mt19937_64 rng(5);
  for (int i = 0; i < 4000; ++i) {
    const size_t from = rig.op_count();
    const uint64_t swaps = rig.figure("merges", "wl_swaps");
    // Mostly a hot quarter of the drive, in short runs.
    const fw::Lpn start = (rng() % 4 == 0 ? rng() % pages : rng() % (pages / 4));
    rig.write(start);
    const uint64_t w = rig.figure("merges", "wl_swaps") - swaps;
    const auto& ops = rig.hal().ops();
    std::vector<size_t> erases;
    for (size_t k = from; k < ops.size(); ++k)
      if (ops[k].kind == OpKind::kErase) erases.push_back(k);
    ASSERT_GE(erases.size(), w);
    const size_t merge_erases = erases.size() - w;
    for (size_t e = 0; e < merge_erases; ++e) {
      ++count[ops[erases[e]].ppa.block];
      ++sum;
    }
    for (size_t e = merge_erases; e < erases.size(); ++e) {
      // The swap's copies go to the hot block, just before its erase of the cold one.
      const size_t copy_from =
          e == merge_erases ? (merge_erases ? erases[e - 1] : from) : erases[e - 1];
      uint32_t hot = ~0u;
      for (size_t k = copy_from; k < erases[e]; ++k)
        if (ops[k].kind == OpKind::kProgram) hot = ops[k].ppa.block;
      ASSERT_NE(hot, ~0u);
      const uint32_t cold = ops[erases[e]].ppa.block;
      EXPECT_GE(uint64_t(count[hot]) * 100 * 40, 115 * sum) << "write " << i;
      EXPECT_GE(sum * 15, 100u * 40) << "write " << i << ": average below 100/15";
      EXPECT_LT(count[cold], count[hot]) << "write " << i;
      ++count[cold];
      ++sum;
    }
    if (i % 97 == 0) rig.check(start);
  }
  EXPECT_GT(rig.figure("merges", "wl_swaps"), 10u);
  rig.check_all();
  rig.expect_program_identity();
}

// ---------------------------------------------------------------------------------------
// FAST

TEST(Fast, SequentialLogBlockSwitches) {
  LogFtlRig rig(one_die("fast"));
  rig.write_range(0, 4);
  EXPECT_EQ(rig.log_stats().merges_switch, 1u);
  EXPECT_EQ(rig.stats().blocks_erased, 0u);
  rig.write_range(0, 4);
  EXPECT_EQ(rig.log_stats().merges_switch, 2u);
  EXPECT_EQ(rig.log_stats().merge_pages_copied, 0u);
  EXPECT_EQ(rig.stats().blocks_erased, 1u);
  rig.check_all();
  rig.expect_program_identity();
}

TEST(Fast, NewSequenceCleansTheSequentialLogBlockByPartialMerge) {
  LogFtlRig rig(one_die("fast"));
  rig.write_range(0, 4);  // data block 0
  rig.write_range(0, 2);  // sequential log block 1: offsets 0, 1
  rig.write(4);           // offset 0 of logical block 1 takes the sequential log block
  EXPECT_EQ(rig.log_stats().merges_partial, 1u);
  EXPECT_EQ(rig.log_stats().merge_pages_copied, 2u);
  EXPECT_EQ(rig.stats().blocks_erased, 1u);
  EXPECT_EQ(rig.log_stats().merges_full, 0u);
  rig.check_all();
  rig.expect_program_identity();
}

TEST(Fast, RandomLogIsSharedAndItsVictimFullMergesEveryBlockInIt) {
  LogFtlRig rig(one_die("fast"));
  rig.write_range(0, 8);                        // logical blocks 0, 1 in data blocks 0, 1
  for (fw::Lpn l : {1, 5, 2, 6}) rig.write(l);  // one random log block (2), two blocks
  const auto programs = rig.ops(OpKind::kProgram, 8);
  ASSERT_EQ(programs.size(), 4u);
  for (const auto& p : programs) EXPECT_EQ(p.ppa.block, 2u);
  EXPECT_EQ(rig.log_stats().merges_full, 0u);
  rig.write(3);  // the random log is full: its victim (itself) is cleaned
  EXPECT_EQ(rig.log_stats().merges_full, 2u);
  EXPECT_EQ(rig.log_stats().merge_pages_copied, 8u);  // both blocks rebuilt whole
  EXPECT_EQ(rig.stats().blocks_erased, 3u);           // data blocks 0, 1 and the log block 2
  EXPECT_EQ(rig.log_stats().log_blocks_erased, 1u);
  rig.check_all();
  rig.expect_program_identity();
}

TEST(Fast, BrokenSequenceIsAFullMerge) {
  LogFtlRig rig(one_die("fast"));
  rig.write_range(0, 2);  // sequential log block 0
  rig.write(1);           // not the next offset: random log block 1; page 1 of block 0 stale
  rig.write(4);           // new sequence: block 0 is no longer sequential
  EXPECT_EQ(rig.log_stats().merges_partial, 0u);
  EXPECT_EQ(rig.log_stats().merges_full, 1u);
  EXPECT_EQ(rig.log_stats().merge_pages_copied, 2u);  // offset 0 (sequential), 1 (random)
  EXPECT_EQ(rig.stats().blocks_erased, 1u);           // the sequential log block
  rig.check_all();
  rig.expect_program_identity();
}

// ---------------------------------------------------------------------------------------
// LAST

// One die of 16 blocks of 4 pages, half hidden: 8 logical blocks. One sequential log block
// (slot 0), and ceil(0.375 x 8) = 3 random ones: round(0.67 x 3) = 2 hot, 1 cold.
config::DriveConfig last_drive() {
  auto c = test::log_drive("last", 1, 16, 4, 0.5, 0.375);
  c.ftl.last_seq_log_blocks = 1;
  c.ftl.last_hot_fraction = 0.67;
  return config::parse_drive_config(config::to_json(c), "test config");
}

TEST(Last, PartitionsFollowTheConfig) {
  const auto cfg = last_drive();
  FakeHal hal(cfg.flash);
  fw::LastFtl ftl(cfg, hal);
  EXPECT_EQ(ftl.sequential_slots(), (std::vector<uint32_t>{0}));
  EXPECT_EQ(ftl.hot_slots(), (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(ftl.cold_slots(), (std::vector<uint32_t>{3}));
  EXPECT_EQ(ftl.mapping_table_bytes(), (8u + 4 * 4) * 4);
}

TEST(Last, SequentialLogBlockSwitchesAndIsReplacedByPartialMerge) {
  LogFtlRig rig(last_drive());
  rig.write_range(0, 4);
  EXPECT_EQ(rig.log_stats().merges_switch, 1u);
  rig.write_range(8, 2);  // logical block 2, offsets 0, 1 in the sequential log block
  rig.write(12);          // logical block 3 takes it: partial merge, nothing to copy
  EXPECT_EQ(rig.log_stats().merges_partial, 1u);
  EXPECT_EQ(rig.log_stats().merge_pages_copied, 0u);
  EXPECT_EQ(rig.stats().blocks_erased, 0u);
  // Logical block 2's data block is the switched 2-page log block; offset 2 is neither 0 nor
  // a sequential log block's next offset, so it goes to the random log (cold): no merge.
  rig.write(10);
  EXPECT_EQ(rig.log_stats().merges_partial + rig.log_stats().merges_full, 1u);
  rig.check_all();
  rig.expect_program_identity();
}

TEST(Last, RewrittenPagesGoToTheHotPartition) {
  LogFtlRig rig(last_drive());
  rig.write(1);  // cold: block 0
  rig.write(2);  // cold
  rig.write(1);  // still in the log: hot, block 1
  rig.write(3);  // cold
  const auto programs = rig.ops(OpKind::kProgram);
  ASSERT_EQ(programs.size(), 4u);
  EXPECT_EQ(programs[0].ppa.block, 0u);
  EXPECT_EQ(programs[1].ppa.block, 0u);
  EXPECT_EQ(programs[2].ppa.block, 1u);
  EXPECT_EQ(programs[2].ppa.page, 0u);
  EXPECT_EQ(programs[3].ppa.block, 0u);
  EXPECT_EQ(programs[3].ppa.page, 2u);
  rig.check_all();
  rig.expect_program_identity();
}

TEST(Last, DeadHotBlockIsErasedWithoutAMerge) {
  LogFtlRig rig(last_drive());
  rig.write(1);                              // cold block 0
  for (int i = 0; i < 8; ++i) rig.write(1);  // hot blocks 1 and 2, both full; block 1 dead
  EXPECT_EQ(rig.stats().blocks_erased, 0u);
  const size_t from = rig.op_count();
  rig.write(1);  // hot partition full: the victim with the fewest current pages is block 1
  const auto erases = rig.ops(OpKind::kErase, from);
  ASSERT_EQ(erases.size(), 1u);
  EXPECT_EQ(erases[0].ppa.block, 1u);
  EXPECT_EQ(
      rig.log_stats().merges_full + rig.log_stats().merges_partial + rig.log_stats().merges_switch,
      0u);
  EXPECT_EQ(rig.log_stats().merge_pages_copied, 0u);
  EXPECT_EQ(rig.log_stats().log_blocks_erased, 1u);
  const auto programs = rig.ops(OpKind::kProgram, from);
  ASSERT_EQ(programs.size(), 1u);
  EXPECT_EQ(programs[0].ppa.block, 3u);  // a fresh block from the pool
  rig.check_all();
  rig.expect_program_identity();
}

// Two cold log blocks: block 0 holds offset 1 of logical blocks 0-3, block 1 offsets 2-3 of
// logical blocks 0 and 1. The victim is the one with fewer logical blocks (block 1): full
// merges of logical blocks 0 and 1, which also take their pages out of block 0.
TEST(Last, ColdVictimIsTheCheapestToMerge) {
  auto c = last_drive();
  c.ftl.last_hot_fraction = 0.34;  // round(0.34 x 3) = 1 hot, 2 cold
  LogFtlRig rig(config::parse_drive_config(config::to_json(c), "test config"));
  for (fw::Lpn l : {1, 5, 9, 13, 2, 3, 6, 7}) rig.write(l);
  EXPECT_EQ(rig.stats().blocks_erased, 0u);
  const size_t from = rig.op_count();
  rig.write(17);  // logical block 4, cold: the cold partition is full
  EXPECT_EQ(rig.log_stats().merges_full, 2u);
  EXPECT_EQ(rig.log_stats().merge_pages_copied, 6u);  // offsets 1-3 of each
  EXPECT_EQ(rig.log_stats().pages_padded, 2u);        // offset 0 of each: never written
  const auto erases = rig.ops(OpKind::kErase, from);
  ASSERT_EQ(erases.size(), 1u);
  EXPECT_EQ(erases[0].ppa.block, 1u);
  EXPECT_EQ(rig.log_stats().log_blocks_erased, 1u);
  const auto programs = rig.ops(OpKind::kProgram, from);
  ASSERT_EQ(programs.size(), 9u);
  EXPECT_EQ(programs[0].ppa.block, 2u);  // logical block 0's new data block
  EXPECT_EQ(programs[4].ppa.block, 3u);  // logical block 1's
  EXPECT_EQ(programs[8].ppa.block, 4u);  // the cold log block, reopened
  rig.check_all();
  rig.expect_program_identity();
}

}  // namespace
}  // namespace ssd
