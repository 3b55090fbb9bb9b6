// The controller's parts alone (model/controller/): the flash command table, the host command
// table, reads from the buffer, background work's timing, and the core's record of its waits.
#include <gtest/gtest.h>

#include "model/controller/BackgroundWork.h"
#include "model/controller/BufferReads.h"
#include "model/controller/Core.h"
#include "model/controller/HostCommands.h"
#include "model/controller/OpTable.h"
#include "model/power/EnergyMonitor.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

using model::controller::BackgroundWork;
using model::controller::BufferReads;
using model::controller::Core;
using model::controller::HostCommand;
using model::controller::HostCommands;
using model::controller::Op;
using model::controller::OpTable;
using sc_core::sc_time;
using sc_core::SC_US;
using sc_core::SC_ZERO_TIME;

sc_time us(double v) { return sc_time(v, SC_US); }

// A command made at `now` and answered at once, ending at `end`.
fw::OpId made_and_ended(OpTable& t, const sc_time& now, const sc_time& end,
                        std::vector<uint32_t>* retired = nullptr) {
  uint32_t slot;
  Op& op = t.make(now, fw::Work::HostData, slot, [&](uint32_t s) {
    if (retired) retired->push_back(s);
  });
  op.ended = true;
  op.end = end;
  t.ended(slot);
  return t.id_of(slot);
}

TEST(OpTable, AnEndedCommandKeepsItsSlotUntilItsEndHasPassed) {
  OpTable t;
  std::vector<uint32_t> retired;
  const fw::OpId a = made_and_ended(t, us(0), us(50), &retired);
  EXPECT_EQ(t.in_flight(), 0u);
  // At 40 us its end is still ahead: its id still names it, and a new command takes a new slot.
  const fw::OpId b = made_and_ended(t, us(40), us(45), &retired);
  EXPECT_TRUE(retired.empty());
  ASSERT_NE(t.live(a), nullptr);
  EXPECT_EQ(t.live(a)->end, us(50));
  EXPECT_NE(OpTable::slot_of(a), OpTable::slot_of(b));
  // At 50 us both have passed (in the order answered): retired, slots reused, old ids stale.
  uint32_t slot;
  t.make(us(50), fw::Work::Gc, slot, [&](uint32_t s) { retired.push_back(s); });
  EXPECT_EQ(retired, (std::vector<uint32_t>{OpTable::slot_of(a), OpTable::slot_of(b)}));
  EXPECT_EQ(t.live(a), nullptr);
  EXPECT_EQ(t.live(b), nullptr);
  EXPECT_EQ(t.in_flight(), 1u);
  const fw::OpId c = t.id_of(slot);
  EXPECT_EQ(OpTable::slot_of(c), OpTable::slot_of(b));  // the last freed is taken first
  EXPECT_NE(c, b);                                      // a new generation
  EXPECT_EQ(t.live(c)->work, fw::Work::Gc);
  EXPECT_EQ(t.live(c)->command, -1);
  EXPECT_FALSE(t.live(c)->ended);
  EXPECT_EQ(t.live(fw::kNoOp), nullptr);
  EXPECT_EQ(t.live(fw::OpId{99}), nullptr);  // no such slot
}

TEST(OpTable, RetiresOnlyFromTheFrontInAnswerOrder) {
  // Ends are not in answer order: a command answered later but ending sooner waits behind.
  OpTable t;
  std::vector<uint32_t> retired;
  const fw::OpId late = made_and_ended(t, us(0), us(100));
  const fw::OpId soon = made_and_ended(t, us(0), us(10));
  made_and_ended(t, us(20), us(30), &retired);
  EXPECT_TRUE(retired.empty());
  EXPECT_NE(t.live(soon), nullptr);
  EXPECT_NE(t.live(late), nullptr);
}

