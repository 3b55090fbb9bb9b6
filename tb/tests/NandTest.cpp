// The NAND rules the die enforces, and exact module-level timing of read, program and erase
// through a FlashChannel on an idle die (the rig: NandRig.h; multi-plane: MultiPlaneTest.cpp).
#include <gtest/gtest.h>

#include "tb/tests/NandRig.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

using model::FlashOp;
using test::Probe;

class Nand : public test::NandRig {
 protected:
  void read_first_case(bool read_first);
  void block_order_case(bool nand);
  void gc_copies_case(bool nand);
  void gc_wait_case(bool background);
  void cache_program_case(bool cache);
  void use_slc_mode();
};

TEST_F(Nand, ProgramOfAProgrammedPageIsRejected) {
  const std::string msg = run([](Probe& p) {
    p.send(FlashOp::Program, 0, 3, 0);
    p.send(FlashOp::Program, 0, 3, 0);
  });
  EXPECT_NE(msg.find("NAND rule violated: program of a page that is not erased"), std::string::npos)
      << msg;
  EXPECT_NE(msg.find("block 3, page 0"), std::string::npos) << msg;
}

// A page may be skipped (Ban 1999's replacement blocks leave never-written offsets erased):
// it stays erased, cannot be read, and cannot be programmed once a later page is.
TEST_F(Nand, APageMayBeSkipped) {
  EXPECT_EQ(run([](Probe& p) {
              p.send(FlashOp::Program, 0, 0, 2, 7);
              EXPECT_EQ(p.sent[p.send(FlashOp::Read, 0, 0, 2)].cmd->data, (fw::PageToken{2, 7}));
              p.send(FlashOp::Program, 0, 0, 3);
            }),
            "");
}

TEST_F(Nand, ASkippedPageCannotBeRead) {
  const std::string msg = run([](Probe& p) {
    p.send(FlashOp::Program, 0, 0, 2);
    p.send(FlashOp::Read, 0, 0, 1);
  });
  EXPECT_NE(msg.find("read of a page that is not programmed"), std::string::npos) << msg;
}

TEST_F(Nand, ASkippedPageCannotBeProgrammedAfterALaterOne) {
  const std::string msg = run([](Probe& p) {
    p.send(FlashOp::Program, 0, 0, 2);
    p.send(FlashOp::Program, 0, 0, 1);
  });
  EXPECT_NE(msg.find("ascending order: page 2 is programmed"), std::string::npos) << msg;
}

// A spare-area read (the block FTL's replacement blocks): flash.t_oob_read_us in its own
// state at i_oob_read_ma, then flash.oob_bytes over the bus; it returns the page's token.
TEST_F(Nand, ASpareReadTakesItsOwnTimeBytesAndCurrent) {
  drive.ftl.type = config::FtlType::Block;  // replacement blocks: the dies read spare areas
  drive.flash.t_oob_read_us = 40;
  drive.flash.oob_bytes = 224;
  drive.flash.i_oob_read_ma = 17;
  const sc_core::sc_time oob_xfer(224 * drive.flash.bus_ns_per_byte, sc_core::SC_NS);
  sc_core::sc_time t0, t1;
  fw::PageToken got;
  EXPECT_EQ(run([&](Probe& p) {
              t0 = p.finish(p.send(FlashOp::Program, 0, 0, 0, 4));
              const size_t i = p.send(FlashOp::Read, 0, 0, 0, 0, sc_core::SC_ZERO_TIME, false,
                                      false, 1, 0, true);
              got = p.sent[i].cmd->data;
              t1 = p.finish(i);
            }),
            "");
  EXPECT_EQ(t1 - t0, us(40) + oob_xfer);
  EXPECT_EQ(got, (fw::PageToken{0, 4}));
  EXPECT_DOUBLE_EQ(time_in(0, model::PowerState::SpareRead), us(40).to_seconds());
  EXPECT_DOUBLE_EQ(time_in(0, model::PowerState::Read), 0.0);
  double spare_j = -1;
  for (const auto& c : monitor->component_energy()) {
    if (c.name != "ch0.w0d0") continue;
    for (const auto& [s, j] : c.energy_j)
      if (s == model::PowerState::SpareRead) spare_j = j;
  }
  EXPECT_DOUBLE_EQ(spare_j, 17e-3 * drive.flash.voltage_v * 40e-6);
}

