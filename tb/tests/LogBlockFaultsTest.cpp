// Injected faults under the block-mapped FTLs (block, bast, bast_star, fast, last;
// docs/reliability.md#injected-faults): a block whose erase failed is retired for good and never
// sent another command; one whose program failed is copied page for page to a fresh block and
// retired; nothing is lost, and a die whose room (good blocks beyond a data block for each of
// its logical blocks, its log blocks and one for a merge) falls to two turns the drive
// read-only. A dead die: tb/tests/LogBlockDeadDieTest.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/FaultConfig.h"
#include "tb/tests/CliReport.h"
#include "tb/tests/FaultyRig.h"
#include "tb/tests/FtlFigure.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

using test::Faulty;

struct Family {
  const char* name;
  Faulty::Shape shape;
};

// Each FTL of the family; the block FTL both ways (small_gc's is replacement).
const Family kBlock{"block", [](config::DriveConfig& c) {
                      c.ftl.type = config::FtlType::Block;
                      c.ftl.block_update = config::BlockUpdate::CopyOnUpdate;
                    }};
const Family kReplacement{"block_replacement", [](config::DriveConfig& c) {
                            c.ftl.type = config::FtlType::Block;
                            c.ftl.block_update = config::BlockUpdate::Replacement;
                          }};
const Family kBast{"bast", [](config::DriveConfig& c) { c.ftl.type = config::FtlType::Bast; }};
const Family kBastStar{"bast_star",
                       [](config::DriveConfig& c) { c.ftl.type = config::FtlType::BastStar; }};
const Family kFast{"fast", [](config::DriveConfig& c) { c.ftl.type = config::FtlType::Fast; }};
const Family kLast{"last", [](config::DriveConfig& c) { c.ftl.type = config::FtlType::Last; }};

std::string family_name(const ::testing::TestParamInfo<Family>& info) { return info.param.name; }

class LogBlockFaults : public ::testing::TestWithParam<Family> {};

INSTANTIATE_TEST_SUITE_P(EveryBlockMappedFtl, LogBlockFaults,
                         ::testing::Values(kBlock, kReplacement, kBast, kBastStar, kFast, kLast),
                         family_name);

// Every erase is drawn as the NAND draws it, after the block's earlier erases; a block whose
// erase failed gets no later command; the figures count exactly those blocks, and the die that
// turned the drive read-only had lost its room down to two.
TEST_P(LogBlockFaults, FailedErasesRetireTheirBlocksUntilADieRunsOutOfRoom) {
  Faulty d(0.05, 0, GetParam().shape);
  d.overwrite(60000);
  ASSERT_TRUE(d.ftl.read_only()) << "no die ran out of room";
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> erases;
  std::set<std::pair<uint32_t, uint32_t>> failed;
  std::vector<uint64_t> failed_on(d.cfg.flash.dies(), 0);
  for (const auto& op : d.hal.ops()) {
    const std::pair<uint32_t, uint32_t> block{op.ppa.die, op.ppa.block};
    EXPECT_FALSE(failed.count(block)) << "a command on retired block " << op.ppa.block;
    if (op.kind != test::FakeHal::OpKind::kErase) continue;
    if (config::erase_fails(d.cfg.flash.faults, block.first, block.second, erases[block]++)) {
      failed.insert(block);
      ++failed_on[block.first];
    }
  }
  ASSERT_GT(failed.size(), 5u);
  EXPECT_EQ(test::figure(d.ftl, "faults", "erase_failures"), failed.size());
  // small_gc: 4 dies of 64 blocks, 6,144 logical pages in 32-page blocks (48 per die).
  const uint64_t spare = test::figure(d.ftl, "faults", "spare_blocks");
  EXPECT_EQ(test::figure(d.ftl, "faults", "spare_blocks_left"), spare - failed.size());
  const uint64_t room = spare / 4;  // the same on every die
  const uint64_t most = *std::max_element(failed_on.begin(), failed_on.end());
  EXPECT_EQ(test::figure(d.ftl, "faults", "most_retired_on_a_die"), most);
  const uint64_t die = test::figure(d.ftl, "faults", "read_only_die");
  EXPECT_GE(failed_on[die], room - 2);
  EXPECT_EQ(test::figure(d.ftl, "faults", "dies_out_of_room"), 1u);
  // The retired blocks are out of the free pools for good.
  EXPECT_LE(d.ftl.free_blocks(), 4 * 64 - failed.size());
  d.expect_every_page();

  // Read-only, the drive still destages the write buffer's acknowledged pages: erases failing in
  // their merges take the dies' last free blocks, and a page with nowhere to go is lost, reported
  // and counted, its reads failing; every other page reads its last version, nothing stops.
  std::vector<fw::Lpn> lost;
  d.ftl.on_units_lost([&lost](const std::vector<fw::Lpn>& lpns, fw::UnitLoss why) {
    EXPECT_EQ(why, fw::UnitLoss::NoRoom);
    lost.insert(lost.end(), lpns.begin(), lpns.end());
  });
  for (uint64_t i = 0; i < 20000 && lost.empty(); ++i) {
    const fw::Lpn l = (d.written++ * 7919 + 13) % d.cfg.logical_pages();
    d.ftl.write(l, fw::PageToken{l, ++d.version[l] + 1}, fw::kNoOp);
  }
  ASSERT_FALSE(lost.empty());
  EXPECT_EQ(test::figure(d.ftl, "faults", "units_lost_no_room"), lost.size());
  for (fw::Lpn l = 0; l < d.cfg.logical_pages(); ++l) {
    fw::PageToken t;
    const fw::Ftl::ReadResult r = d.ftl.read(l, t);
    const bool gone = std::find(lost.begin(), lost.end(), l) != lost.end();
    EXPECT_EQ(r.lost, gone) << l;
    if (!gone) {
      EXPECT_EQ(t, (fw::PageToken{l, d.version[l] + 1})) << l;
    }
  }
}