TEST(OpTable, PathOfACommandAndOfAReadFromTheBuffer) {
  Op op;
  op.issued = us(10);
  op.data_floor = us(25);
  op.started = us(30);
  op.end = us(80);
  EXPECT_EQ(op.path().data_at, us(25));  // a program's data came at its floor
  op.data_floor = us(5);
  EXPECT_EQ(op.path().data_at, us(10));  // never before its issue
  op.buffer = true;
  EXPECT_EQ(op.path().data_at, us(80));  // a read from the buffer waits for the data
  op.from_gc = true;
  EXPECT_EQ(op.path().data_at, us(10));  // unless GC's read brings it: a wait for GC
}

TEST(HostCommands, TheFlashCommandThatEndsLastIsOnThePath) {
  HostCommand c;
  c.flash_end = us(20);
  int asked = 0;
  const auto path = [&](double end_us) {
    return [&asked, end_us] {
      ++asked;
      model::FlashPath f;
      f.end = us(end_us);
      return f;
    };
  };
  c.flash_ended(us(15), us(3), us(2), false,
                path(15));  // before the firmware's own completion: not asked
  EXPECT_EQ(asked, 0);
  EXPECT_FALSE(c.path.via_flash);
  c.flash_ended(us(40), us(1), us(0), false, path(40));
  c.flash_ended(us(30), us(7), us(0), true, path(30));
  EXPECT_EQ(asked, 1);
  EXPECT_TRUE(c.path.via_flash);
  EXPECT_EQ(c.path.flash.end, us(40));
  EXPECT_EQ(c.flash_end, us(40));
  EXPECT_EQ(c.gc_wait, us(7));       // the longest wait of any
  EXPECT_EQ(c.refresh_wait, us(2));  // ... behind read refresh, of any
  EXPECT_TRUE(c.uncorrectable);      // one of its reads was uncorrectable
}