// Other drives' dies have no spare-read state (their reports list none).
TEST_F(Nand, OnlyASpareReadingDriveHasTheSpareReadState) {
  EXPECT_EQ(run([](Probe& p) { p.send(FlashOp::Program, 0, 0, 0); }), "");
  EXPECT_EQ(time_in(0, model::PowerState::SpareRead), -1);
}

TEST_F(Nand, ReadOfAnErasedPageIsRejected) {
  const std::string msg = run([](Probe& p) {
    p.send(FlashOp::Program, 0, 1, 0);
    p.send(FlashOp::Read, 0, 1, 1);
  });
  EXPECT_NE(msg.find("read of a page that is not programmed"), std::string::npos) << msg;
}

TEST_F(Nand, AddressesOutOfRangeAreRejected) {
  EXPECT_NE(run([this](Probe& p) {
              p.send(FlashOp::Erase, 0, drive.flash.blocks_per_die(), 0);
            }).find("block address out of range"),
            std::string::npos);
}

TEST_F(Nand, EraseMakesTheBlockProgrammableAgainAndDataSurvives) {
  fw::PageToken got;
  const std::string msg = run([&](Probe& p) {
    p.send(FlashOp::Program, 0, 5, 0, 11);
    p.send(FlashOp::Erase, 0, 5, 0);
    p.send(FlashOp::Program, 0, 5, 0, 12);
    got = p.sent[p.send(FlashOp::Read, 0, 5, 0)].cmd->data;
  });
  EXPECT_EQ(msg, "");
  EXPECT_EQ(got.version, 12u);
  EXPECT_EQ(channel->die(0).erase_count(5), 1u);
}

TEST_F(Nand, ReadProgramEraseTimingOnAnIdleDie) {
  const sc_core::sc_time erase(drive.flash.t_erase_us, sc_core::SC_US);
  sc_core::sc_time t_prog, t_read, t_erase;
  EXPECT_EQ(run([&](Probe& p) {
              t_prog = p.finish(p.send(FlashOp::Program, 0, 0, 0));
              t_read = p.finish(p.send(FlashOp::Read, 0, 0, 0)) - t_prog;
              const sc_core::sc_time start = sc_core::sc_time_stamp();
              t_erase = p.finish(p.send(FlashOp::Erase, 0, 0, 0)) - start;
            }),
            "");
  EXPECT_EQ(t_prog, xfer + prog);  // data in, then tPROG
  EXPECT_EQ(t_read, read + xfer);  // tR, then data out
  EXPECT_EQ(t_erase, erase);       // tBERS
}

TEST_F(Nand, WaysShareTheBusButOverlapTheirArrayWork) {
  EXPECT_EQ(run([&](Probe& p) {
              p.send(FlashOp::Program, 0, 0, 0);  // way 0
              p.send(FlashOp::Program, 1, 0, 0);  // way 1: its transfer waits for way 0's
              p.send(FlashOp::Program, 0, 0, 1);  // way 0 again: waits for its own tPROG
            }),
            "");
  EXPECT_EQ(probe->end(0), xfer + prog);
  EXPECT_EQ(probe->end(1), xfer + xfer + prog);
  // The bus is free at 2*xfer, but die 0 is busy until xfer + prog.
  EXPECT_EQ(probe->end(2), xfer + prog + xfer + prog);
}

// The issue that motivated per-die queues: a read to an idle die must not wait behind a
// program queued for another die of its channel.
TEST_F(Nand, ReadToAnIdleDieDoesNotWaitBehindAnotherDiesProgram) {
  sc_core::sc_time t0;
  EXPECT_EQ(run([&](Probe& p) {
              t0 = p.finish(p.send(FlashOp::Program, 1, 0, 0, 7));  // something to read
              p.send(FlashOp::Program, 0, 0, 0);                    // 1: die 0
              p.send(FlashOp::Program, 0, 0, 1);                    // 2: die 0, queued
              p.send(FlashOp::Read, 1, 0, 0);                       // 3: die 1, idle
            }),
            "");
  ASSERT_EQ(t0, xfer + prog);
  // Die 1 reads at once (tR < one transfer); its data goes out when program 1's data-in
  // frees the bus, ahead of program 2, whose die is busy for tPROG.
  EXPECT_EQ(probe->end(3) - t0, xfer + xfer);
  EXPECT_EQ(probe->end(1) - t0, xfer + prog);
  EXPECT_EQ(probe->end(2) - t0, xfer + prog + xfer + prog);
  EXPECT_EQ(probe->sent[3].cmd->data, (fw::PageToken{0, 7}));
}

