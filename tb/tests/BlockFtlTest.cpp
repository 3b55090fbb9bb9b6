// The block-mapping FTL (ftl.type "block") on FakeHal, each case worked out by hand from the
// rules in firmware/ftl/BlockFtl.h. ftl.block_update copy_on_update: in-place programming at
// the write pointer, padding of skipped offsets, copy-on-update of overwritten blocks, die
// striping and DRAM costs. replacement (the default): updates through a replacement block,
// reads finding the current copy by the offsets kept in SRAM (ftl.block_read_lookup sram, the
// default) or by its spare areas (scan), folds reading the spare areas, no padding.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "firmware/StateArchive.h"
#include "tb/tests/LogFtlRig.h"

namespace ssd {
namespace {

using fw::PageToken;
using test::FakeHal;
using test::LogFtlRig;
using OpKind = FakeHal::OpKind;

using config::BlockReadLookup;
using config::BlockUpdate;

// The SRAM's time per offset in these tests: distinct from every FakeHal cost.
constexpr double kSramNs = 7;

// A block FTL drive of `dies` dies of `blocks` blocks of `pages` pages.
config::DriveConfig block_drive(BlockUpdate update, uint32_t dies, uint32_t blocks, uint32_t pages,
                                double overprovisioning,
                                BlockReadLookup lookup = BlockReadLookup::Sram) {
  config::DriveConfig c = test::log_drive("block", dies, blocks, pages, overprovisioning, 0.03);
  c.ftl.block_update = update;
  c.ftl.block_read_lookup = lookup;
  c.ftl.t_sram_access_ns = kSramNs;
  return c;
}

// One die of 16 blocks of 4 pages, 75 % hidden: 16 logical pages = 4 logical blocks; with
// replacement blocks, ceil(0.03 x 4) = 1 of them.
config::DriveConfig one_die(BlockUpdate update = BlockUpdate::CopyOnUpdate,
                            BlockReadLookup lookup = BlockReadLookup::Sram) {
  return block_drive(update, 1, 16, 4, 0.75, lookup);
}

sc_core::sc_time sram_time(uint32_t entries) {
  return sc_core::sc_time(entries * kSramNs, sc_core::SC_NS);
}

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

// Random overwrites and trims of three times the capacity across two dies, reads checked on
// the way and every page at the end; every program carried its page's identity.
void overwrite_three_times(LogFtlRig& rig) {
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
}

// Copy-on-update: every read returns the last version, every erase belongs to a copy-on-update.
TEST(BlockFtl, RandomOverwritesKeepEveryPage) {
  LogFtlRig rig(block_drive(BlockUpdate::CopyOnUpdate, 2, 16, 8, 0.5));
  overwrite_three_times(rig);
  EXPECT_GT(rig.log_stats().merges_full, 0u);
  EXPECT_EQ(rig.stats().blocks_erased, rig.log_stats().merges_full);
}

// --- Replacement blocks (ftl.block_update replacement) ---

// What a host read costs: the block-map read, `spares` spare areas read one after another
// (each waited for: the next is read only if it did not name the page), then the page.
sc_core::sc_time read_time(uint32_t spares) {
  return FakeHal::dram_time(1) + FakeHal::us((FakeHal::kIssueUs + FakeHal::kSpareReadUs) * spares +
                                             FakeHal::kIssueUs + FakeHal::kReadUs);
}

// Reads after updates of offsets 1, 2, 1 of logical block 0 (data block 0, replacement block
// 1): the offsets looked at newest first and where the copy is: 1 for offset 1 (replacement page
// 2), 2 for offset 2 (page 1), all 3 for offset 0 (then the data block).
struct Lookup {
  fw::Lpn lpn;
  uint32_t looked;
  fw::Ppa at;
};
constexpr Lookup kLookups[] = {{1, 1, {0, 1, 2}}, {2, 2, {0, 1, 1}}, {0, 3, {0, 0, 0}}};

// Updates of offsets 1, 2, 1 go to the next free pages of the logical block's replacement
// block; a read finds the current copy by reading spare areas newest first: 1 for offset 1
// (replacement page 2), 2 for offset 2 (page 1), all 3 for offset 0 (then the data block).
TEST(BlockFtl, UpdatesGoToTheReplacementBlockAndReadsScanItsSpareAreas) {
  LogFtlRig rig(one_die(BlockUpdate::Replacement, BlockReadLookup::Scan));
  rig.write_range(0, 4);  // block 0, in place
  const size_t from = rig.op_count();
  const uint64_t dram_read = rig.hal().dram_entries_read();
  const uint64_t dram_written = rig.hal().dram_entries_written();
  rig.write(1);
  rig.write(2);
  rig.write(1);
  const auto programs = rig.ops(OpKind::kProgram, from);
  ASSERT_EQ(programs.size(), 3u);
  const PageToken tokens[] = {{1, 5}, {2, 6}, {1, 7}};
  for (uint32_t p = 0; p < 3; ++p) {
    EXPECT_EQ(programs[p].ppa.block, 1u);  // the next free block
    EXPECT_EQ(programs[p].ppa.page, p);
    EXPECT_EQ(programs[p].token, tokens[p]);
  }
  // No copy, no erase, no spare read: the block map entry holds the write pointer.
  EXPECT_EQ(rig.op_count() - from, 3u);
  // Per update: one block-map read and one write.
  EXPECT_EQ(rig.hal().dram_entries_read() - dram_read, 3u);
  EXPECT_EQ(rig.hal().dram_entries_written() - dram_written, 3u);

  for (const Lookup c : kLookups) {
    SCOPED_TRACE("lpn " + std::to_string(c.lpn));
    const size_t before = rig.op_count();
    const sc_core::sc_time t0 = rig.hal().now();
    PageToken got;
    const fw::Ftl::ReadResult r = rig.ftl().read(c.lpn, got);
    EXPECT_EQ(got, (PageToken{c.lpn, rig.expected(c.lpn)}));
    EXPECT_EQ(rig.hal().end_of(r.op) - t0, read_time(c.looked));
    const auto spares = rig.ops(OpKind::kSpareRead, before);
    ASSERT_EQ(spares.size(), c.looked);
    for (uint32_t i = 0; i < c.looked; ++i) {
      EXPECT_EQ(spares[i].ppa.block, 1u);
      EXPECT_EQ(spares[i].ppa.page, 2 - i);  // newest first
    }
    const auto reads = rig.ops(OpKind::kRead, before);
    ASSERT_EQ(reads.size(), 1u);
    EXPECT_EQ(reads[0].ppa.block, c.at.block);
    EXPECT_EQ(reads[0].ppa.page, c.at.page);
  }
  EXPECT_EQ(rig.figure("merges", "oob_reads"), 6u);
  EXPECT_EQ(rig.hal().spare_reads(), 6u);
  EXPECT_EQ(rig.log_stats().pages_padded, 0u);
  rig.expect_program_identity();
}

// ftl.block_read_lookup sram, the same updates: each also writes its page's offset to the SRAM
// (one entry, t_sram_access_ns, the core waiting) before the program. A read searches the offsets
// newest first in SRAM, as many as the scan reads spare areas (1 for offset 1, 2 for offset 2, all
// 3 for offset 0), and issues no spare read: the block-map read, the search, then the page.
TEST(BlockFtl, WithTheOffsetsInSramAReadIssuesNoSpareRead) {
  LogFtlRig rig(one_die(BlockUpdate::Replacement, BlockReadLookup::Sram));
  rig.write_range(0, 4);
  EXPECT_EQ(rig.figure("merges", "sram_writes"), 0u) << "in place: no replacement page";
  for (const fw::Lpn lpn : {1, 2, 1}) {
    const sc_core::sc_time t0 = rig.hal().now();
    const size_t before = rig.op_count();
    rig.write(lpn);
    const auto programs = rig.ops(OpKind::kProgram, before);
    ASSERT_EQ(programs.size(), 1u);
    EXPECT_EQ(programs[0].ppa.block, 1u);
    // Block-map read and write, the offset into SRAM, the program's issue.
    EXPECT_EQ(programs[0].issued - t0,
              FakeHal::dram_time(2) + sram_time(1) + FakeHal::us(FakeHal::kIssueUs));
  }
  EXPECT_EQ(rig.figure("merges", "sram_writes"), 3u);

  for (const Lookup c : kLookups) {
    SCOPED_TRACE("lpn " + std::to_string(c.lpn));
    const size_t before = rig.op_count();
    const uint64_t searched = rig.figure("merges", "sram_reads");
    const sc_core::sc_time t0 = rig.hal().now();
    PageToken got;
    const fw::Ftl::ReadResult r = rig.ftl().read(c.lpn, got);
    EXPECT_EQ(got, (PageToken{c.lpn, rig.expected(c.lpn)}));
    EXPECT_EQ(rig.hal().end_of(r.op) - t0, FakeHal::dram_time(1) + sram_time(c.looked) +
                                               FakeHal::us(FakeHal::kIssueUs + FakeHal::kReadUs));
    EXPECT_EQ(rig.figure("merges", "sram_reads") - searched, c.looked);
    EXPECT_TRUE(rig.ops(OpKind::kSpareRead, before).empty());
    const auto reads = rig.ops(OpKind::kRead, before);
    ASSERT_EQ(reads.size(), 1u);
    EXPECT_EQ(reads[0].ppa.block, c.at.block);
    EXPECT_EQ(reads[0].ppa.page, c.at.page);
  }
  EXPECT_EQ(rig.figure("merges", "sram_reads"), 6u);
  EXPECT_EQ(rig.figure("merges", "oob_reads"), 0u);
  EXPECT_EQ(rig.hal().spare_reads(), 0u);
  // Every access the SRAM's: 3 written, 6 read.
  EXPECT_EQ(rig.hal().unit_time(fw::Unit::Sram), sram_time(9));
  rig.expect_program_identity();
}

// The SRAM is not in a saved state (docs/ftl.md#read-look-up): a drive loaded from it that did
// not restart reads a page with an SRAM that disagrees with the spare areas, a model error. The
// restart rebuilds it by reading the spare area of each of the replacement block's 3 written
// pages; then a read looks its page up in SRAM (2 entries for offset 2), with no spare read.
TEST(BlockFtl, ARestartRebuildsTheSramFromTheSpareAreas) {
  LogFtlRig rig(one_die(BlockUpdate::Replacement, BlockReadLookup::Sram));
  rig.write_range(0, 4);
  rig.write(1);
  rig.write(2);
  rig.write(1);
  std::stringstream bytes;
  fw::StateArchive saving(static_cast<std::ostream&>(bytes));
  rig.ftl().state(saving);
  const auto load = [&] {
    std::unique_ptr<fw::Ftl> ftl = fw::make_ftl(rig.cfg(), rig.hal());
    std::stringstream copy(bytes.str());
    fw::StateArchive loading(static_cast<std::istream&>(copy));
    ftl->state(loading);
    return ftl;
  };
  PageToken got;
  EXPECT_THROW(load()->read(2, got), std::logic_error);

  const std::unique_ptr<fw::Ftl> loaded = load();
  size_t before = rig.op_count();
  loaded->restart();
  const auto spares = rig.ops(OpKind::kSpareRead, before);
  ASSERT_EQ(spares.size(), 3u);
  for (uint32_t p = 0; p < 3; ++p) {
    EXPECT_EQ(spares[p].ppa.block, 1u);
    EXPECT_EQ(spares[p].ppa.page, p);
  }
  EXPECT_EQ(rig.op_count(), before + 3) << "nothing but the spare reads";
  EXPECT_EQ(test::figure(*loaded, "merges", "oob_reads"), 0u) << "before the run: not counted";
  before = rig.op_count();
  const sc_core::sc_time t0 = rig.hal().now();
  const fw::Ftl::ReadResult r = loaded->read(2, got);
  EXPECT_EQ(got, (PageToken{2, rig.expected(2)}));
  EXPECT_EQ(rig.hal().end_of(r.op) - t0, FakeHal::dram_time(1) + sram_time(2) +
                                             FakeHal::us(FakeHal::kIssueUs + FakeHal::kReadUs));
  EXPECT_TRUE(rig.ops(OpKind::kSpareRead, before).empty());
  EXPECT_EQ(test::figure(*loaded, "merges", "sram_reads"), 2u);
  EXPECT_EQ(test::figure(*loaded, "merges", "oob_reads"), 0u);
}

// With the offsets read by scanning, a restart reads nothing: there is no SRAM to rebuild.
TEST(BlockFtl, ARestartWithoutTheSramReadsNothing) {
  LogFtlRig rig(one_die(BlockUpdate::Replacement, BlockReadLookup::Scan));
  rig.write_range(0, 4);
  rig.write(1);
  const size_t before = rig.op_count();
  rig.ftl().restart();
  EXPECT_EQ(rig.op_count(), before);
}

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

// The two look-ups run the same firmware but for where a read looks: the same reads,
// programs and erases in the same order, the folds' spare reads the same, and the SRAM search
// reads exactly the offsets the scan reads spare areas for.
TEST(BlockFtl, TheSramSearchReadsTheOffsetsTheScanReadsSpareAreasFor) {
  LogFtlRig sram(block_drive(BlockUpdate::Replacement, 2, 16, 8, 0.5, BlockReadLookup::Sram));
  LogFtlRig scan(block_drive(BlockUpdate::Replacement, 2, 16, 8, 0.5, BlockReadLookup::Scan));
  overwrite_three_times(sram);
  overwrite_three_times(scan);
  const auto commands = [](LogFtlRig& rig) {
    std::vector<std::tuple<OpKind, uint32_t, uint32_t, uint32_t, PageToken>> out;
    for (const auto& op : rig.hal().ops())
      if (op.kind != OpKind::kSpareRead)
        out.emplace_back(op.kind, op.ppa.die, op.ppa.block, op.ppa.page, op.token);
    return out;
  };
  EXPECT_EQ(commands(sram), commands(scan));
  const uint64_t folds_read = sram.figure("merges", "oob_reads");
  EXPECT_EQ(sram.hal().spare_reads(), folds_read);
  EXPECT_GT(sram.figure("merges", "sram_reads"), 0u);
  EXPECT_EQ(scan.figure("merges", "oob_reads"), folds_read + sram.figure("merges", "sram_reads"));
}

}  // namespace
}  // namespace ssd
