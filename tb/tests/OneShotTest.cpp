// One-shot programming (flash.program_unit word_line, docs/architecture.md#one-shot-programming):
// through a FlashChannel, a native-mode program waits for the rest of its word line and they
// run as one: every page's data in, one t_prog_word_line_us; SLC-mode blocks program page by
// page. End to end, the firmware fills word lines and pads one only when its data must end
// (OneShotDrive below).
#include <gtest/gtest.h>

#include "tb/run/Simulation.h"
#include "tb/tests/NandRig.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"
#include "tb/workload/WorkloadGenerator.h"

namespace ssd {
namespace {

using model::FlashOp;
using test::Probe;

class OneShot : public test::NandRig {
 protected:
  // The small drive's dies as TLC (48 pages a block: 16 word lines), programming word lines
  // at once in 1,500 us, under the NAND part's ordering rules.
  void SetUp() override {
    NandRig::SetUp();
    drive.flash.cell_type = config::CellType::Tlc;
    drive.flash.pages_per_block = 48;
    drive.flash.program_unit = config::ProgramUnit::WordLine;
    drive.flash.t_prog_word_line_us = 1500;
    drive.controller.block_order = config::BlockOrder::Nand;
    drive.flash.i_prog_word_line_ma = 42;
    drive.flash.i_prog_word_line_multiplane_ma = 57;
    word_line = us(1500);
  }
  // What a state of `ma` draws over `t` at the dies' voltage.
  double joules(double ma, const sc_core::sc_time& t) const {
    return ma * 1e-3 * drive.flash.voltage_v * t.to_seconds();
  }
  sc_core::sc_time word_line;
};

// The first two pages of a word line wait, however long, for the third; then the three move
// in back to back and program once, at the word line's current: all three end together.
TEST_F(OneShot, AWordLineWaitsForItsLastPageAndProgramsOnce) {
  sc_core::sc_time third;
  EXPECT_EQ(run([&](Probe& p) {
              p.send(FlashOp::Program, 0, 0, 0);
              p.send(FlashOp::Program, 0, 0, 1);
              sc_core::wait(us(5000));
              EXPECT_FALSE(p.sent[0].ended);
              EXPECT_FALSE(p.sent[1].ended);
              third = sc_core::sc_time_stamp();
              p.finish(p.send(FlashOp::Program, 0, 0, 2));
            }),
            "");
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(probe->end(i), third + xfer * 3.0 + word_line);
  EXPECT_EQ(channel->usage().word_line_programs, 1u);
  EXPECT_EQ(channel->usage().die_commands[0], 3u);
  EXPECT_DOUBLE_EQ(time_in(0, model::PowerState::ProgramWordLine), word_line.to_seconds());
  EXPECT_DOUBLE_EQ(time_in(0, model::PowerState::Program), 0.0);
  EXPECT_NEAR(energy_in(0, model::PowerState::ProgramWordLine), joules(42, word_line), 1e-9);
}

// The next word line of the block is a program of its own, after the first; another die's
// word line overlaps it in the array and shares the bus.
TEST_F(OneShot, WordLinesOfTwoDiesOverlapAndShareTheBus) {
  EXPECT_EQ(run([&](Probe& p) {
              for (uint32_t page = 0; page < 6; ++page) p.send(FlashOp::Program, 0, 0, page);
              for (uint32_t page = 0; page < 3; ++page) p.send(FlashOp::Program, 1, 0, page);
            }),
            "");
  const sc_core::sc_time first = xfer * 3.0 + word_line;
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(probe->end(i), first);
  // Die 0's second word line moves in once the first has programmed (no cache program).
  for (std::size_t i = 3; i < 6; ++i) EXPECT_EQ(probe->end(i), first + xfer * 3.0 + word_line);
  // Die 1's data moves in after die 0's first three pages.
  for (std::size_t i = 6; i < 9; ++i) EXPECT_EQ(probe->end(i), xfer * 6.0 + word_line);
  EXPECT_EQ(channel->usage().word_line_programs, 3u);
}

// A block in SLC mode has one page a word line: each program runs alone, in t_prog_slc_us, at
// the page program's current.
TEST_F(OneShot, AnSlcModeBlockProgramsPageByPage) {
  const sc_core::sc_time slc = us(drive.flash.t_prog_slc_us);
  EXPECT_EQ(run([&](Probe& p) {
              p.send(FlashOp::Program, 0, 0, 0, 0, sc_core::SC_ZERO_TIME, true);
              p.send(FlashOp::Program, 0, 0, 1, 0, sc_core::SC_ZERO_TIME, true);
            }),
            "");
  EXPECT_EQ(probe->end(0), xfer + slc);
  EXPECT_EQ(probe->end(1), (xfer + slc) * 2.0);
  EXPECT_EQ(channel->usage().word_line_programs, 0u);
  EXPECT_DOUBLE_EQ(time_in(0, model::PowerState::Program), 2 * slc.to_seconds());
  EXPECT_NEAR(energy_in(0, model::PowerState::Program), joules(drive.flash.i_prog_ma, slc * 2.0),
              1e-9);
  EXPECT_DOUBLE_EQ(time_in(0, model::PowerState::ProgramWordLine), 0.0);
}

// Multi-plane: the word lines of two planes at one page offset program together, six pages'
// data in, one array time at the multi-plane word line's current.
TEST_F(OneShot, TwoPlanesWordLinesProgramTogether) {
  drive.flash.planes_per_die = 2;
  drive.flash.blocks_per_plane = 32;
  drive.flash.multiplane = true;
  EXPECT_EQ(run([&](Probe& p) {
              for (uint32_t page = 0; page < 3; ++page) {
                p.send(FlashOp::Program, 0, 0, page);
                p.send(FlashOp::Program, 0, 32, page);  // block 32: the second plane
              }
            }),
            "");
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(probe->end(i), xfer * 6.0 + word_line);
  EXPECT_EQ(channel->usage().word_line_programs, 2u);
  EXPECT_EQ(channel->usage().multiplane_groups, 1u);
  EXPECT_DOUBLE_EQ(time_in(0, model::PowerState::ProgramWordLineMultiplane),
                   word_line.to_seconds());
  EXPECT_NEAR(energy_in(0, model::PowerState::ProgramWordLineMultiplane), joules(57, word_line),
              1e-9);
}

// What a drive must have for it, each refused by name.
TEST(OneShotConfig, WordLinesNeedWhatTheFirmwareFillsThemWith) {
  const auto drive = [](const std::string& flash, const std::string& rest) {
    return R"({"name": "d", "flash": {"program_unit": "word_line", )" + flash + "}" + rest + "}";
  };
  const std::string fit =
      R"(, "ftl": {"type": "page"}, "dram": {"write_buffer_mb": 1}, "controller":
         {"block_order": "nand", "issue_order": "per_die_queues"})";
  EXPECT_EQ(test::config_error(drive(R"("cell_type": "slc")", fit)),
            "t.json: flash.program_unit: word_line needs cell_type mlc, tlc or qlc");
  EXPECT_EQ(test::config_error(drive(R"("cell_type": "tlc", "pages_per_block": 32)", fit)),
            "t.json: flash.program_unit: word_line needs pages_per_block (32) a whole number of "
            "tlc word lines (3 pages each)");
  const std::string unfit = test::config_error(
      drive(R"("cell_type": "tlc", "pages_per_block": 48)",
            R"(, "ftl": {"type": "fast"}, "dram": {"write_buffer_mb": 0}, "controller":
         {"block_order": "in_order", "issue_order": "in_order"})"));
  for (const char* need :
       {"flash.program_unit: word_line needs ftl.type page or dftl",
        "flash.program_unit: word_line needs a write buffer (dram.write_buffer_mb)",
        "flash.program_unit: word_line needs controller.block_order nand",
        "flash.program_unit: word_line needs controller.issue_order per_die_queues"})
    EXPECT_NE(unfit.find(need), std::string::npos) << unfit;
}

// The small drive as TLC (16 word lines of 3 pages a block) with one-shot programming and a 1 MiB
// write buffer.
config::DriveConfig tlc_drive() {
  auto cfg = test::shipped("small_gc");
  cfg.flash.cell_type = config::CellType::Tlc;
  cfg.flash.pages_per_block = 48;
  cfg.flash.program_unit = config::ProgramUnit::WordLine;
  cfg.dram.write_buffer_mb = 1;
  cfg.controller.block_order = config::BlockOrder::Nand;
  return cfg;
}

// End to end on the small drive as TLC with a 1 MiB write buffer: the scoreboard holds through
// overwrites of 4x the capacity at QD 32 and 256, the mixed hot range (trims and flushes among
// the writes), with an SLC cache (static and dynamic), mapping units and DFTL; every page the
// host wrote was programmed, the word lines padded at the ends the firmware waits for.
TEST(OneShotDrive, TheScoreboardHoldsAndEveryWordLineEnds) {
  struct Case {
    const char* name;
    void (*apply)(config::DriveConfig&);
  };
  const Case cases[] = {
      {"page", [](config::DriveConfig&) {}},
      {"dftl", [](config::DriveConfig& c) { c.ftl.type = config::FtlType::Dftl; }},
      {"units", [](config::DriveConfig& c) { c.ftl.mapping_unit_bytes = 1024; }},
      {"static slc", [](config::DriveConfig& c) { c.ftl.slc_cache_blocks_per_plane = 2; }},
      {"dynamic slc",
       [](config::DriveConfig& c) {
         c.ftl.slc_dynamic = {{0.2, 0.0}, {0.5, 0.1}, {1.0, 0.1}};
       }},
      {"two planes", [](config::DriveConfig& c) {
         c.flash.planes_per_die = 2;
         c.flash.blocks_per_plane = 32;
         c.flash.multiplane = true;
         c.flash.cache_program = true;
         c.ftl.allocation = config::Allocation::PlaneFirst;
         c.controller.suspend_for_reads = true;
       }}};
  for (const Case& k : cases) {
    SCOPED_TRACE(k.name);
    auto cfg = tlc_drive();
    k.apply(cfg);
    const uint64_t pages = cfg.logical_pages();
    const auto check = [](const tb::RunResult& r) {
      EXPECT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
      EXPECT_GT(r.report["scoreboard"]["pages_checked"].get<uint64_t>(), 0u);
      EXPECT_EQ(r.report["write_buffer"]["dirty_at_end"].get<uint64_t>(), 0u);
      const auto& u = r.report["utilisation"];
      EXPECT_GT(u["word_line_programs"].get<uint64_t>(), 0u);
      // Every command ran: no word line was left waiting for pages at the end.
      const auto& f = r.report["flash_ops"];
      uint64_t ran = 0;
      for (const auto& d : u["dies"]) ran += d["commands"].get<uint64_t>();
      EXPECT_EQ(ran, f["read"].get<uint64_t>() + f["program"].get<uint64_t>() +
                         f["erase"].get<uint64_t>() + f["spare_read"].get<uint64_t>());
    };
    for (uint32_t qd : {32u, 256u}) {
      config::DriveConfig c = cfg;
      test::set_queue_depth(c, qd);
      auto src = tb::make_workload("rw=randrw,mix=0.3,bs=4k,seed=5,qd=" + std::to_string(qd) +
                                       ",count=" + std::to_string(pages * 4),
                                   c.logical_bytes());
      check(tb::run_simulation(c, *src, tb::RunOptions{}));
    }
    tb::VectorSource src(test::hot_mix(pages, 31, 1024));
    check(tb::run_simulation(cfg, src, tb::RunOptions{}));
  }
}

// Idle after every write, the firmware pads the open word line (its data must end), and the pads
// end the die's turn as data ending it would: the next write goes to the next die. Left on the
// die, the pads made every write of an idle-gapped workload land on die 0, which filled up.
TEST(OneShotDrive, PaddedWordLinesMoveTheDieRotationOn) {
  const auto cfg = tlc_drive();
  const uint32_t dies = cfg.flash.dies();
  const uint32_t turns = 5;
  // 5 ms apart: past the write buffer's 1 ms idle timer, so each write is destaged alone.
  std::vector<tb::HostRequest> writes;
  for (uint32_t i = 0; i < dies * turns; ++i)
    writes.push_back(test::request(5000.0 * i, tb::IoOp::Write,
                                   uint64_t(i) * 7919 % cfg.logical_pages() * 4096, 4096));
  tb::VectorSource src(std::move(writes));
  const auto r = tb::run_simulation(cfg, src, tb::RunOptions{});
  EXPECT_TRUE(r.data_intact);
  const auto& f = r.report["flash_ops"];
  EXPECT_EQ(f["erase"].get<uint64_t>(), 0u);
  // A word line of three pages per write: one page of data, two padded.
  EXPECT_EQ(f["word_line_pads"].get<uint64_t>(), 2u * dies * turns);
  for (const auto& d : r.report["utilisation"]["dies"])
    EXPECT_EQ(d["commands"].get<uint64_t>(), 3u * turns) << d["name"];
}

}  // namespace
}  // namespace ssd