// Each case gets its own test (and so its own SystemC kernel).
void Nand::read_first_case(bool read_first) {
  drive.controller.scheduler_policy =
      test::choice<config::SchedulerPolicy>(read_first ? "read_first" : "oldest_ready");
  sc_core::sc_time t0;
  EXPECT_EQ(run([&](Probe& p) {
              t0 = p.finish(p.send(FlashOp::Program, 0, 0, 0));
              p.send(FlashOp::Program, 0, 1, 0);  // 1
              p.send(FlashOp::Read, 0, 0, 0);     // 2: another block of the same die
            }),
            "");
  if (!read_first) {
    EXPECT_EQ(probe->end(1) - t0, xfer + prog);
    EXPECT_EQ(probe->end(2) - t0, xfer + prog + read + xfer);
  } else {
    EXPECT_EQ(probe->end(2) - t0, read + xfer);
    EXPECT_EQ(probe->end(1) - t0, read + xfer + xfer + prog);
  }
}

TEST_F(Nand, OldestReadyStartsTheOlderProgramFirst) { read_first_case(false); }
TEST_F(Nand, ReadFirstStartsAQueuedReadBeforeAnOlderProgram) { read_first_case(true); }

// block_order "nand" (architecture.md#ordering-rules): a read of a page programmed earlier
// passes a program queued for its block, which "in_order" keeps ahead of it.
void Nand::block_order_case(bool nand) {
  drive.controller.scheduler_policy = config::SchedulerPolicy::ReadFirst;
  drive.controller.block_order = test::choice<config::BlockOrder>(nand ? "nand" : "in_order");
  sc_core::sc_time t0;
  EXPECT_EQ(run([&](Probe& p) {
              t0 = p.finish(p.send(FlashOp::Program, 0, 0, 0, 5));
              p.send(FlashOp::Program, 0, 0, 1);  // 1: the block's next page
              p.send(FlashOp::Read, 0, 0, 0);     // 2: the page programmed before
            }),
            "");
  const sc_core::sc_time first = nand ? probe->end(2) : probe->end(1);
  const sc_core::sc_time second = nand ? probe->end(1) : probe->end(2);
  EXPECT_EQ(first - t0, nand ? read + xfer : xfer + prog);
  EXPECT_EQ(second - first, nand ? xfer + prog : read + xfer);
  EXPECT_EQ(probe->sent[2].cmd->data, (fw::PageToken{0, 5}));
}

TEST_F(Nand, InOrderAReadWaitsForAProgramQueuedForItsBlock) { block_order_case(false); }
TEST_F(Nand, NandOrderAReadOfAFinishedPagePassesAProgramQueuedForItsBlock) {
  block_order_case(true);
}

// Under host_first, a host read of a GC victim's page passes the copies (background reads)
// queued for the victim before it; "in_order" keeps it behind every one.
void Nand::gc_copies_case(bool nand) {
  drive.controller.host_first = true;
  drive.controller.block_order = test::choice<config::BlockOrder>(nand ? "nand" : "in_order");
  sc_core::sc_time t0;
  EXPECT_EQ(run([&](Probe& p) {
              p.send(FlashOp::Program, 0, 0, 0, 5);
              t0 = p.finish(p.send(FlashOp::Program, 0, 0, 1, 6));
              for (uint32_t page : {0u, 1u})  // 2, 3: GC copies the victim's pages
                p.send(FlashOp::Read, 0, 0, page, 0, sc_core::SC_ZERO_TIME, false, true);
              p.send(FlashOp::Read, 0, 0, 1);  // 4: the host reads one of them
            }),
            "");
  const sc_core::sc_time one = read + xfer;
  EXPECT_EQ(probe->end(4) - t0, nand ? one : one * 3.0);
  EXPECT_EQ(probe->end(2) - t0, nand ? one * 2.0 : one);
  EXPECT_EQ(probe->end(3) - t0, nand ? one * 3.0 : one * 2.0);
  EXPECT_EQ(probe->sent[4].cmd->data, (fw::PageToken{1, 6}));
}

TEST_F(Nand, InOrderAHostReadWaitsBehindGcCopiesOfItsBlock) { gc_copies_case(false); }
TEST_F(Nand, NandOrderAHostReadPassesGcCopiesOfItsBlock) { gc_copies_case(true); }

