// The block-mapping FTL (ftl.type "block") on FakeHal: in-place programming at the write
// pointer, padding of skipped offsets, copy-on-update of overwritten blocks, die striping and
// DRAM costs, each worked out by hand from the rules in firmware/ftl/BlockFtl.h.
#include <gtest/gtest.h>

#include <random>

#include "tb/tests/LogFtlRig.h"

namespace ssd {
namespace {

using fw::PageToken;
using test::FakeHal;
using test::LogFtlRig;
using OpKind = FakeHal::OpKind;

// One die of 16 blocks of 4 pages, 75 % hidden: 16 logical pages = 4 logical blocks.
config::DriveConfig one_die() { return test::log_drive("block", 1, 16, 4, 0.75, 0.03); }

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
  EXPECT_EQ(rig.stats().merges_full, 0u);
  EXPECT_EQ(rig.stats().pages_padded, 0u);
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
    EXPECT_EQ(rig.stats().merges_full, request ? 1u : 2u);
    EXPECT_EQ(rig.stats().merge_pages_copied, request ? 2u : 6u);
    EXPECT_EQ(rig.stats().pages_padded, 0u);
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
  EXPECT_EQ(rig.stats().pages_padded, 2u);
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
  EXPECT_EQ(rig.stats().merges_full, 1u);
  EXPECT_EQ(rig.stats().merge_pages_copied, 3u);
  EXPECT_EQ(rig.stats().blocks_erased, 1u);
  rig.check_all();
  rig.expect_program_identity();
}

TEST(BlockFtl, CopyOnUpdateStopsAtTheWritePointerAndAppendsInPlaceAfter) {
  LogFtlRig rig(one_die());
  rig.write(0);
  rig.write(1);
  rig.write(0);  // copy-on-update: host page 0, copy of page 1
  EXPECT_EQ(rig.stats().merge_pages_copied, 1u);
  EXPECT_EQ(rig.stats().blocks_erased, 1u);
  const size_t from = rig.op_count();
  rig.write(3);  // above the write pointer (2): pad page 2, program page 3, no copy
  const auto programs = rig.ops(OpKind::kProgram, from);
  ASSERT_EQ(programs.size(), 2u);
  EXPECT_EQ(programs[0].ppa.page, 2u);
  EXPECT_EQ(programs[1].ppa.page, 3u);
  EXPECT_EQ(programs[0].ppa.block, programs[1].ppa.block);
  EXPECT_EQ(rig.stats().blocks_erased, 1u);
  EXPECT_EQ(rig.stats().pages_padded, 1u);
  rig.check_all();
  rig.expect_program_identity();
}

TEST(BlockFtl, TrimmedPagesArePaddedNotCopied) {
  LogFtlRig rig(one_die());
  rig.write_range(0, 4);
  rig.trim(2);
  rig.write(0);
  EXPECT_EQ(rig.stats().merge_pages_copied, 2u);  // pages 1 and 3
  EXPECT_EQ(rig.stats().pages_padded, 1u);        // page 2
  rig.check_all();
  rig.expect_program_identity();
}

TEST(BlockFtl, LogicalBlocksStripeOverDiesChannelMajor) {
  LogFtlRig rig(test::log_drive("block", 4, 16, 4, 0.75, 0.03));
  for (fw::Lpn lbn = 0; lbn < 5; ++lbn) rig.write(lbn * 4);
  rig.write(17);  // logical block 4 again: its die, whatever the page
  EXPECT_EQ(rig.hal().programmed_dies(), (std::vector<uint32_t>{0, 1, 2, 3, 0, 0}));
}

TEST(BlockFtl, MappingTableHasOneEntryPerLogicalBlock) {
  LogFtlRig rig(one_die());
  EXPECT_EQ(rig.ftl().mapping_table_bytes(), 4u * 4);  // 4 logical blocks x 4-byte entries
  const auto small = test::shipped("small_gc");
  auto cfg = small;
  cfg.ftl.type = "block";
  FakeHal hal(cfg.flash);
  EXPECT_EQ(fw::make_ftl(cfg, hal)->mapping_table_bytes(),
            small.logical_pages() / small.flash.pages_per_block * small.dram.access_bytes);
}

// Random overwrites and trims of three times the capacity across two dies: every read
// returns the last version, every erase belongs to a copy-on-update.
TEST(BlockFtl, RandomOverwritesKeepEveryPage) {
  LogFtlRig rig(test::log_drive("block", 2, 16, 8, 0.5, 0.03));
  const uint64_t pages = rig.cfg().logical_pages();
  std::mt19937_64 rng(11);
  for (uint64_t i = 0; i < 3 * pages; ++i) {
    const fw::Lpn lpn = rng() % pages;
    if (rng() % 10 == 0)
      rig.trim(lpn);
    else
      rig.write(lpn);
    if (i % 50 == 0) rig.check(rng() % pages);
  }
  rig.check_all();
  rig.expect_program_identity();
  EXPECT_GT(rig.stats().merges_full, 0u);
  EXPECT_EQ(rig.stats().blocks_erased, rig.stats().merges_full);
}

}  // namespace
}  // namespace ssd