TEST(HostCommands, ClosingAnswersAtTheLaterOfFirmwareAndFlashAndFreesTheEntry) {
  sc_core::sc_start(us(100));  // the breakdown's stages are stamped against the kernel's time
  HostCommands table;
  uint32_t first, second;
  table.open(first);
  table.open(second);
  EXPECT_NE(first, second);
  tlm::tlm_generic_payload gp;
  model::HostCommandExt ext;
  HostCommand& c = table.at(first);
  c.gp = &gp;
  c.ext = &ext;
  c.fw_end = us(130);
  c.flash_end = us(170);
  c.gc_wait = us(9);
  c.path.start(us(100), us(100), us(130), {}, {});
  sc_time delay;
  EXPECT_EQ(&table.close(first, us(100), delay), &gp);
  EXPECT_EQ(delay, us(70));
  EXPECT_EQ(gp.get_response_status(), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(ext.gc_wait, us(9));
  EXPECT_EQ(ext.breakdown.done, us(170));
  EXPECT_EQ(c.gp, nullptr);
  uint32_t third;
  table.open(third);
  EXPECT_EQ(third, first);  // reused
}

// The status: a read that met an uncorrectable read fails; a write that waited for GC's
// uncorrectable copy read does not (its data is written); a refused write or trim fails.
TEST(HostCommands, TheStatusFailsUncorrectableReadsAndRefusedUpdatesOnly) {
  HostCommands table;
  const auto status = [&](fw::CommandOp op, bool uncorrectable, bool refused) {
    uint32_t i;
    HostCommand& c = table.open(i);
    tlm::tlm_generic_payload gp;
    model::HostCommandExt ext;
    ext.cmd.op = op;
    c.gp = &gp;
    c.ext = &ext;
    c.uncorrectable = uncorrectable;
    c.refused = refused;
    sc_time delay;
    table.close(i, sc_core::sc_time_stamp(), delay);
    return ext.ok;
  };
  EXPECT_FALSE(status(fw::CommandOp::Read, true, false));
  EXPECT_TRUE(status(fw::CommandOp::Write, true, false));
  EXPECT_FALSE(status(fw::CommandOp::Write, false, true));
  EXPECT_FALSE(status(fw::CommandOp::Trim, false, true));
  EXPECT_TRUE(status(fw::CommandOp::Flush, false, false));
}

TEST(BufferReads, KeepsTheLatestProgramOfEachPageUntilItIsRetired) {
  config::DriveConfig cfg = test::shipped("default");
  cfg.controller.block_order = config::BlockOrder::Nand;
  BufferReads b(cfg);
  ASSERT_TRUE(b.on());
  const fw::Ppa page{1, 2, 3}, other{1, 2, 4};
  EXPECT_EQ(b.program_of(page), fw::kNoOp);
  b.programming(page, 11);
  b.programming(other, 12);
  b.programming(page, 13);  // the page rewritten (after an erase): the newer program counts
  EXPECT_EQ(b.program_of(page), 13u);
  b.retired(page, 11);  // the older one retired: the newer stays
  EXPECT_EQ(b.program_of(page), 13u);
  b.retired(page, 13);
  EXPECT_EQ(b.program_of(page), fw::kNoOp);
  EXPECT_EQ(b.program_of(other), 12u);
  cfg.controller.block_order = config::BlockOrder::InOrder;
  EXPECT_FALSE(BufferReads(cfg).on());
}

TEST(BackgroundWork, DueAfterTheShortestIdleTimeOfTheWorkEnabled) {
  config::DriveConfig cfg = test::shipped("default");
  cfg.dram.write_buffer_mb = 0;
  cfg.ftl.mapping_unit_bytes = 0;
  cfg.ftl.background_gc = false;
  cfg.ftl.slc_cache_blocks_per_plane = 0;
  {
    BackgroundWork none(cfg);
    none.host_served();
    EXPECT_FALSE(none.armed());
  }
  cfg.ftl.background_gc = true;
  cfg.ftl.bg_gc_idle_us = 700;
  cfg.dram.write_buffer_mb = 8;
  cfg.dram.write_buffer_idle_us = 300;
  BackgroundWork work(cfg);
  EXPECT_FALSE(work.armed());  // not before the host has been served
  work.host_served();
  EXPECT_TRUE(work.armed());
  EXPECT_EQ(work.due(us(1000)), us(1300));
  work.ran_dry();
  EXPECT_FALSE(work.armed());
  work.pace(42);
  EXPECT_EQ(work.take_pace(), 42u);
  EXPECT_EQ(work.take_pace(), fw::kNoOp);  // taken once
}

TEST(Core, WaitsCountForTheHostCommandItWorksOnAndBlockedSpansForThoseQueued) {
  model::EnergyMonitor monitor{model::EnergyMonitor::Options{}};
  const config::ControllerConfig cfg = test::shipped("default").controller;
  Core core(monitor, model::controller::CoreSpec::firmware_core(cfg));
  // Busy 10 us: the core's active energy for it.
  EXPECT_DOUBLE_EQ(core.advance(us(10)), cfg.i_active_ma * 1e-3 * cfg.voltage_v * 10e-6);
  EXPECT_EQ(core.now(), us(10));
  core.reach(us(5));
  EXPECT_EQ(core.now(), us(10));  // never back
  // Blocked outside a host command: a span, no command's wait.
  core.reach(us(30));
  core.blocked(us(10), false);
  EXPECT_EQ(core.waits_now().flash, SC_ZERO_TIME);
  model::HostCommandExt cmd;
  core.take(cmd);
  core.reach(us(50));
  core.blocked(us(30), true);  // 20 us on flash for GC
  core.programs_held(us(4));
  EXPECT_EQ(core.waits_now().gc, us(20));
  EXPECT_EQ(core.waits_now().throttle, us(4));
  // A command that arrived at 0 and was taken up at 50 waited behind both spans.
  const model::CoreWaits queued = core.blocked_between(us(0), us(50));
  EXPECT_EQ(queued.flash, us(20));
  EXPECT_EQ(queued.gc, us(20));
  EXPECT_EQ(core.blocked_between(us(15), us(40)).flash, us(15));
  core.done();
  EXPECT_EQ(core.command(), nullptr);
  EXPECT_EQ(core.program_held(), SC_ZERO_TIME);
  EXPECT_EQ(core.waits_now().gc, SC_ZERO_TIME);
}

}  // namespace
}  // namespace ssd