// A read of a page whose program is queued waits for that program, not for the later
// programs of its block.
TEST_F(Nand, NandOrderAReadWaitsForItsOwnPagesProgramOnly) {
  drive.controller.scheduler_policy = config::SchedulerPolicy::ReadFirst;
  drive.controller.block_order = config::BlockOrder::Nand;
  sc_core::sc_time t0;
  EXPECT_EQ(run([&](Probe& p) {
              t0 = p.finish(p.send(FlashOp::Program, 0, 0, 0, 5));
              p.send(FlashOp::Program, 0, 0, 1, 6);  // 1
              p.send(FlashOp::Program, 0, 0, 2, 7);  // 2
              p.send(FlashOp::Read, 0, 0, 1);        // 3: of page 1, still to be programmed
            }),
            "");
  EXPECT_EQ(probe->end(1) - t0, xfer + prog);
  EXPECT_EQ(probe->end(3) - probe->end(1), read + xfer);
  EXPECT_EQ(probe->end(2) - probe->end(3), xfer + prog);
  EXPECT_EQ(probe->sent[3].cmd->data, (fw::PageToken{1, 6}));
}

// A host read that finds its die on background work waits for it, and is told how long: the
// die's background time since the read was ready. Host work ahead of it is no GC wait.
void Nand::gc_wait_case(bool background) {
  sc_core::sc_time t0;
  EXPECT_EQ(run([&](Probe& p) {
              t0 = p.finish(p.send(FlashOp::Program, 0, 0, 0));
              p.send(FlashOp::Program, 0, 1, 0, 0, sc_core::SC_ZERO_TIME, false, background);
              p.send(FlashOp::Read, 0, 0, 0, 0, us(100));  // 2: ready 100 us into it
            }),
            "");
  EXPECT_EQ(probe->end(2) - t0, xfer + prog + read + xfer);
  EXPECT_EQ(probe->sent[2].cmd->gc_wait,
            background ? xfer + prog - us(100) : sc_core::SC_ZERO_TIME);
  EXPECT_EQ(probe->sent[1].cmd->gc_wait, sc_core::SC_ZERO_TIME);
}

TEST_F(Nand, AReadBehindGcWorkIsToldHowLongItWaited) { gc_wait_case(true); }
TEST_F(Nand, AReadBehindHostWorkDidNotWaitForGc) { gc_wait_case(false); }

// A queued GC read whose data the host now waits for (controller PROMOTE) ranks as host work
// under host_first: it passes the GC read queued before it.
TEST_F(Nand, APromotedGcReadRanksAsHostWork) {
  drive.controller.host_first = true;
  drive.controller.block_order = config::BlockOrder::Nand;
  sc_core::sc_time t0;
  EXPECT_EQ(run([&](Probe& p) {
              p.send(FlashOp::Program, 0, 0, 0, 5);
              t0 = p.finish(p.send(FlashOp::Program, 0, 0, 1, 6));
              p.send(FlashOp::Program, 0, 3, 0);  // 2: keeps the die busy
              for (uint32_t page : {0u, 1u})      // 3, 4: GC copies
                p.send(FlashOp::Read, 0, 0, page, 0, sc_core::SC_ZERO_TIME, false, true);
              p.promote(4);
            }),
            "");
  const sc_core::sc_time busy = xfer + prog;
  EXPECT_EQ(probe->end(4) - t0, busy + read + xfer);
  EXPECT_EQ(probe->end(3) - t0, busy + (read + xfer) * 2.0);
  EXPECT_FALSE(probe->sent[4].cmd->background);
  EXPECT_EQ(probe->sent[4].cmd->data, (fw::PageToken{1, 6}));
}

// 16 KiB pages of four 4 KiB mapping units: a program moves the page over the bus, a read
// only the unit it reads.
TEST_F(Nand, AUnitReadMovesOneUnitOverTheBus) {
  drive.flash.page_bytes = 16384;
  drive.ftl.mapping_unit_bytes = 4096;
  const sc_core::sc_time unit_xfer(4096 * drive.flash.bus_ns_per_byte, sc_core::SC_NS);
  sc_core::sc_time t0, t1;
  EXPECT_EQ(
      run([&](Probe& p) {
        t0 = p.finish(p.send(FlashOp::Program, 0, 0, 0, 9, sc_core::SC_ZERO_TIME, false, false, 4));
        t1 = p.finish(p.send(FlashOp::Read, 0, 0, 0, 0, sc_core::SC_ZERO_TIME, false, false, 1, 2));
      }),
      "");
  EXPECT_EQ(t0, unit_xfer * 4.0 + prog);
  EXPECT_EQ(t1 - t0, read + unit_xfer);
  EXPECT_EQ(probe->sent[1].cmd->data, (fw::PageToken{2, 9}));
  // The bus held one page and one unit.
  double bus_s = -1;
  for (const auto& c : monitor->component_energy())
    if (c.name == "ch0")
      for (const auto& [state, seconds] : c.time_s)
        if (state == model::PowerState::Transfer) bus_s = seconds;
  EXPECT_DOUBLE_EQ(bus_s, (unit_xfer * 5.0).to_seconds());
}

