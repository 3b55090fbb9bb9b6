// The block-mapping FTL (ftl.type "block") on FakeHal, each case worked out by hand from the
// rules in firmware/ftl/BlockFtl.h. ftl.block_update copy_on_update: in-place programming at
// the write pointer, padding of skipped offsets, copy-on-update of overwritten blocks, die
// striping and DRAM costs. replacement (the default): updates through a replacement block,
// reads finding the current copy by the offsets kept in SRAM (ftl.block_read_lookup sram, the
// default) or by its spare areas (scan), folds reading the spare areas, no padding. How a read
// finds its page, either way: BlockReadLookupTest.cpp.
#include <gtest/gtest.h>

#include <vector>

#include "tb/tests/BlockFtlRig.h"

namespace ssd {
namespace {

using fw::PageToken;
using test::block_drive;
using test::FakeHal;
using test::LogFtlRig;
using test::one_die;
using test::overwrite_three_times;
using OpKind = FakeHal::OpKind;

using config::BlockReadLookup;
using config::BlockUpdate;

const char* name(BlockReadLookup lookup) { return config::to_string(lookup); }

TEST(BlockFtl, SequentialWritesProgramInPlace) {
  LogFtlRig rig(one_die());
  rig.write_range(0, 4);
  const auto programs = rig.ops(OpKind::kProgram);
  ASSERT_EQ(programs.size(), 4u);
  for (uint32_t p = 0; p < 4; ++p) {
    EXPECT_EQ(programs[p].ppa.block, 0u);  // the oldest free block
    EXPECT_EQ(programs[p].ppa.page, p);
  }
  EXPECT_EQ(rig.hal().total_erases(), 0u);
  EXPECT_EQ(rig.log_stats().merges_full, 0u);
  EXPECT_EQ(rig.log_stats().pages_padded, 0u);
  // Per write: one block-map read and one write.
  EXPECT_EQ(rig.hal().dram_entries_read(), 4u);
  EXPECT_EQ(rig.hal().dram_entries_written(), 4u);
  rig.check_all();
  rig.expect_program_identity();
}

// A request updating offsets 1-2 of a full 4-page block copies the block once: offset 0
// before the request's pages, offset 3 after them, one erase. Page by page (no request) each
// page is a copy-on-update of its own: 3 copies and an erase each.
TEST(BlockFtl, ARequestCopiesTheBlockOncePageByPageOncePerPage) {
  for (const bool request : {true, false}) {
    SCOPED_TRACE(request ? "request" : "page by page");
    LogFtlRig rig(one_die());
    rig.write_range(0, 4);
    const size_t from = rig.op_count();
    if (request) rig.ftl().begin_request();
    rig.write_range(1, 2);
    if (request) rig.ftl().end_request();
    EXPECT_EQ(rig.log_stats().merges_full, request ? 1u : 2u);
    EXPECT_EQ(rig.log_stats().merge_pages_copied, request ? 2u : 6u);
    EXPECT_EQ(rig.log_stats().pages_padded, 0u);
    EXPECT_EQ(rig.hal().total_erases(), request ? 1u : 2u);
    if (request) {
      // Read offset 0, program 0, host 1, host 2, read 3, program 3, erase the old block.
      const auto programs = rig.ops(OpKind::kProgram, from);
      ASSERT_EQ(programs.size(), 4u);
      for (uint32_t p = 0; p < 4; ++p) {
        EXPECT_EQ(programs[p].ppa.block, 1u);  // the oldest free block
        EXPECT_EQ(programs[p].ppa.page, p);
      }
      EXPECT_EQ(programs[1].token.version, 5u);
      EXPECT_EQ(programs[2].token.version, 6u);
      EXPECT_EQ(rig.ops(OpKind::kErase, from).at(0).ppa.block, 0u);
    }
    rig.check_all();
    rig.expect_program_identity();
  }
}

TEST(BlockFtl, SkippedOffsetsArePaddedAndReadUnmapped) {
  LogFtlRig rig(one_die());
  rig.write(2);
  const auto programs = rig.ops(OpKind::kProgram);
  ASSERT_EQ(programs.size(), 3u);
  EXPECT_EQ(programs[0].token, (PageToken{0, 0}));
  EXPECT_EQ(programs[1].token, (PageToken{1, 0}));
  EXPECT_EQ(programs[2].token, (PageToken{2, 1}));
  EXPECT_EQ(programs[2].ppa.page, 2u);
  EXPECT_EQ(rig.log_stats().pages_padded, 2u);
  EXPECT_EQ(rig.stats().host_pages_written, 1u);
  // A padded page holds no data: the read is answered from the map, without flash.
  rig.check(0);
  EXPECT_EQ(rig.hal().total_reads(), 0u);
  rig.check(2);
  EXPECT_EQ(rig.hal().total_reads(), 1u);
  rig.expect_program_identity();
}

TEST(BlockFtl, OverwriteCopiesTheRestIntoAFreshBlockAndErasesTheOld) {
  LogFtlRig rig(one_die());
  rig.write_range(0, 4);
  const size_t from = rig.op_count();
  const sc_core::sc_time done = rig.write(1);
  const auto& ops = rig.hal().ops();
  ASSERT_EQ(ops.size() - from, 3u * 2 + 1 + 1);  // 3 copies (read + program), host, erase
  const auto programs = rig.ops(OpKind::kProgram, from);
  ASSERT_EQ(programs.size(), 4u);
  for (uint32_t p = 0; p < 4; ++p) {
    EXPECT_EQ(programs[p].ppa.block, 1u);
    EXPECT_EQ(programs[p].ppa.page, p);
  }
  EXPECT_EQ(programs[1].token, (PageToken{1, 5}));
  EXPECT_EQ(done, programs[1].done);  // the host page's program
  for (const auto& r : rig.ops(OpKind::kRead, from)) EXPECT_EQ(r.ppa.block, 0u);
  EXPECT_EQ(ops.back().kind, OpKind::kErase);  // after the copies have read it
  EXPECT_EQ(ops.back().ppa.block, 0u);
  EXPECT_EQ(rig.log_stats().merges_full, 1u);
  EXPECT_EQ(rig.log_stats().merge_pages_copied, 3u);
  EXPECT_EQ(rig.stats().blocks_erased, 1u);
  rig.check_all();
  rig.expect_program_identity();
}

TEST(BlockFtl, CopyOnUpdateStopsAtTheWritePointerAndAppendsInPlaceAfter) {
  LogFtlRig rig(one_die());
  rig.write(0);
  rig.write(1);
  rig.write(0);  // copy-on-update: host page 0, copy of page 1
  EXPECT_EQ(rig.log_stats().merge_pages_copied, 1u);
  EXPECT_EQ(rig.stats().blocks_erased, 1u);
  const size_t from = rig.op_count();
  rig.write(3);  // above the write pointer (2): pad page 2, program page 3, no copy
  const auto programs = rig.ops(OpKind::kProgram, from);
  ASSERT_EQ(programs.size(), 2u);
  EXPECT_EQ(programs[0].ppa.page, 2u);
  EXPECT_EQ(programs[1].ppa.page, 3u);
  EXPECT_EQ(programs[0].ppa.block, programs[1].ppa.block);
  EXPECT_EQ(rig.stats().blocks_erased, 1u);
  EXPECT_EQ(rig.log_stats().pages_padded, 1u);
  rig.check_all();
  rig.expect_program_identity();
}

TEST(BlockFtl, TrimmedPagesArePaddedNotCopied) {
  LogFtlRig rig(one_die());
  rig.write_range(0, 4);
  rig.trim(2);
  rig.write(0);
  EXPECT_EQ(rig.log_stats().merge_pages_copied, 2u);  // pages 1 and 3
  EXPECT_EQ(rig.log_stats().pages_padded, 1u);        // page 2
  rig.check_all();
  rig.expect_program_identity();
}

TEST(BlockFtl, LogicalBlocksStripeOverDiesChannelMajor) {
  LogFtlRig rig(block_drive(BlockUpdate::CopyOnUpdate, 4, 16, 4, 0.75));
  for (fw::Lpn lbn = 0; lbn < 5; ++lbn) rig.write(lbn * 4);
  rig.write(17);  // logical block 4 again: its die, whatever the page
  EXPECT_EQ(rig.hal().programmed_dies(), (std::vector<uint32_t>{0, 1, 2, 3, 0, 0}));
}

TEST(BlockFtl, MappingTableHasOneEntryPerLogicalBlock) {
  LogFtlRig rig(one_die());
  EXPECT_EQ(rig.ftl().mapping_table_bytes(), 4u * 4);  // 4 logical blocks x 4-byte entries
  const auto small = test::shipped("small_gc");
  auto cfg = small;
  cfg.ftl.type = config::FtlType::Block;
  cfg.ftl.block_update = BlockUpdate::CopyOnUpdate;
  FakeHal hal(cfg.flash);
  EXPECT_EQ(fw::make_ftl(cfg, hal)->mapping_table_bytes(),
            small.logical_pages() / small.flash.pages_per_block * small.dram.access_bytes);
}

// Copy-on-update: every read returns the last version, every erase belongs to a copy-on-update.
TEST(BlockFtl, RandomOverwritesKeepEveryPage) {
  LogFtlRig rig(block_drive(BlockUpdate::CopyOnUpdate, 2, 16, 8, 0.5));
  overwrite_three_times(rig);
  EXPECT_GT(rig.log_stats().merges_full, 0u);
  EXPECT_EQ(rig.stats().blocks_erased, rig.log_stats().merges_full);
}

// --- Replacement blocks (ftl.block_update replacement) ---

// The update that fills the replacement block folds it: its 4 spare areas read (newest
// first, the firmware waiting for the last), the current copy of each offset (data block for
// 0, replacement pages 2, 1 and 3 for 1, 2, 3) copied into a fresh block at its offset, then
// the data block and the replacement block erased. The same with the offsets in SRAM: the
// fold, replacement-block management, reads the spare areas.
void fold_a_full_replacement_block(BlockReadLookup lookup) {
  LogFtlRig rig(one_die(BlockUpdate::Replacement, lookup));
  rig.write_range(0, 4);
  rig.write(1);
  rig.write(2);
  rig.write(1);
  const size_t from = rig.op_count();
  rig.write(3);  // replacement page 3: full
  const auto& ops = rig.hal().ops();
  ASSERT_EQ(ops.size() - from, 1u + 4 + 4 * 2 + 2);
  EXPECT_EQ(ops[from].kind, OpKind::kProgram);
  EXPECT_EQ(ops[from].ppa.block, 1u);
  EXPECT_EQ(ops[from].ppa.page, 3u);
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(ops[from + 1 + i].kind, OpKind::kSpareRead);
    EXPECT_EQ(ops[from + 1 + i].ppa.block, 1u);
    EXPECT_EQ(ops[from + 1 + i].ppa.page, 3 - i);
  }
  const fw::Ppa sources[] = {{0, 0, 0}, {0, 1, 2}, {0, 1, 1}, {0, 1, 3}};
  const PageToken copied[] = {{0, 1}, {1, 7}, {2, 6}, {3, 8}};
  for (uint32_t off = 0; off < 4; ++off) {
    const auto& read = ops[from + 5 + 2 * off];
    const auto& program = ops[from + 6 + 2 * off];
    EXPECT_EQ(read.kind, OpKind::kRead);
    EXPECT_EQ(read.ppa.block, sources[off].block);
    EXPECT_EQ(read.ppa.page, sources[off].page);
    EXPECT_EQ(program.kind, OpKind::kProgram);
    EXPECT_EQ(program.ppa.block, 2u);  // the next free block
    EXPECT_EQ(program.ppa.page, off);
    EXPECT_EQ(program.token, copied[off]);
  }
  // The copies start once the last spare area is in: then the offsets examined (4 block-map
  // reads), the block-map write, one firmware step and the read's issue.
  EXPECT_EQ(ops[from + 5].issued, ops[from + 4].done + FakeHal::dram_time(4) +
                                      FakeHal::dram_time(1) + FakeHal::us(1) +
                                      FakeHal::us(FakeHal::kIssueUs));
  EXPECT_EQ(ops[from + 13].kind, OpKind::kErase);
  EXPECT_EQ(ops[from + 13].ppa.block, 0u);  // the data block
  EXPECT_EQ(ops[from + 14].kind, OpKind::kErase);
  EXPECT_EQ(ops[from + 14].ppa.block, 1u);  // the replacement block
  EXPECT_EQ(rig.log_stats().folds, 1u);
  EXPECT_EQ(rig.log_stats().merges_full, 1u);
  EXPECT_EQ(rig.log_stats().merge_pages_copied, 4u);
  EXPECT_EQ(rig.figure("merges", "oob_reads"), 4u);
  EXPECT_EQ(rig.log_stats().pages_padded, 0u);
  EXPECT_EQ(rig.stats().blocks_erased, 2u);
  EXPECT_EQ(rig.log_stats().log_blocks_erased, 1u);
  // Folded: no replacement block left to look in.
  rig.check_all();
  EXPECT_EQ(rig.hal().spare_reads(), 4u);
  if (lookup == BlockReadLookup::Sram) {
    EXPECT_EQ(rig.figure("merges", "sram_writes"), 4u);
    EXPECT_EQ(rig.figure("merges", "sram_reads"), 0u);
  }
  rig.expect_program_identity();
}

TEST(BlockFtl, AFullReplacementBlockIsFoldedIntoAFreshBlock) {
  for (const BlockReadLookup lookup : {BlockReadLookup::Sram, BlockReadLookup::Scan}) {
    SCOPED_TRACE(name(lookup));
    fold_a_full_replacement_block(lookup);
  }
}

// Offsets never written stay erased: a write above the write pointer skips them, a fold
// copies only the offsets that hold data, and none is padded.
TEST(BlockFtl, NeverWrittenOffsetsStayErased) {
  LogFtlRig rig(one_die(BlockUpdate::Replacement));
  rig.write(2);
  ASSERT_EQ(rig.ops(OpKind::kProgram).size(), 1u);
  EXPECT_EQ(rig.ops(OpKind::kProgram)[0].ppa.page, 2u);
  EXPECT_FALSE(rig.hal().programmed(fw::Ppa{0, 0, 0}));
  rig.check(0);  // unmapped: answered from the map
  EXPECT_EQ(rig.hal().total_reads() + rig.hal().spare_reads(), 0u);
  for (int i = 0; i < 4; ++i) rig.write(0);  // below the write pointer: replacement pages 0-3
  // Folded: offset 0 (replacement page 3) and 2 (data block) at their offsets; 1 stays erased.
  const auto programs = rig.ops(OpKind::kProgram);
  ASSERT_EQ(programs.size(), 1u + 4 + 2);
  EXPECT_EQ(programs[5].ppa.block, 2u);
  EXPECT_EQ(programs[5].ppa.page, 0u);
  EXPECT_EQ(programs[5].token, (PageToken{0, 5}));
  EXPECT_EQ(programs[6].ppa.block, 2u);
  EXPECT_EQ(programs[6].ppa.page, 2u);
  EXPECT_FALSE(rig.hal().programmed(fw::Ppa{0, 2, 1}));
  EXPECT_EQ(rig.log_stats().merge_pages_copied, 2u);
  EXPECT_EQ(rig.log_stats().folds, 1u);
  rig.write(1);  // below the fold's write pointer (3): a new replacement block
  EXPECT_NE(rig.ops(OpKind::kProgram).back().ppa.block, 2u);
  EXPECT_EQ(rig.log_stats().pages_padded, 0u);
  rig.check_all();
  rig.expect_program_identity();
}

// One replacement block on the die: a second logical block's update takes it from the first,
// which is folded (its one spare area read, its 4 offsets copied, both blocks erased).
void fold_the_least_recently_written(BlockReadLookup lookup) {
  LogFtlRig rig(one_die(BlockUpdate::Replacement, lookup));
  rig.write_range(0, 8);  // logical blocks 0 and 1: blocks 0 and 1
  rig.write(1);           // logical block 0's replacement block: block 2
  rig.write(5);
  EXPECT_EQ(rig.figure("merges", "replacements"), 1u);
  EXPECT_EQ(rig.log_stats().folds, 1u);
  EXPECT_EQ(rig.figure("merges", "oob_reads"), 1u);
  EXPECT_EQ(rig.log_stats().merge_pages_copied, 4u);
  EXPECT_EQ(rig.stats().blocks_erased, 2u);
  const auto last = rig.ops(OpKind::kProgram).back();
  EXPECT_EQ(last.ppa.block, 4u);  // after the fold's block 3
  EXPECT_EQ(last.ppa.page, 0u);
  EXPECT_EQ(last.token, (PageToken{5, 10}));
  rig.check_all();
  rig.expect_program_identity();
}

TEST(BlockFtl, AnUpdateWithNoFreeReplacementBlockFoldsTheLeastRecentlyWritten) {
  for (const BlockReadLookup lookup : {BlockReadLookup::Sram, BlockReadLookup::Scan}) {
    SCOPED_TRACE(name(lookup));
    fold_the_least_recently_written(lookup);
  }
}

// The table: one entry per logical block and one per replacement block (the spare areas,
// not DRAM, say where a page's copies are).
TEST(BlockFtl, ReplacementTableHasAnEntryPerLogicalAndReplacementBlock) {
  LogFtlRig rig(one_die(BlockUpdate::Replacement));
  EXPECT_EQ(rig.ftl().mapping_table_bytes(), (4u + 1) * 4);
}

// Replacement blocks, with either look-up: every read returns the last version, every erase is
// a folded data block or replacement block, and no page is padded.
TEST(BlockFtl, ReplacementRandomOverwritesKeepEveryPage) {
  for (const BlockReadLookup lookup : {BlockReadLookup::Sram, BlockReadLookup::Scan}) {
    SCOPED_TRACE(name(lookup));
    LogFtlRig rig(block_drive(BlockUpdate::Replacement, 2, 16, 8, 0.5, lookup));
    overwrite_three_times(rig);
    EXPECT_GT(rig.log_stats().folds, 0u);
    EXPECT_GT(rig.figure("merges", "oob_reads"), 0u);
    EXPECT_EQ(rig.log_stats().pages_padded, 0u);
    EXPECT_EQ(rig.log_stats().merges_full, rig.log_stats().folds);
    EXPECT_EQ(rig.stats().blocks_erased,
              rig.log_stats().merges_full + rig.log_stats().log_blocks_erased);
  }
}

}  // namespace
}  // namespace ssd
