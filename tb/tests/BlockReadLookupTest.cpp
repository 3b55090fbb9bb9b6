// ftl.block_read_lookup (docs/ftl.md#read-look-up): how the block FTL's replacement blocks
// are read. First on FakeHal, each case worked out by hand from firmware/ftl/BlockFtl.h: a
// read scanning the replacement block's spare areas newest first (scan) or searching the
// offsets kept in SRAM (sram), the SRAM rebuilt by a restart, and both look-ups taking the same
// decisions. Then through the whole model, the block FTL with replacement blocks on an aged
// small drive replaying the Financial1 excerpt. A trace replay is open loop, so both look-ups
// take the same decisions: the SRAM search reads the offsets the spare-area scan reads spare
// areas for, the spare reads left are the folds', every other flash command is the same. The
// SRAM's energy is its own component's: t_sram_access_ns at i_sram_active_ma per access, its
// standby current the rest of the span. The scoreboard finds no page lost either way.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "firmware/StateArchive.h"
#include "tb/tests/BlockFtlRig.h"
#include "tb/tests/ExactEnergy.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

using fw::PageToken;
using test::block_drive;
using test::FakeHal;
using test::LogFtlRig;
using test::one_die;
using test::overwrite_three_times;
using test::sram_time;
using OpKind = FakeHal::OpKind;

using config::BlockReadLookup;
using config::BlockUpdate;

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
  fw::StateArchive saving(bytes, 0);
  rig.ftl().state(saving);
  const std::string saved = bytes.str();
  const auto load = [&] {
    std::unique_ptr<fw::Ftl> ftl = fw::make_ftl(rig.cfg(), rig.hal());
    fw::StateArchive loading(reinterpret_cast<const uint8_t*>(saved.data()), saved.size(), 0, -1);
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

// --- Through the whole model ---

using Report = nlohmann::ordered_json;

Report run(const std::string& lookup) {
  const std::string dir = test::temp_dir("lookup_" + lookup);
  std::string out;
  const int rc = test::run_cli(
      "--config " + test::source_path("configs/small_gc.json") +
          " --set ftl.type=block --set ftl.block_read_lookup=" + lookup +
          " --set ftl.t_sram_access_ns=40 --set ftl.i_sram_active_ma=25 --set "
          "ftl.i_sram_standby_ma=0.5 --trace " +
          test::source_path("traces/umass_financial1.head10k.spc") +
          " --max-requests 3000 --precondition --reproducible --no-series --quiet --out " + dir,
      out);
  EXPECT_EQ(rc, 0) << out;
  return Report::parse(test::slurp(dir + "/report.json"));
}

uint64_t count(const Report& r, const char* group, const char* name) {
  return r[group].value(name, uint64_t{0});
}

TEST(BlockReadLookup, SramSearchesWhatTheScanReadsAtTheSramsOwnEnergy) {
  const Report scan = run("scan");
  const Report sram = run("sram");
  for (const Report* r : {&scan, &sram}) {
    EXPECT_GT((*r)["scoreboard"]["pages_checked"].get<uint64_t>(), 0u);
    EXPECT_EQ((*r)["scoreboard"]["mismatches"].get<uint64_t>(), 0u);
  }
  // The same firmware but for where a read looks.
  for (const char* op : {"read", "program", "erase"})
    EXPECT_EQ(count(sram, "flash_ops", op), count(scan, "flash_ops", op)) << op;
  EXPECT_EQ(sram["merges"]["folds"], scan["merges"]["folds"]);
  EXPECT_FALSE(scan["merges"].contains("sram_reads"));
  EXPECT_FALSE(scan["energy_j"].contains("offset_sram")) << "no SRAM, no standby current";
  const uint64_t searched = count(sram, "merges", "sram_reads");
  const uint64_t written = count(sram, "merges", "sram_writes");
  EXPECT_GT(searched, 0u);
  EXPECT_GT(written, 0u);
  // Spare reads: the folds' alone with the offsets in SRAM; the scan adds one per offset searched.
  EXPECT_EQ(count(sram, "flash_ops", "spare_read"), count(sram, "merges", "oob_reads"));
  EXPECT_EQ(count(scan, "merges", "oob_reads"), count(sram, "merges", "oob_reads") + searched);
  EXPECT_LT(sram["latency_us"]["read"]["mean"].get<double>(),
            scan["latency_us"]["read"]["mean"].get<double>());
  // The SRAM: 40 ns at 25 mA per access, 0.5 mA standby the rest of the span, at the
  // controller's voltage.
  const double v = test::shipped("small_gc").controller.voltage_v;
  const double active_s = double(searched + written) * 40e-9;
  test::expect_rel(test::state_j(sram, "offset_sram", "active"), active_s * 25e-3 * v);
  test::expect_rel(test::state_j(sram, "offset_sram", "idle"),
                   (sram["energy_span_s"].get<double>() - active_s) * 0.5e-3 * v);
}

}  // namespace
}  // namespace ssd