// Reads of three units of one page, queued together: one array read, then the three units
// over the bus, and all three end with the last.
TEST_F(Nand, ReadsOfOnePagesUnitsShareOneArrayRead) {
  drive.flash.page_bytes = 16384;
  drive.ftl.mapping_unit_bytes = 4096;
  const sc_core::sc_time unit_xfer(4096 * drive.flash.bus_ns_per_byte, sc_core::SC_NS);
  const sc_core::sc_time page_xfer = unit_xfer * 4.0;
  sc_core::sc_time t0;
  EXPECT_EQ(
      run([&](Probe& p) {
        t0 = p.finish(p.send(FlashOp::Program, 0, 0, 0, 3, sc_core::SC_ZERO_TIME, false, false, 4));
        p.send(FlashOp::Program, 0, 1, 0, 0, sc_core::SC_ZERO_TIME, false, false, 4);
        for (uint32_t u : {0u, 1u, 3u})  // 2, 3, 4
          p.send(FlashOp::Read, 0, 0, 0, 0, sc_core::SC_ZERO_TIME, false, false, 1, u);
      }),
      "");
  const sc_core::sc_time reads_start = t0 + page_xfer + prog;
  for (size_t i : {2u, 3u, 4u}) EXPECT_EQ(probe->end(i), reads_start + read + unit_xfer * 3.0);
  EXPECT_EQ(probe->sent[4].cmd->data, (fw::PageToken{3, 3}));
  EXPECT_EQ(channel->usage().merged_reads, 2u);
  EXPECT_DOUBLE_EQ(time_in(0, model::PowerState::Read), read.to_seconds()) << "one tR";
}

TEST_F(Nand, CommandsToOneBlockKeepTheirOrderUnderReadFirst) {
  drive.controller.scheduler_policy = config::SchedulerPolicy::ReadFirst;
  EXPECT_EQ(run([&](Probe& p) {
              p.send(FlashOp::Program, 0, 0, 0, 5);
              p.send(FlashOp::Read, 0, 0, 0);  // same block: may not pass the program
            }),
            "");
  EXPECT_EQ(probe->end(1), xfer + prog + read + xfer);
  EXPECT_EQ(probe->sent[1].cmd->data, (fw::PageToken{0, 5}));
}

TEST_F(Nand, HostReadSuspendsAProgramAndTheProgramResumes) {
  drive.controller.suspend_for_reads = true;
  drive.flash.t_suspend_us = 20;
  drive.flash.t_resume_us = 30;
  sc_core::sc_time t0;
  EXPECT_EQ(run([&](Probe& p) {
              t0 = p.finish(p.send(FlashOp::Program, 0, 0, 0));
              p.send(FlashOp::Program, 0, 1, 0);                  // 1: tPROG from t0 + xfer
              p.send(FlashOp::Read, 0, 0, 0, 0, xfer + us(100));  // 2: 100 us into it
            }),
            "");
  const sc_core::sc_time t1 = t0 + xfer + us(100);
  // Suspend (20), tR, data out; then resume (30) and the 400 us of tPROG left.
  EXPECT_EQ(probe->end(2), t1 + us(20) + read + xfer);
  EXPECT_EQ(probe->end(1), probe->end(2) + us(30) + prog - us(100));
  EXPECT_EQ(channel->usage().suspensions, 1u);
  // The die programs for tPROG plus the suspend and resume times.
  EXPECT_DOUBLE_EQ(time_in(0, model::PowerState::Program),
                   (prog + prog + us(20) + us(30)).to_seconds());
}

TEST_F(Nand, BackgroundReadsDoNotSuspend) {
  drive.controller.suspend_for_reads = true;
  sc_core::sc_time t0;
  EXPECT_EQ(run([&](Probe& p) {
              t0 = p.finish(p.send(FlashOp::Program, 0, 0, 0));
              p.send(FlashOp::Program, 0, 1, 0);
              const size_t r = p.send(FlashOp::Read, 0, 0, 0, 0, xfer + us(100));
              p.sent[r].cmd->background = true;  // a GC read
            }),
            "");
  EXPECT_EQ(probe->end(2) - t0, xfer + prog + read + xfer);
  EXPECT_EQ(channel->usage().suspensions, 0u);
}