// Every program is drawn as the NAND draws it. After one fails, the firmware copies the block's
// pages below it to a fresh block of the die at the same pages (a read of each, then its
// program), programs the data there again once the failed program has ended, and sends the
// failed block nothing more; every page still reads its last version.
class LogBlockProgramFaults : public ::testing::TestWithParam<Family> {};

// Replacement blocks skip pages: refused with program failures.
INSTANTIATE_TEST_SUITE_P(EveryFtlThatPads, LogBlockProgramFaults,
                         ::testing::Values(kBlock, kBast, kBastStar, kFast, kLast), family_name);

TEST_P(LogBlockProgramFaults, AFailedProgramsBlockIsCopiedPageForPageAndRetired) {
  Faulty d(0, 0.002, GetParam().shape);
  d.overwrite(30000);
  const auto& ops = d.hal.ops();
  using Kind = test::FakeHal::OpKind;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> erases;
  std::set<std::pair<uint32_t, uint32_t>> failed;
  uint64_t failures = 0, copied = 0, checked = 0;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const auto& op = ops[i];
    const std::pair<uint32_t, uint32_t> block{op.ppa.die, op.ppa.block};
    if (op.kind == Kind::kErase) {
      EXPECT_FALSE(failed.count(block)) << "erase of block " << op.ppa.block << " after it failed";
      ++erases[block];
    }
    if (op.kind != Kind::kProgram) continue;
    EXPECT_FALSE(failed.count(block)) << "program of block " << op.ppa.block << " after it failed";
    if (!config::program_fails(d.cfg.flash.faults, block.first, block.second, op.ppa.page,
                               erases[block]))
      continue;
    ++failures;
    failed.insert(block);
    // The replacement, when its own programs all hold: reads and copies, then the data again.
    const uint32_t p = op.ppa.page;
    if (i + 2 * p + 1 >= ops.size()) continue;
    const auto& again = ops[i + 2 * p + 1];
    bool held = again.kind == Kind::kProgram && again.ppa.page == p;
    for (uint32_t k = 0; held && k < p; ++k) {
      const auto& read = ops[i + 1 + 2 * k];
      const auto& copy = ops[i + 2 + 2 * k];
      held = read.kind == Kind::kRead && read.ppa.block == op.ppa.block && read.ppa.page == k &&
             copy.kind == Kind::kProgram && copy.ppa.block == again.ppa.block &&
             copy.ppa.page == k && copy.token.lpn == read.token.lpn &&
             copy.token.version == read.token.version;
    }
    if (!held) continue;  // one of the fresh block's programs failed too: checked as its own
    ++checked;
    copied += p;
    EXPECT_EQ(again.ppa.die, op.ppa.die);
    EXPECT_EQ(again.token.lpn, op.token.lpn);
    EXPECT_EQ(again.token.version, op.token.version);
    EXPECT_GE(again.data_ready, op.done) << "the data went again before the failed status";
  }
  ASSERT_GT(checked, 5u);
  EXPECT_EQ(test::figure(d.ftl, "faults", "program_failures"), failures);
  EXPECT_GE(test::figure(d.ftl, "faults", "pages_moved"), copied);
  EXPECT_EQ(test::figure(d.ftl, "faults", "spare_blocks") -
                test::figure(d.ftl, "faults", "spare_blocks_left"),
            failed.size());
  d.expect_every_page();
}

