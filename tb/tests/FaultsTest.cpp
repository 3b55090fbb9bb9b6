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
#include "firmware/ftl/SpareReserve.h"
#include "tb/run/Simulation.h"
#include "tb/tests/CliReport.h"
#include "tb/tests/ExactEnergy.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/NandRig.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"

namespace ssd {
namespace {

using model::FlashOp;
using test::Probe;

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

// A page-level FTL (the page FTL unless `shape` changes the drive) on a fake Hal: the small
// drive filled, then overwritten in a fixed order with its erases and programs failing at their
// rates.
struct Faulty {
  using Shape = void (*)(config::DriveConfig&);
  explicit Faulty(double erase, double program = 0, Shape shape = nullptr)
      : cfg(drive(erase, program, shape)),
        hal(cfg.flash),
        owned(fw::make_ftl(cfg, hal)),
        ftl(*owned) {
    for (fw::Lpn l = 0; l < cfg.logical_pages(); ++l) ftl.write(l, fw::PageToken{l, 1}, fw::kNoOp);
  }
  static config::DriveConfig drive(double erase, double program, Shape shape) {
    config::DriveConfig c = test::shipped("small_gc");
    c.flash.faults.erase_fail_probability = erase;
    c.flash.faults.program_fail_probability = program;
    c.flash.faults.seed = 7;
    if (shape) shape(c);
    return config::parse_drive_config(config::to_json(c), "test");
  }
  const fw::BlockManager& blocks() const {
    return dynamic_cast<const fw::PageLevelFtl&>(ftl).blocks();
  }
  // Overwrites up to `n` pages (a fixed sequence, going on from the last call's), counting each
  // page's versions; stops once the drive is read-only, as the firmware refuses writes then.
  // Returns the pages written.
  uint64_t overwrite(uint64_t n) {
    uint64_t i = 0;
    for (; i < n && !ftl.read_only(); ++i) write_next();
    return i;
  }
  // The sequence's next page written: its logical page.
  fw::Lpn write_next() {
    const fw::Lpn l = (written++ * 7919 + 13) % cfg.logical_pages();
    ftl.maintain();  // as the firmware does before a host command's FTL work
    ftl.write(l, fw::PageToken{l, ++version[l] + 1}, fw::kNoOp);
    return l;
  }
  const fw::SpareReserve& spare() const {
    return *dynamic_cast<const fw::PageLevelFtl&>(ftl).spare_reserve();
  }
  // Every logical page reads its last version.
  void expect_every_page() {
    for (fw::Lpn l = 0; l < cfg.logical_pages(); ++l) {
      fw::PageToken t;
      ftl.read(l, t);
      EXPECT_EQ(t.lpn, l);
      EXPECT_EQ(t.version, version[l] + 1);
    }
  }
  config::DriveConfig cfg;
  test::FakeHal hal;
  std::unique_ptr<fw::Ftl> owned;
  fw::Ftl& ftl;
  std::map<fw::Lpn, uint64_t> version;
  uint64_t written = 0;
};

// A die out of room turns the drive read-only at once (read_only), or once every die is out
// (other_dies); only a die out of room takes no host data, and once all are out, each does again.
TEST(SpareReserve, ReadOnlyAtTheFirstDieOutOfRoomOrTheLast) {
  // 64 good blocks a die, GC keeps 4 free: a die is out at 56 blocks lost or filled.
  fw::SpareReserve first(2, 64, 4, config::DieOutOfRoom::ReadOnly);
  first.lost(1, 0.5, 3, 52);
  EXPECT_FALSE(first.any_out());
  first.lost(1, 0.75, 4, 52);
  EXPECT_TRUE(first.read_only());
  EXPECT_EQ(first.read_only_at_s(), 0.75);
  EXPECT_EQ(first.read_only_die(), 1.0);
  EXPECT_EQ(first.first_out_of_room_at_s(), 0.75);
  EXPECT_TRUE(first.takes_writes(0));
  EXPECT_FALSE(first.takes_writes(1));

  fw::SpareReserve last(2, 64, 4, config::DieOutOfRoom::OtherDies);
  last.lost(1, 0.75, 4, 52);
  EXPECT_FALSE(last.read_only());
  EXPECT_EQ(last.read_only_die(), std::nullopt);
  EXPECT_EQ(last.first_out_of_room_at_s(), 0.75);
  EXPECT_FALSE(last.takes_writes(1));
  // Its data overwritten on the other die: back once its room (8 when it ran out) has grown by
  // the 4 blocks GC keeps.
  EXPECT_FALSE(last.back_in_room(1, 49));  // room 11
  EXPECT_TRUE(last.back_in_room(1, 48));   // room 12
  EXPECT_TRUE(last.takes_writes(1));
  EXPECT_EQ(last.dies_out(), 0u);
  last.out_of_room(1, 0.8, 50);  // its GC found nothing to reclaim, with room 10
  last.out_of_room(1, 0.9, 50);  // out already: nothing changes
  EXPECT_EQ(last.dies_out(), 1u);
  EXPECT_EQ(last.times_out(), 2u);
  EXPECT_EQ(last.times_back(), 1u);
  EXPECT_FALSE(last.back_in_room(1, 48));  // room 12, not 10 + 4
  last.out_of_room(0, 1.25, 30);
  EXPECT_TRUE(last.read_only());
  EXPECT_EQ(last.read_only_at_s(), 1.25);
  EXPECT_EQ(last.read_only_die(), 0.0);
  EXPECT_EQ(last.first_out_of_room_at_s(), 0.75);
  EXPECT_EQ(last.dies_out(), 2u);
  EXPECT_TRUE(last.takes_writes(0));
  EXPECT_TRUE(last.takes_writes(1));
  EXPECT_FALSE(last.back_in_room(1, 0));  // read-only for good
}

void other_dies(config::DriveConfig& c) {
  c.flash.faults.die_out_of_room = config::DieOutOfRoom::OtherDies;
}

// other_dies: a die out of room takes no host page (a GC copy on it carries an older version)
// until its room has grown back, while the drive stays writable; every page still reads its last
// version.
TEST(FaultyFtl, ADieOutOfRoomTakesNoHostPageUntilItsRoomGrowsBack) {
  Faulty d(0.05, 0, &other_dies);
  for (uint64_t i = 0; i < 200000 && !d.spare().any_out(); ++i) d.write_next();
  ASSERT_TRUE(d.spare().any_out());
  ASSERT_FALSE(d.ftl.read_only());
  uint64_t steered = 0;
  for (; steered < 200000 && !d.ftl.read_only(); ++steered) {
    const std::size_t first_op = d.hal.ops().size();
    const fw::Lpn l = d.write_next();
    const fw::PageToken host{l, d.version[l] + 1};
    bool programmed = false;
    for (std::size_t i = first_op; i < d.hal.ops().size(); ++i) {
      const auto& op = d.hal.ops()[i];
      if (op.kind != test::FakeHal::OpKind::kProgram || op.token.lpn != host.lpn ||
          op.token.version != host.version)
        continue;
      programmed = true;
      EXPECT_TRUE(d.spare().takes_writes(op.ppa.die)) << "write " << steered;
    }
    EXPECT_TRUE(programmed) << "write " << steered;
  }
  // The other dies took a good share of the drive's pages before they ran out too, and dies
  // whose data moved to them came back.
  EXPECT_GT(steered, d.cfg.logical_pages() / 4);
  EXPECT_TRUE(d.ftl.read_only());
  EXPECT_EQ(d.spare().dies_out(), d.cfg.flash.dies());
  EXPECT_GT(d.spare().times_back(), 0u);
  EXPECT_EQ(d.spare().times_out(), d.cfg.flash.dies() + d.spare().times_back());
  d.expect_every_page();
  // The die's valid units, as counted where they change.
  const fw::BlockManager& bm = d.blocks();
  for (uint32_t die = 0; die < bm.dies(); ++die) {
    uint64_t valid = 0;
    for (uint32_t b = 0; b < bm.blocks_per_die(); ++b) valid += bm.valid_pages(die, b);
    EXPECT_EQ(bm.valid_on_die(die), valid) << "die " << die;
  }
}

// The drive turns read-only at the first lost block that leaves a die's room (its good blocks
// outside the SLC reserve, 64 on small_gc, less the retired ones and those its valid data fills)
// at twice the free blocks GC keeps (2 x 4), not before.
TEST(FaultyFtl, ADieWhoseRoomFallsToTheReserveTurnsTheDriveReadOnly) {
  Faulty d(0.05);
  const fw::BlockManager& bm = d.blocks();
  const auto room = [&](uint32_t die) {
    uint64_t valid = 0;
    for (uint32_t b = 0; b < bm.blocks_per_die(); ++b) valid += bm.valid_pages(die, b);
    const uint64_t slots = d.cfg.flash.pages_per_block;  // 4 KiB pages and units
    return int64_t(bm.blocks_per_die()) - bm.retired_blocks(die, false) -
           int64_t((valid + slots - 1) / slots);
  };
  std::vector<uint32_t> lost(bm.dies(), 0);
  for (uint64_t i = 0; i < 200000 && !d.ftl.read_only(); ++i) {
    d.overwrite(1);
    // A loss: read-only when the die it struck has no more room than the reserve. The FTL
    // looks at the erase; the write's page placed after it may fill one more block.
    for (uint32_t die = 0; die < bm.dies(); ++die) {
      if (bm.retired_blocks(die, false) == lost[die]) continue;
      lost[die] = bm.retired_blocks(die, false);
      if (d.ftl.read_only())
        EXPECT_LE(room(die), 8) << "after " << i << " writes";
      else
        EXPECT_GE(room(die), 8) << "after " << i << " writes";
    }
  }
  ASSERT_TRUE(d.ftl.read_only());
  d.expect_every_page();
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

// Every erase failing, each victim costs its die a block for good: the drive turns read-only at
// the first die out of room, and the write that ran it out, passed to the other dies, runs them
// out too. Writes past that, which the firmware refuses, stop the run once a die has no free
// block left for them, and the error names the die's retired blocks.
TEST(FaultyFtl, ADieOutOfSpareBlocksStopsTheRunNamingThem) {
  Faulty d(1.0);
  d.overwrite(100000);
  ASSERT_TRUE(d.ftl.read_only());
  try {
    for (uint64_t i = 0; i < 100000; ++i) d.write_next();
    FAIL() << "the spare blocks never ran out";
  } catch (const std::exception& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("has no free block for the data in flight, and every die is out of room"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("valid units against a mean of "), std::string::npos) << msg;
    EXPECT_NE(msg.find("of its blocks are retired (an erase or a program failed, flash.faults)"),
              std::string::npos)
        << msg;
  }
  EXPECT_EQ(d.spare().dies_out(), d.cfg.flash.dies());
}

nlohmann::json run_faulty(const std::string& dir, const std::string& sets) {
  return test::cli_report("--config " + test::source_path("configs/small_gc.json") +
                              " --precondition --reproducible --set flash.faults.seed=3 " + sets,
                          dir);
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

// Erases failing at 5 %: the first die whose room falls to twice the free blocks GC keeps turns
// the drive read-only. Writes fail from then on (out of the latency figures), reads go on and
// find every page as last written before.
TEST(FaultyDrive, OutOfSpareTheDriveTurnsReadOnlyAndLosesNothing) {
  const std::string sets =
      "--set flash.faults.erase_fail_probability=0.05 "
      "--workload rw=randrw,mix=0.5,bs=4096,qd=8,count=30000,seed=5";
  const std::string dir = test::temp_dir("faults_read_only");
  const nlohmann::json r = run_faulty(dir, sets + " --request-log csv");
  const nlohmann::json& f = r["faults"];
  ASSERT_FALSE(f["read_only_at_s"].is_null()) << f.dump();
  EXPECT_GE(f["most_retired_on_a_die"].get<double>(), 1.0);
  const nlohmann::json& q = r["requests"];
  const uint64_t refused = q["failed_read_only"];
  EXPECT_GT(refused, 1000u);
  EXPECT_EQ(q["count"].get<uint64_t>() + refused, 30000u);
  EXPECT_EQ(q["write"].get<uint64_t>(), r["latency_us"]["write"]["count"].get<uint64_t>());
  EXPECT_EQ(r["scoreboard"]["refused_updates"], refused);  // one 4 KiB page each
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
  EXPECT_EQ(r["scoreboard"]["pages_checked"], q["read"]);
  // The request log gives each request's status.
  const std::string log = test::slurp(dir + "/requests.csv");
  EXPECT_EQ(test::occurrences(log, ",host,read_only,"), refused);
  EXPECT_EQ(test::occurrences(log, ",host,ok,"), q["count"].get<uint64_t>());
  EXPECT_EQ(f["dies_out_of_room"], 1.0);
  EXPECT_EQ(f["first_out_of_room_at_s"], f["read_only_at_s"]);
  const std::string warnings = r["warnings"].dump();
  EXPECT_NE(warnings.find("the drive turned read-only at "), std::string::npos) << warnings;
  EXPECT_NE(warnings.find(" out of room (its room down to twice the free blocks GC keeps, "
                          "ftl.gc_threshold_blocks 4, or nothing left for its GC to reclaim)"),
            std::string::npos)
      << warnings;
  EXPECT_NE(warnings.find(std::to_string(refused) + " writes and trims failed"), std::string::npos)
      << warnings;
  // The same run again: the same figures.
  const nlohmann::json again = run_faulty(test::temp_dir("faults_read_only_b"), sets);
  EXPECT_EQ(again["faults"], f);
  EXPECT_EQ(again["requests"], q);
}

// The run above with other_dies: until the first die runs out it is the same run; then the
// host's data goes to the other dies, which run out in turn, and the drive turns read-only at
// the last, later, having refused fewer writes. Nothing is lost.
TEST(FaultyDrive, WritingToTheOtherDiesKeepsTheDriveWritableLongerAndLosesNothing) {
  const std::string workload = " --workload rw=randrw,mix=0.5,bs=4096,qd=8,count=30000,seed=5";
  const std::string sets = "--set flash.faults.erase_fail_probability=0.05" + workload;
  const nlohmann::json first = run_faulty(test::temp_dir("faults_first_die"), sets);
  const nlohmann::json r = run_faulty(test::temp_dir("faults_other_dies"),
                                      sets + " --set flash.faults.die_out_of_room=other_dies");
  const nlohmann::json& f = r["faults"];
  ASSERT_FALSE(f["read_only_at_s"].is_null()) << f.dump();
  EXPECT_EQ(f["first_out_of_room_at_s"], first["faults"]["read_only_at_s"]);
  EXPECT_GT(f["read_only_at_s"].get<double>(), f["first_out_of_room_at_s"].get<double>());
  EXPECT_EQ(f["dies_out_of_room"], 4.0);
  const uint64_t refused = r["requests"]["failed_read_only"];
  EXPECT_LT(refused, first["requests"]["failed_read_only"].get<uint64_t>());
  EXPECT_EQ(r["scoreboard"]["refused_updates"], refused);
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
  EXPECT_EQ(r["scoreboard"]["pages_checked"], r["requests"]["read"]);
  const std::string warnings = r["warnings"].dump();
  EXPECT_NE(warnings.find(" s, the last die out of room, die "), std::string::npos) << warnings;
}

// Two flows on a drive that turns read-only: each counts the writes and trims failed for it,
// out of its own figures; together they are the run's.
TEST(FaultyDrive, EachFlowCountsTheWritesFailedForIt) {
  const std::string jobs_file = test::temp_dir("faults_flows_jobs") + "/jobs.json";
  {
    std::ofstream jobs(jobs_file);
    jobs << R"({"seed": 5, "jobs": [
      {"name": "a", "rw": "randrw", "mix": 0.5, "bs": "4k", "qd": 4, "count": 15000},
      {"name": "b", "rw": "randwrite", "bs": "4k", "qd": 4, "count": 10000}]})";
  }
  const nlohmann::json r =
      run_faulty(test::temp_dir("faults_flows"),
                 "--set flash.faults.erase_fail_probability=0.05 --workload-file " + jobs_file);
  ASSERT_FALSE(r["faults"]["read_only_at_s"].is_null()) << r["faults"].dump();
  uint64_t failed = 0;
  for (const nlohmann::json& f : r["flows"]) {
    const uint64_t n = f["failed_read_only"];
    EXPECT_GT(n, 0u) << f["name"];
    EXPECT_EQ(f["requests"].get<uint64_t>() + n, f["name"] == "a" ? 15000u : 10000u) << f["name"];
    failed += n;
  }
  EXPECT_EQ(failed, r["requests"]["failed_read_only"].get<uint64_t>());
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
}

// The spare blocks run out under every page-level FTL and mapping unit, with a write buffer:
// the buffer's pages still reach flash after the drive turned read-only, and nothing is lost.
TEST(FaultyDrive, ReadOnlyWithAWriteBufferFlushesItAndLosesNothing) {
  for (const char* sets :
       {"--set ftl.type=page --set dram.write_buffer_mb=1",
        "--set ftl.type=dftl --set dram.write_buffer_mb=1 --set ftl.mapping_unit_bytes=2048"}) {
    const nlohmann::json r =
        run_faulty(test::temp_dir("faults_read_only_buffer"),
                   std::string(sets) +
                       " --set flash.faults.erase_fail_probability=0.05 --set "
                       "flash.faults.program_fail_probability=0.0005 "
                       "--workload rw=randrw,mix=0.5,bs=4096,qd=8,count=30000,seed=5");
    ASSERT_FALSE(r["faults"]["read_only_at_s"].is_null()) << sets << r["faults"].dump();
    EXPECT_EQ(r["write_buffer"]["dirty_at_end"], 0) << sets;
    EXPECT_EQ(r["scoreboard"]["mismatches"], 0) << sets;
    EXPECT_GT(r["requests"]["failed_read_only"].get<uint64_t>(), 0u) << sets;
  }
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

TEST(FaultsConfig, OnlyThePageLevelFtlsRetireBlocks) {
  const std::string out = test::cli_output(
      "--config " + test::source_path("configs/small_gc.json") +
      " --set ftl.type=fast --set flash.faults.erase_fail_probability=0.1 --dump-config");
  EXPECT_NE(out.find("flash.faults.erase_fail_probability: only the page and dftl FTLs retire "
                     "blocks whose erase or program failed"),
            std::string::npos)
      << out;
  const std::string word_lines =
      test::cli_output("--config " + test::source_path("configs/small_gc.json") +
                       " --set flash.cell_type=mlc --set flash.program_unit=word_line "
                       "--set flash.faults.program_fail_probability=0.001 --dump-config");
  EXPECT_NE(word_lines.find("flash.faults.program_fail_probability: needs flash.program_unit page"),
            std::string::npos)
      << word_lines;
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
