// A flash channel's scheduling alone (model/flash/ChannelScheduler, DieStages), on the rig of
// ChannelRig.h: no SystemC process runs, and the dies are a fake that times each phase as a
// NAND die does. Independent plane reads: PlaneReadSchedulingTest.cpp.
#include <gtest/gtest.h>

#include "tb/tests/ChannelRig.h"

namespace ssd {
namespace {

using model::FlashOp;
using model::flash::ChannelParams;
using model::flash::ChannelScheduler;
using sc_core::sc_time;
using test::Rig;
using test::us;

// Two reads on two dies run their array times together, then take turns on the bus: the
// second waits for the first's data-out. Each is charged its die's read power for tR and its
// die's and the bus's power for the transfer.
TEST(ChannelScheduler, ReadsOnTwoDiesOverlapInTheArrayAndTakeTurnsOnTheBus) {
  Rig r;
  r.send(FlashOp::Read, 0, 0, 0, us(0));
  r.send(FlashOp::Read, 1, 0, 0, us(0));
  r.run();
  EXPECT_EQ(r.starts(0, FlashOp::ArrayRead), std::vector<sc_time>{us(0)});
  EXPECT_EQ(r.starts(1, FlashOp::ArrayRead), std::vector<sc_time>{us(0)});
  EXPECT_EQ(r.end(0), us(60));
  EXPECT_EQ(r.end(1), us(70));
  EXPECT_EQ(r.scheduler.dies().usage().bus_wait, us(10));
  EXPECT_EQ(r.scheduler.dies().usage().die_commands, (std::vector<uint64_t>{1, 1, 0}));
  const double bus_w = 10e-3 * 3.3;
  EXPECT_DOUBLE_EQ(r.exts[0].energy_j, 0.1 * 50e-6 + (bus_w + 0.05) * 10e-6);
  EXPECT_DOUBLE_EQ(r.exts[1].energy_j, r.exts[0].energy_j);
}

// Without suspend, a program that finds its die and the bus free starts on arrival and is
// answered at once with its end; the next program to that die waits for that end only.
TEST(ChannelScheduler, AProgramMeetingNothingIsAnsweredOnArrival) {
  Rig r;
  const ChannelScheduler::Arrival first = r.send(FlashOp::Program, 0, 0, 0, us(0));
  EXPECT_EQ(first.kind, ChannelScheduler::Arrival::kAnswered);
  EXPECT_EQ(first.at, us(210));  // data in, then tPROG
  const ChannelScheduler::Arrival second = r.send(FlashOp::Program, 0, 0, 1, us(5));
  EXPECT_EQ(second.kind, ChannelScheduler::Arrival::kQueued);
  EXPECT_EQ(second.at, us(210));  // no pass before the die is free
  r.run();
  EXPECT_EQ(r.end(1), us(420));
  EXPECT_EQ(r.scheduler.dies().usage().die_wait[0], us(205));
}

// The gate an in-order controller reads: the channel takes a command while its bus is free
// and nothing waits for it; while a transfer alone holds the bus, it frees at that end; while
// a transfer waits (or a command at a free die is about to), it cannot tell when.
TEST(ChannelScheduler, TheGateOpensWhenTheBusFreesAndNothingWaits) {
  Rig r;
  r.send(FlashOp::Program, 0, 0, 0, us(0));  // its data on the bus 0-10 us
  EXPECT_FALSE(r.scheduler.takes_command(us(5)));
  EXPECT_EQ(r.scheduler.free_at(us(5)), us(10));
  EXPECT_TRUE(r.scheduler.takes_command(us(10)));
  r.send(FlashOp::Program, 1, 0, 0, us(5));  // queued at a free die
  EXPECT_EQ(r.scheduler.free_at(us(5)), sc_core::sc_max_time());
  r.run(us(5));  // the die takes it; its data-in waits for the bus
  EXPECT_EQ(r.scheduler.free_at(us(5)), sc_core::sc_max_time());
  r.run(us(10));  // granted 10-20 us
  EXPECT_FALSE(r.scheduler.takes_command(us(10)));
  EXPECT_EQ(r.scheduler.free_at(us(10)), us(20));
  EXPECT_EQ(r.end(1), us(220));
}

// The bus goes by rank, then age: under read_first a read's data-out passes an older
// program's data-in that waits with it; under oldest_ready it does not.
TEST(ChannelScheduler, ReadFirstGivesTheBusToADataOutBeforeAnOlderDataIn) {
  for (const bool read_first : {false, true}) {
    ChannelParams p = Rig::params();
    p.unit_bytes = 10000;  // 100 us on the bus
    if (read_first) p.controller.scheduler_policy = config::SchedulerPolicy::ReadFirst;
    Rig r(p);
    r.send(FlashOp::Program, 0, 0, 0, us(0));  // holds the bus to 100 us
    r.send(FlashOp::Program, 1, 0, 0, us(1));  // waits for it
    r.send(FlashOp::Read, 2, 0, 0, us(2));     // its data is out of the array at 52 us
    r.run();
    EXPECT_EQ(r.end(2), read_first ? us(200) : us(300)) << read_first;
    EXPECT_EQ(r.end(1), read_first ? us(500) : us(400)) << read_first;
  }
}

// suspend_for_reads: a host read to another block suspends the die's program (tSUSPEND), runs,
// and the program resumes (tRESUME) with the array time it had left.
TEST(ChannelScheduler, AHostReadSuspendsAProgramWhichResumesWithTheTimeItHadLeft) {
  ChannelParams p = Rig::params();
  p.controller.suspend_for_reads = true;
  Rig r(p);
  r.send(FlashOp::Program, 0, 0, 0, us(0));  // data in 0-10, array 10-210
  r.send(FlashOp::Read, 0, 1, 0, us(50));
  r.run();
  // Suspended at 50 (to 70), read 70-120, data out 120-130; resumed 130-150, 160 us left.
  EXPECT_EQ(r.starts(0, FlashOp::Suspend), std::vector<sc_time>{us(50)});
  EXPECT_EQ(r.starts(0, FlashOp::ArrayRead), std::vector<sc_time>{us(70)});
  EXPECT_EQ(r.starts(0, FlashOp::Resume), std::vector<sc_time>{us(130)});
  EXPECT_EQ(r.end(1), us(130));
  EXPECT_EQ(r.end(0), us(310));
  EXPECT_EQ(r.scheduler.dies().usage().suspensions, 1u);
  // The program pays for its array time, the suspension and the resumption at its power.
  const double bus_w = 10e-3 * 3.3;
  EXPECT_DOUBLE_EQ(r.exts[0].energy_j, (bus_w + 0.05) * 10e-6 + 0.2 * (200e-6 + 20e-6 + 20e-6));
}

// Cache program: while a die programs, the next program's data moves in; it starts the moment
// the array is free, a transfer earlier than without.
TEST(ChannelScheduler, CacheProgramMovesTheNextDataInWhileTheDiePrograms) {
  for (const bool cache : {false, true}) {
    ChannelParams p = Rig::params();
    p.flash.cache_program = cache;
    Rig r(p);
    r.send(FlashOp::Program, 0, 0, 0, us(0));
    r.send(FlashOp::Program, 0, 0, 1, us(0));
    r.run();
    EXPECT_EQ(r.end(0), us(210));
    EXPECT_EQ(r.end(1), cache ? us(410) : us(420)) << cache;
    EXPECT_EQ(r.scheduler.dies().usage().cache_programs, cache ? 1u : 0u);
  }
}

// Multi-plane: programs to both planes of a die at one page offset share one array time and
// one bus grant (their data moves in one after the other).
TEST(ChannelScheduler, ProgramsOnTwoPlanesShareOneArrayTime) {
  ChannelParams p = Rig::params();
  p.flash.multiplane = true;
  Rig r(p);
  r.send(FlashOp::Program, 0, 0, 3, us(0));
  r.send(FlashOp::Program, 0, 8, 3, us(0));  // block 8: the second plane
  r.run();
  EXPECT_EQ(r.end(0), us(220));
  EXPECT_EQ(r.end(1), us(220));
  EXPECT_EQ(r.scheduler.dies().usage().multiplane_groups, 1u);
  EXPECT_EQ(r.scheduler.dies().usage().die_commands[0], 2u);
}

// A die programming a pair holds the next program for its other-plane partner, due after the
// pair ends; a host read arriving in between starts when the die frees (read_first), not when
// the hold ends: the hold is the program's.
TEST(ChannelScheduler, AReadDoesNotWaitForAProgramsPartner) {
  ChannelParams p = Rig::params();
  p.flash.multiplane = true;
  p.flash.multiplane_wait_us = 20;
  p.flash.cache_program = true;
  p.controller.scheduler_policy = config::SchedulerPolicy::ReadFirst;
  Rig r(p);
  r.send(FlashOp::Program, 0, 0, 0, us(0));  // the pair: data in 0-20, array 20-220
  r.send(FlashOp::Program, 0, 8, 0, us(0));
  r.send(FlashOp::Program, 0, 0, 1, us(205));          // held at 205 for its partner ...
  r.send(FlashOp::Program, 0, 8, 1, us(205), us(19));  // ... due at 224
  r.send(FlashOp::Read, 0, 1, 0, us(221));
  r.run();
  EXPECT_EQ(r.end(0), us(220));
  EXPECT_EQ(r.end(4), us(281));  // array 221-271, data out 271-281
  // The second pair moves in after the read's data and programs once: 281-301, 301-501.
  EXPECT_EQ(r.end(2), us(501));
  EXPECT_EQ(r.end(3), us(501));
  EXPECT_EQ(r.scheduler.dies().usage().multiplane_groups, 2u);
}

// Die power-down: a die goes off after 100 us at rest and wakes in `t_wake_us`.
ChannelParams power_down_params(double t_wake_us) {
  ChannelParams p = Rig::params();
  p.flash.die_power_down.enabled = true;
  p.flash.die_power_down.idle_us = 100;
  p.flash.die_power_down.t_wake_us = t_wake_us;
  return p;
}

// Die power-down: dies at rest for idle_us go off; a command for one that is off waits
// t_wake_us while it powers up (counted as its power wait), then starts. The other stays off.
TEST(ChannelScheduler, ADieThatIsOffWakesBeforeItsCommand) {
  Rig r(power_down_params(30));
  model::flash::DieStages& dies = r.scheduler.dies();
  EXPECT_EQ(dies.power_down_dies(us(99)), us(100));
  EXPECT_EQ(dies.usage().die_power_downs, 0u);
  EXPECT_EQ(dies.power_down_dies(us(100)), sc_core::sc_max_time());
  EXPECT_EQ(dies.usage().die_power_downs, 3u);
  const ChannelScheduler::Arrival a = r.send(FlashOp::Read, 0, 0, 0, us(200));
  EXPECT_EQ(a.kind, ChannelScheduler::Arrival::kQueued);  // no start on arrival: it may be off
  r.run();
  EXPECT_EQ(r.starts(0, FlashOp::DiePowerOn), std::vector<sc_time>{us(200)});
  EXPECT_EQ(r.starts(0, FlashOp::ArrayRead), std::vector<sc_time>{us(230)});
  EXPECT_EQ(r.end(0), us(290));
  EXPECT_EQ(r.exts[0].power_wait, us(30));
  EXPECT_EQ(dies.usage().die_wakes, 1u);
  EXPECT_FALSE(dies.power_down().off(0));
  EXPECT_TRUE(dies.power_down().off(1));
}

// t_wake_us 0: a die that is off powers up and starts its command in the same pass (the wake
// once held it until "now", a time no wake-up is set for, and the channel stalled).
TEST(ChannelScheduler, ADieWithAnInstantWakeStartsItsCommandInTheSamePass) {
  Rig r(power_down_params(0));
  r.scheduler.dies().power_down_dies(us(100));
  r.send(FlashOp::Read, 0, 0, 0, us(200));
  r.run();
  EXPECT_EQ(r.starts(0, FlashOp::DiePowerOn), std::vector<sc_time>{us(200)});
  EXPECT_EQ(r.starts(0, FlashOp::ArrayRead), std::vector<sc_time>{us(200)});
  EXPECT_EQ(r.end(0), us(260));
  EXPECT_EQ(r.exts[0].power_wait, sc_core::SC_ZERO_TIME);
  EXPECT_EQ(r.scheduler.dies().usage().die_wakes, 1u);
}

}  // namespace
}  // namespace ssd