// Through the NAND model, preconditioned (no faults in the drive's past), a mixed run at
// QD 8 loses nothing, turns read-only and repeats exactly.
TEST(LogBlockFaultsDrive, AMixedRunLosesNothingAndRepeats) {
  for (const char* ftl : {"fast --set flash.faults.program_fail_probability=0.001",
                          "block --set ftl.block_update=replacement"}) {
    const std::string sets = std::string("--set ftl.type=") + ftl +
                             " --set flash.faults.erase_fail_probability=0.05 "
                             "--workload rw=randrw,mix=0.5,bs=4096,qd=8,count=20000,seed=5";
    const nlohmann::json r = test::run_faulty(test::temp_dir("lb_faults_a"), sets);
    EXPECT_EQ(r["scoreboard"]["mismatches"], 0) << ftl;
    EXPECT_GT(r["scoreboard"]["pages_checked"].get<uint64_t>(), 5000u) << ftl;
    const nlohmann::json& f = r["faults"];
    EXPECT_GT(f["erase_failures"].get<uint64_t>(), 5u) << f.dump();
    EXPECT_FALSE(f["read_only_at_s"].is_null()) << f.dump();
    EXPECT_GT(r["requests"]["failed_read_only"].get<uint64_t>(), 0u);
    const nlohmann::json again = test::run_faulty(test::temp_dir("lb_faults_b"), sets);
    EXPECT_EQ(again["faults"], f) << ftl;
    EXPECT_EQ(again["latency_us"], r["latency_us"]) << ftl;
  }
}

// A write buffer on a drive turned read-only by failed erases: its acknowledged pages still
// destage, their merges' failed erases take the dies' last free blocks, and the pages with nowhere
// to go are lost, reported and counted; the run ends normally with no silent loss (the soak found
// the run stopping here).
TEST(LogBlockFaultsDrive, ABufferDestagingOnAReadOnlyDriveLosesOnlyWhatHasNoRoom) {
  for (const char* ftl : {"block", "bast", "fast"}) {
    SCOPED_TRACE(ftl);
    const nlohmann::json r = test::run_faulty(
        test::temp_dir(std::string("lb_no_room_") + ftl),
        std::string("--set ftl.type=") + ftl +
            " --set dram.write_buffer_mb=1 --set flash.faults.erase_fail_probability=0.05 "
            "--workload rw=randrw,mix=0.3,bs=4k,qd=16,count=4000,seed=7");
    const uint64_t lost = r["faults"]["units_lost_no_room"].get<uint64_t>();
    EXPECT_GT(lost, 10u);
    EXPECT_FALSE(r["faults"]["read_only_at_s"].is_null());
    EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
    EXPECT_EQ(r["scoreboard"]["lost_by_no_room"], lost);
  }
}

TEST(LogBlockFaultsConfig, WhatTheyCannotModelIsRefused) {
  const auto refused = [](const std::string& sets, const std::string& message) {
    const std::string out =
        test::cli_output("--config " + test::source_path("configs/small_gc.json") +
                         " --set ftl.type=bast " + sets + " --dump-config");
    EXPECT_NE(out.find(message), std::string::npos) << out;
  };
  refused(
      "--set ftl.type=block --set ftl.block_update=replacement "
      "--set flash.faults.program_fail_probability=0.001",
      "flash.faults.program_fail_probability: not with ftl.block_update replacement");
  refused(
      "--set flash.faults.erase_fail_probability=0.01 --set "
      "flash.faults.die_out_of_room=other_dies",
      "flash.faults.die_out_of_room: other_dies needs ftl.type page or dftl (the bast FTL keeps "
      "each logical block on its die)");
}

}  // namespace
}  // namespace ssd