TEST_F(Nand, MlcPagesHaveTheirOwnTimes) {
  drive.flash.cell_type = config::CellType::Mlc;
  drive.flash.t_prog_by_page_type_us = {300, 1200};  // LSB, MSB
  drive.flash.t_read_by_page_type_us = {40, 70};
  EXPECT_EQ(run([&](Probe& p) {
              p.send(FlashOp::Program, 0, 0, 0);  // LSB
              p.send(FlashOp::Program, 0, 0, 1);  // MSB of the same wordline
              p.send(FlashOp::Read, 0, 0, 0);
              p.send(FlashOp::Read, 0, 0, 1);
            }),
            "");
  EXPECT_EQ(probe->end(0), xfer + us(300));
  EXPECT_EQ(probe->end(1), xfer + us(300) + xfer + us(1200));
  EXPECT_EQ(probe->end(2), probe->end(1) + us(40) + xfer);
  EXPECT_EQ(probe->end(3), probe->end(2) + us(70) + xfer);
}

// A TLC block in SLC mode: the SLC-mode array times, a third of the pages, and one mode per
// block from its erase on.
void Nand::use_slc_mode() {
  drive.flash.cell_type = config::CellType::Tlc;
  drive.flash.pages_per_block = 96;
  drive.flash.t_read_slc_us = 25;
  drive.flash.t_prog_slc_us = 150;
}

TEST_F(Nand, SlcModeHasItsOwnTimes) {
  use_slc_mode();
  EXPECT_EQ(run([&](Probe& p) {
              p.send(FlashOp::Program, 0, 0, 0, 0, sc_core::SC_ZERO_TIME, true);
              p.send(FlashOp::Read, 0, 0, 0, 0, sc_core::SC_ZERO_TIME, true);
            }),
            "");
  EXPECT_EQ(probe->end(0), xfer + us(150));
  EXPECT_EQ(probe->end(1), probe->end(0) + us(25) + xfer);
}

TEST_F(Nand, SlcModeHasAThirdOfTheTlcPages) {
  use_slc_mode();
  EXPECT_NE(run([&](Probe& p) {
              p.send(FlashOp::Program, 0, 0, 32, 0, sc_core::SC_ZERO_TIME, true);
            }).find("page address out of range (blocks have 32 pages in SLC mode)"),
            std::string::npos);
}

TEST_F(Nand, AnSlcBlockTakesNoNativeProgram) {
  use_slc_mode();
  EXPECT_NE(run([&](Probe& p) {
              p.send(FlashOp::Program, 0, 0, 0, 0, sc_core::SC_ZERO_TIME, true);
              p.send(FlashOp::Program, 0, 0, 1, 0, sc_core::SC_ZERO_TIME, false);
            }).find("the block was programmed in SLC mode since its erase"),
            std::string::npos);
}

TEST_F(Nand, ANativeBlockTakesNoSlcRead) {
  use_slc_mode();
  EXPECT_NE(run([&](Probe& p) {
              p.send(FlashOp::Program, 0, 0, 0);
              p.send(FlashOp::Read, 0, 0, 0, 0, sc_core::SC_ZERO_TIME, true);
            }).find("the block was programmed in native mode since its erase"),
            std::string::npos);
}

void Nand::cache_program_case(bool cache) {
  drive.flash.cache_program = cache;
  EXPECT_EQ(run([&](Probe& p) {
              p.send(FlashOp::Program, 0, 0, 0);
              p.send(FlashOp::Program, 0, 0, 1);
              p.send(FlashOp::Program, 0, 0, 2);
            }),
            "");
  EXPECT_EQ(probe->end(0), xfer + prog);
  if (cache) {
    // Pages 1 and 2 move in while the page before them programs.
    EXPECT_EQ(probe->end(1), xfer + prog + prog);
    EXPECT_EQ(probe->end(2), xfer + prog + prog + prog);
    EXPECT_EQ(channel->usage().cache_programs, 2u);
  } else {
    EXPECT_EQ(probe->end(1), (xfer + prog) * 2.0);
    EXPECT_EQ(probe->end(2), (xfer + prog) * 3.0);
  }
}

TEST_F(Nand, CacheProgramMovesTheNextPagesDataDuringTheProgram) { cache_program_case(true); }
TEST_F(Nand, WithoutCacheProgramPagesProgramOneAfterAnother) { cache_program_case(false); }

}  // namespace
}  // namespace ssd
