// Injected faults (flash.faults, docs/reliability.md#injected-faults): an erase fails by a seeded
// draw, the NAND refuses its block any later command, and the page-level FTLs retire it for
// good, moving nothing (an erase follows the moves of every valid page), so nothing is lost; the
// spare blocks shrink by the retired ones until a die runs out of room: the drive turns
// read-only, or sends the host's data to the dies with room until none has. A program
// fails by a draw of its own: the NAND keeps the block's other pages readable and takes no
// program or erase there; the FTL writes the data again elsewhere once the failed program's
// status is in, moves the block's valid data out and retires it.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/FaultConfig.h"
#include "firmware/Ftl.h"
#include "firmware/ftl/PageLevelFtl.h"
#include "tb/run/Simulation.h"
#include "tb/tests/CliReport.h"
#include "tb/tests/ExactEnergy.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/FaultyRig.h"
#include "tb/tests/NandRig.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"

namespace ssd {
namespace {

using model::FlashOp;
using test::Faulty;
using test::Probe;
using test::run_faulty;

TEST(Faults, AnEraseFailsByASeededDrawAtItsRate) {
  config::FaultConfig f;
  f.erase_fail_probability = 0.01;
  uint32_t failed = 0;
  for (uint32_t die = 0; die < 10; ++die)
    for (uint32_t block = 0; block < 100; ++block)
      for (uint32_t erases = 0; erases < 100; ++erases)
        failed += config::erase_fails(f, die, block, erases);
  // 100,000 draws at 1 %: 1,000 expected, sd 31.5; the draw is fixed, so this bound is too.
  EXPECT_GT(failed, 850u);
  EXPECT_LT(failed, 1150u);
  // The same key fails alike; another seed fails other erases.
  config::FaultConfig g = f;
  g.seed = 2;
  uint32_t same = 0, differ = 0;
  for (uint32_t block = 0; block < 2000; ++block) {
    const bool a = config::erase_fails(f, 3, block, 7);
    EXPECT_EQ(a, config::erase_fails(f, 3, block, 7));
    (a == config::erase_fails(g, 3, block, 7) ? same : differ) += a;
  }
  EXPECT_GT(differ, same);
  f.erase_fail_probability = 0;
  EXPECT_FALSE(config::erase_fails(f, 0, 0, 0));
  f.erase_fail_probability = 1;
  EXPECT_TRUE(config::erase_fails(f, 0, 0, 0));
}

TEST(Faults, AProgramFailsByADrawOfItsOwn) {
  config::FaultConfig f;
  f.program_fail_probability = 0.01;
  f.erase_fail_probability = 0.01;
  uint32_t failed = 0, both = 0;
  for (uint32_t block = 0; block < 100; ++block)
    for (uint32_t page = 0; page < 100; ++page)
      for (uint32_t erases = 0; erases < 10; ++erases) {
        const bool p = config::program_fails(f, 2, block, page, erases);
        EXPECT_EQ(p, config::program_fails(f, 2, block, page, erases));
        failed += p;
        // Not the erase's draw: the pages of an erase that fails do not all fail.
        both += p && config::erase_fails(f, 2, block, erases);
      }
  // 100,000 draws at 1 %: 1,000 expected, sd 31.5; the draw is fixed, so this bound is too.
  EXPECT_GT(failed, 850u);
  EXPECT_LT(failed, 1150u);
  EXPECT_LT(both, 40u);  // about 1 % of them
  f.program_fail_probability = 0;
  EXPECT_FALSE(config::program_fails(f, 0, 0, 0, 0));
  f.program_fail_probability = 1;
  EXPECT_TRUE(config::program_fails(f, 0, 0, 0, 0));
}

// One channel of the small drive with every erase failing: the erase takes its time, then the
// block takes no command.
class FaultyNand : public test::NandRig {
 protected:
  void SetUp() override {
    NandRig::SetUp();
    drive.flash.faults.erase_fail_probability = 1;
  }
  // Programs page 0 of block 5, erases the block (the erase takes its time), then sends `next`
  // to it: the NAND's error message.
  std::string after_failed_erase(FlashOp next) {
    sc_core::sc_time erased;
    std::string msg = run([&](Probe& p) {
      p.send(FlashOp::Program, 0, 5, 0);
      erased = p.finish(p.send(FlashOp::Erase, 0, 5, 0));
      p.send(next, 0, 5, 0);
    });
    EXPECT_GE(erased, us(drive.flash.t_erase_us));
    EXPECT_NE(msg.find("block 5"), std::string::npos) << msg;
    return msg;
  }
};

constexpr const char* kBadBlock =
    "NAND rule violated: command on a bad block (its erase failed, flash.faults)";

TEST_F(FaultyNand, ABlockWhoseEraseFailedTakesNoProgram) {
  const std::string msg = after_failed_erase(FlashOp::Program);
  EXPECT_NE(msg.find(kBadBlock), std::string::npos) << msg;
}

TEST_F(FaultyNand, ABlockWhoseEraseFailedTakesNoRead) {
  const std::string msg = after_failed_erase(FlashOp::Read);
  EXPECT_NE(msg.find(kBadBlock), std::string::npos) << msg;
}

TEST_F(FaultyNand, ABlockWhoseEraseFailedTakesNoErase) {
  const std::string msg = after_failed_erase(FlashOp::Erase);
  EXPECT_NE(msg.find(kBadBlock), std::string::npos) << msg;
}

// Programs failing at half: a block whose page 0 programs and page 1 fails.
class FailingPrograms : public test::NandRig {
 protected:
  void SetUp() override {
    NandRig::SetUp();
    drive.flash.faults.program_fail_probability = 0.5;
    const config::FaultConfig& f = drive.flash.faults;
    while (config::program_fails(f, 0, block, 0, 0) || !config::program_fails(f, 0, block, 1, 0))
      ++block;
  }
  // Programs pages 0 and 1 (the failed program takes its time), then sends `next` to `page`:
  // the NAND's error message.
  std::string after_failed_program(FlashOp next, uint32_t page) {
    sc_core::sc_time programmed;
    std::string msg = run([&](Probe& p) {
      p.send(FlashOp::Program, 0, block, 0);
      programmed = p.finish(p.send(FlashOp::Program, 0, block, 1));
      p.finish(p.send(FlashOp::Read, 0, block, 0));  // the block's other pages still read
      p.send(next, 0, block, page);
    });
    EXPECT_GE(programmed, 2 * (xfer + prog));
    EXPECT_NE(msg.find("block " + std::to_string(block)), std::string::npos) << msg;
    return msg;
  }
  uint32_t block = 0;
};

constexpr const char* kFailedBlock =
    "NAND rule violated: program or erase of a block whose program failed (flash.faults)";

TEST_F(FailingPrograms, TheFailedPageDoesNotRead) {
  const std::string msg = after_failed_program(FlashOp::Read, 1);
  EXPECT_NE(msg.find("NAND rule violated: read of a page whose program failed (flash.faults)"),
            std::string::npos)
      << msg;
}

TEST_F(FailingPrograms, TheBlockTakesNoFurtherProgram) {
  const std::string msg = after_failed_program(FlashOp::Program, 2);
  EXPECT_NE(msg.find(kFailedBlock), std::string::npos) << msg;
}

TEST_F(FailingPrograms, TheBlockTakesNoErase) {
  const std::string msg = after_failed_program(FlashOp::Erase, 0);
  EXPECT_NE(msg.find(kFailedBlock), std::string::npos) << msg;
}

TEST(FaultyFtl, TheBlocksWhoseErasesFailAreRetiredAndNothingIsLost) {
  Faulty d(0.05);
  const std::size_t first_op = d.hal.ops().size();
  d.overwrite(8000);
  // Each erase is drawn as the NAND draws it, after the block's earlier erases.
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> erases;
  std::set<std::pair<uint32_t, uint32_t>> failed;
  uint64_t erase_ops = 0;
  for (std::size_t i = first_op; i < d.hal.ops().size(); ++i) {
    const auto& op = d.hal.ops()[i];
    const std::pair<uint32_t, uint32_t> block{op.ppa.die, op.ppa.block};
    EXPECT_FALSE(failed.count(block)) << "a command on retired block " << op.ppa.block;
    if (op.kind != test::FakeHal::OpKind::kErase) continue;
    ++erase_ops;
    if (config::erase_fails(d.cfg.flash.faults, block.first, block.second, erases[block]++))
      failed.insert(block);
  }
  ASSERT_GT(erase_ops, 100u);
  ASSERT_GT(failed.size(), 10u);
  const fw::BlockManager& bm = d.blocks();
  uint64_t retired = 0;
  for (uint32_t die = 0; die < bm.dies(); ++die)
    for (uint32_t b = 0; b < bm.blocks_per_die(); ++b) {
      EXPECT_EQ(bm.retired(die, b), failed.count({die, b}) == 1) << die << " " << b;
      retired += bm.retired(die, b);
      if (bm.retired(die, b)) {
        EXPECT_EQ(bm.erase_count(die, b), (erases[{die, b}]));
      }
    }
  EXPECT_EQ(retired, failed.size());
  EXPECT_EQ(bm.retired_blocks(0, false) + bm.retired_blocks(1, false) +
                bm.retired_blocks(2, false) + bm.retired_blocks(3, false),
            retired);
  d.expect_every_page();
}

// Each program is drawn as the NAND draws it; after one fails, the next program carries the same
// data (a host page, a GC copy, a DFTL translation page), to another block of the die, once the
// failed one has ended, and its block takes only reads of its other pages until the FTL, its
// valid data moved, retires it without an erase (a block of the SLC cache: once folded).
class FailedPrograms : public ::testing::TestWithParam<std::pair<const char*, Faulty::Shape>> {};

// Translation pages written often, so that some of their programs fail, and the spare blocks
// for the retired ones.
void small_map_cache(config::DriveConfig& c) {
  c.ftl.type = config::FtlType::Dftl;
  c.ftl.map_cache_bytes = 4096;  // one translation page: written often
  c.ftl.overprovisioning = 0.3;
  c.flash.blocks_per_plane = 256;
  c.flash.faults.program_fail_probability = 0.004;  // several of them fail
}
// Spare blocks for the retired ones: on small_gc's 25 %, a die holding more than its share of
// the data runs out of room (read-only) after a few failures.
void spare_for_retired(config::DriveConfig& c) { c.ftl.overprovisioning = 0.3; }
// The cache's blocks beside the spare blocks for the retired ones.
void slc_cache(config::DriveConfig& c) {
  c.flash.cell_type = config::CellType::Mlc;
  c.ftl.slc_cache_blocks_per_plane = 4;
  c.ftl.overprovisioning = 0.3;
}

INSTANTIATE_TEST_SUITE_P(
    PageLevelFtls, FailedPrograms,
    ::testing::Values(std::pair<const char*, Faulty::Shape>{"page", &spare_for_retired},
                      std::pair{"dftl", &small_map_cache}, std::pair{"slc", &slc_cache}),
    [](const auto& info) { return std::string(info.param.first); });

TEST_P(FailedPrograms, AreWrittenAgainAndTheirBlocksRetired) {
  Faulty d(0, 0.001, GetParam().second);
  const std::size_t first_op = d.hal.ops().size();
  d.overwrite(8000);
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> erases;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> failed;  // the page that failed
  uint64_t programs = 0, again = 0, mapping = 0;
  for (std::size_t i = first_op; i < d.hal.ops().size(); ++i) {
    const auto& op = d.hal.ops()[i];
    const std::pair<uint32_t, uint32_t> block{op.ppa.die, op.ppa.block};
    if (const auto f = failed.find(block); f != failed.end()) {
      EXPECT_EQ(op.kind, test::FakeHal::OpKind::kRead) << "block " << op.ppa.block;
      EXPECT_LT(op.ppa.page, f->second) << "a read of the failed page, block " << op.ppa.block;
      continue;
    }
    if (op.kind == test::FakeHal::OpKind::kErase) ++erases[block];
    if (op.kind != test::FakeHal::OpKind::kProgram) continue;
    ++programs;
    if (!config::program_fails(d.cfg.flash.faults, block.first, block.second, op.ppa.page,
                               erases[block]))
      continue;
    failed[block] = op.ppa.page;
    mapping += op.token.lpn >= d.cfg.logical_pages();  // a DFTL translation page
    ASSERT_LT(i + 1, d.hal.ops().size());
    const auto& next = d.hal.ops()[i + 1];
    EXPECT_EQ(next.kind, test::FakeHal::OpKind::kProgram);
    EXPECT_EQ(next.ppa.die, op.ppa.die);
    EXPECT_NE(next.ppa.block, op.ppa.block);
    EXPECT_EQ(next.token.lpn, op.token.lpn);
    EXPECT_EQ(next.token.version, op.token.version);
    EXPECT_EQ(next.data_ready, op.done);  // the failed program's status lets the data go
    ++again;
  }
  ASSERT_GT(programs, 10000u);
  ASSERT_GT(failed.size(), 10u);
  EXPECT_EQ(again, failed.size());
  EXPECT_EQ(mapping != 0, d.cfg.ftl.type == config::FtlType::Dftl) << mapping;
  const fw::BlockManager& bm = d.blocks();
  uint64_t retired = 0;
  for (const auto& [block, page] : failed) {
    retired += bm.retired(block.first, block.second);
    EXPECT_EQ(bm.erase_count(block.first, block.second), erases[block]) << "retired, not erased";
  }
  // The host's next commands, or idle time, move the rest out; SLC blocks move by folding (all
  // at once: the fake Hal's clock does not run on in idle time, so background folds would wait).
  EXPECT_GT(retired, failed.size() / 2);
  d.ftl.settle();
  while (d.ftl.background_step()) {
  }
  for (const auto& [block, page] : failed) EXPECT_TRUE(bm.retired(block.first, block.second));
  d.expect_every_page();
}

// A mixed run on a drive aged by preconditioning (which draws no faults), with `op` (erase,
// program) failing at `rate`: several fail, the scoreboard finds every page it reads, and the
// same run again gives the same figures.
nlohmann::json run_mixed_twice(const std::string& op, const std::string& rate) {
  const std::string name = "faults_" + op;
  const std::string sets = "--set flash.faults." + op + "_fail_probability=" + rate +
                           " --workload rw=randrw,mix=0.5,bs=4096,qd=8,count=20000,seed=5";
  nlohmann::json r = run_faulty(test::temp_dir(name + "_a"), sets);
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
  EXPECT_GT(r["scoreboard"]["pages_checked"].get<uint64_t>(), 5000u);
  const nlohmann::json again = run_faulty(test::temp_dir(name + "_b"), sets);
  EXPECT_EQ(again["faults"], r["faults"]);
  EXPECT_EQ(again["flash_ops"], r["flash_ops"]);
  EXPECT_EQ(again["latency_us"], r["latency_us"]);
  EXPECT_GT(r["faults"][op + "_failures"].get<uint64_t>(), 5u) << r["faults"].dump();
  return r;
}

// One 4 KB write at t = 0 on the small drive (as EnergyTest's), its program failing: the data is
// programmed again, on the same die, once the failed program has ended, and the write completes
// with the second program. Every figure follows from the config.
TEST(FaultyDrive, AWriteWhoseProgramFailsTakesTwoProgramsByHand) {
  config::DriveConfig cfg = test::shipped("small_gc");
  cfg.host.link_mb_per_s = 256;  // 4096 B in exactly 16 us
  config::FaultConfig& f = cfg.flash.faults;
  f.program_fail_probability = 0.01;
  // The host page goes to page 0 of die 0's first free block (0), the page written again to
  // page 0 of its next (1), both never erased.
  while (!config::program_fails(f, 0, 0, 0, 0) || config::program_fails(f, 0, 1, 0, 0)) ++f.seed;
  tb::VectorSource src({test::request(0, tb::IoOp::Write, 0, 4096)});
  tb::RunOptions opts;
  opts.out_dir = test::temp_dir("faults_one_write");
  const nlohmann::ordered_json rep = tb::run_simulation(cfg, src, opts).report;
  const auto& fl = cfg.flash;
  const auto& c = cfg.controller;
  const double link = 4096 / cfg.host.link_mb_per_s * 1e-6;
  const double dram = cfg.dram.t_access_ns * 1e-9;
  const double xfer = 4096 * fl.bus_ns_per_byte * 1e-9;
  const double prog = fl.t_prog_us * 1e-6;
  // Before the first program: the command, the page, its issue and three table accesses.
  const double first =
      (c.t_fw_per_cmd_us + c.t_fw_per_page_us + c.t_cmd_issue_us) * 1e-6 + 3 * dram;
  const double end = link + first + 2 * (xfer + prog);
  test::expect_rel(rep["energy_span_s"].get<double>(), end);
  test::expect_rel(rep["latency_us"]["write"]["max"].get<double>(), end * 1e6);
  // The failure's handling (a firmware step, the mapping's update, the second issue) runs
  // while the first program does.
  test::expect_rel(test::state_j(rep, "controller", "active"),
                   c.i_active_ma * 1e-3 * c.voltage_v *
                       (first + (c.t_fw_per_page_us + c.t_cmd_issue_us) * 1e-6 + dram));
  test::expect_rel(test::state_j(rep, "ch0.w0d0", "program"),
                   fl.i_prog_ma * 1e-3 * fl.voltage_v * 2 * prog);
  test::expect_rel(test::state_j(rep, "ch0", "transfer"),
                   fl.i_bus_ma * 1e-3 * fl.bus_voltage_v * 2 * xfer);
  EXPECT_EQ(rep["faults"]["program_failures"], 1);
  EXPECT_EQ(rep["faults"]["blocks_awaiting_retirement"], 1.0);  // no host command after it
  EXPECT_EQ(rep["flash_ops"]["program"], 2);
  EXPECT_EQ(rep["scoreboard"]["mismatches"], 0);
}

// Erases failing at 2 %: the report's spare is the drive's less the retired blocks.
TEST(FaultyDrive, RetiredBlocksShrinkTheSpareAndLoseNothing) {
  const nlohmann::json r = run_mixed_twice("erase", "0.02");
  const nlohmann::json& f = r["faults"];
  const uint64_t failures = f["erase_failures"];
  EXPECT_LT(failures, r["flash_ops"]["erase"].get<uint64_t>());
  // 4 dies x 64 blocks, 6,144 logical pages of 32-page blocks: 192 blocks hold them.
  EXPECT_EQ(f["spare_blocks"].get<double>(), 64.0);
  EXPECT_EQ(f["spare_blocks_left"].get<double>(), 64.0 - double(failures));
  EXPECT_GE(f["most_retired_on_a_die"].get<double>(), double(failures) / 4);
  EXPECT_FALSE(f.contains("slc_blocks_retired"));
}

// Programs failing at 0.05 %: each failed page is written again and its block retired once its
// valid data has moved; the retired and the awaiting blocks are the failures.
TEST(FaultyDrive, FailedProgramsRetireTheirBlocksAndLoseNothing) {
  const nlohmann::json r = run_mixed_twice("program", "0.0005");
  const nlohmann::json& f = r["faults"];
  const uint64_t failures = f["program_failures"];
  EXPECT_EQ(f["erase_failures"], 0);
  EXPECT_EQ(
      64.0 - f["spare_blocks_left"].get<double>() + f["blocks_awaiting_retirement"].get<double>(),
      double(failures));
}

// With a static SLC cache, its blocks fail too, and the cache shrinks by them.
TEST(FaultyDrive, TheSlcCacheShrinksByItsRetiredBlocks) {
  const nlohmann::json r =
      run_faulty(test::temp_dir("faults_slc"),
                 "--set flash.cell_type=mlc --set ftl.slc_cache_blocks_per_plane=4 "
                 "--set flash.faults.erase_fail_probability=0.01 "
                 "--workload rw=randwrite,bs=4096,qd=8,count=8000,seed=5");
  const nlohmann::json& f = r["faults"];
  EXPECT_GT(f["slc_blocks_retired"].get<double>(), 0.0) << f.dump();
  EXPECT_GT(r["slc_cache"]["blocks_folded"].get<uint64_t>(), 0u) << r["slc_cache"].dump();
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
}

// Preconditioning is the drive's past: it draws no faults, whatever the rate.
TEST(FaultyDrive, PreconditioningDrawsNoFaults) {
  const nlohmann::json r = run_faulty(test::temp_dir("faults_pre"),
                                      "--set flash.faults.erase_fail_probability=1 "
                                      "--precondition-mode simulate "
                                      "--workload rw=randread,bs=4096,qd=8,count=2000,seed=5");
  EXPECT_EQ(r["faults"]["erase_failures"], 0);
  EXPECT_EQ(r["faults"]["spare_blocks_left"].get<double>(), 64.0);
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
}

TEST(FaultsConfig, WhatTheyNeedIsRefusedWithoutIt) {
  EXPECT_NE(test::cli_output("--config " + test::source_path("configs/small_gc.json") +
                             " --set flash.faults.program_fail_probability=0.02 --dump-config")
                .find("flash.faults.program_fail_probability"),
            std::string::npos);
  EXPECT_NE(test::cli_output("--config " + test::source_path("configs/small_gc.json") +
                             " --set flash.faults.erase_fail_probability=1.5 --dump-config")
                .find("flash.faults.erase_fail_probability"),
            std::string::npos);
}

}  // namespace
}  // namespace ssd
