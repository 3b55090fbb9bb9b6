// A flash channel's scheduling alone (model/flash/ChannelScheduler, DieStages): no SystemC
// process runs; the test makes the scheduler's passes at the times it asks for, and the dies
// are a fake that times each phase as a NAND die does (tR, tPROG, the bus time it is given).
#include <gtest/gtest.h>

#include <deque>
#include <map>

#include "model/flash/ChannelScheduler.h"
#include "model/power/EnergyMonitor.h"
#include "tb/run/Simulation.h"
#include "tb/tests/ExactEnergy.h"

namespace ssd {
namespace {

using model::FlashCommandExt;
using model::FlashOp;
using model::PowerState;
using model::flash::ChannelParams;
using model::flash::ChannelScheduler;
using sc_core::sc_time;
using sc_core::SC_US;

sc_time us(double v) { return sc_time(v, SC_US); }

// A unit's data on the bus: 1000 bytes at 10 ns each.
const sc_time kXfer = us(10);

// A die phase as a die ran it, and the power state the die entered with it (a NAND die's).
struct Phase {
  uint32_t die;
  FlashOp op;
  sc_time at;
  PowerState state;
};

// A die that runs each phase for its NAND time (a transfer for the bus time it is given) and
// logs it.
class FakeDie : public tlm::tlm_fw_transport_if<> {
 public:
  FakeDie(uint32_t index, const config::FlashConfig& f, std::vector<Phase>& log)
      : index_(index),
        read_(us(f.t_read_us)),
        prog_(us(f.t_prog_us)),
        erase_(us(f.t_erase_us)),
        suspend_(us(f.t_suspend_us)),
        resume_(us(f.t_resume_us)),
        log_(log) {}

  void b_transport(tlm::tlm_generic_payload& gp, sc_time& delay) override {
    const FlashCommandExt& c = *gp.get_extension<FlashCommandExt>();
    // No simulation runs: the delay is the time.
    log_.push_back(Phase{index_, c.op, delay, state(c)});
    delay += length(c);
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                     sc_time&) override {
    ADD_FAILURE() << "a die phase is blocking";
    return tlm::TLM_COMPLETED;
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }

  // The state a die enters with the phases the tests integrate (Idle: at rest, or a phase
  // they do not integrate).
  static PowerState state(const FlashCommandExt& c) {
    switch (c.op) {
      case FlashOp::ArrayRead:
        return c.planes > 1 ? PowerState::ReadMultiplane : PowerState::Read;
      case FlashOp::ArrayProgram:
        return c.planes > 1 ? PowerState::ProgramMultiplane : PowerState::Program;
      case FlashOp::DataIn:
      case FlashOp::DataOut:
        return PowerState::Transfer;
      case FlashOp::PlaneState:
        return c.resume_state;
      default:
        return PowerState::Idle;
    }
  }

 private:
  sc_time length(const FlashCommandExt& c) const {
    switch (c.op) {
      case FlashOp::ArrayRead:
        return read_;
      case FlashOp::ArrayProgram:
        return prog_;
      case FlashOp::ArrayErase:
        return erase_;
      case FlashOp::DataIn:
      case FlashOp::DataOut:
      case FlashOp::DataOutRest:
        return c.bus_time;
      case FlashOp::DataInProgram:
        return c.bus_time + prog_;
      case FlashOp::Suspend:
        return suspend_;
      case FlashOp::Resume:
        return resume_;
      default:  // a change of rest state
        return sc_core::SC_ZERO_TIME;
    }
  }
  uint32_t index_;
  sc_time read_, prog_, erase_, suspend_, resume_;
  std::vector<Phase>& log_;
};

// What each die draws: read 0.1 W, program 0.2 W, moving data 0.05 W, anything else 0.3 W.
model::flash::DieStages::Powers die_powers() {
  model::flash::DieStages::Powers p;
  p.fill(0.3);
  p[std::size_t(PowerState::Read)] = 0.1;
  p[std::size_t(PowerState::Program)] = 0.2;
  p[std::size_t(PowerState::Transfer)] = 0.05;
  p[std::size_t(PowerState::ReadMultiplane)] = 0.15;
  return p;
}

// A channel of three dies on two planes each: tR 50 us, tPROG 200 us, a unit's transfer
// 10 us, the bus at 10 mA x 3.3 V. Commands are sent and passes made in time order, the
// passes when the scheduler asks for them.
struct Rig {
  static ChannelParams params() {
    ChannelParams p;
    p.flash.ways_per_channel = 3;
    p.flash.blocks_per_plane = 8;
    p.flash.pages_per_block = 16;
    p.flash.bus_ns_per_byte = 10;
    p.flash.t_read_us = 50;
    p.flash.t_prog_us = 200;
    p.flash.i_bus_ma = 10;
    p.unit_bytes = 1000;
    return p;
  }
  explicit Rig(const ChannelParams& p = params())
      : scheduler(p, 0, monitor, nullptr, wake, power_down_timer) {
    for (uint32_t i = 0; i < p.flash.ways_per_channel; ++i) {
      dies.emplace_back(i, p.flash, log);
      scheduler.dies().attach(dies.back(), powers);
    }
  }
  // The phases of `op` die `die` ran, by start time.
  std::vector<sc_time> starts(uint32_t die, FlashOp op) const {
    std::vector<sc_time> out;
    for (const Phase& p : log)
      if (p.die == die && p.op == op) out.push_back(p.at);
    return out;
  }

  // Die `die`'s active energy up to `end` from the states its phases entered (rest and
  // phases not integrated count none), as its power-state machine integrates it.
  double die_energy(uint32_t die, const sc_time& end) const {
    double joules = 0;
    const Phase* last = nullptr;
    for (const Phase& p : log) {
      if (p.die != die) continue;
      if (last && last->state != PowerState::Idle)
        joules += powers[std::size_t(last->state)] * (p.at - last->at).to_seconds();
      last = &p;
    }
    if (last && last->state != PowerState::Idle)
      joules += powers[std::size_t(last->state)] * (end - last->at).to_seconds();
    return joules;
  }

  // Sends `op` to (die, block, page) at `at` (passes due before it are made first).
  ChannelScheduler::Arrival send(FlashOp op, uint32_t die, uint32_t block, uint32_t page,
                                 const sc_time& at) {
    run(at, false);
    tlm::tlm_generic_payload& gp = payloads.emplace_back();
    FlashCommandExt& e = exts.emplace_back();
    e.op = op;
    e.die_in_channel = die;
    e.ppa = fw::Ppa{die, block, page};
    ChannelScheduler::Arrival a = scheduler.arrive(gp, e, at, at);
    if (a.kind == ChannelScheduler::Arrival::kAnswered)
      ends[&gp] = a.at;
    else
      due = std::min(due, a.at);
    return a;
  }
  // Makes the passes due up to `until` (with `inclusive`, one due at `until` too).
  void run(const sc_time& until = sc_core::sc_max_time(), bool inclusive = true) {
    while (due != sc_core::sc_max_time() && (due < until || (inclusive && due == until))) {
      const sc_time now = due;
      scheduler.pass(now);
      std::vector<model::flash::Answer> answers;
      scheduler.dies().take_answers(answers);
      for (const model::flash::Answer& a : answers) ends[a.gp] = a.end;
      due = scheduler.next_event(now);
    }
  }
  // When command `i` (in sending order) was answered to end.
  sc_time end(std::size_t i) const {
    const auto it = ends.find(&payloads.at(i));
    return it == ends.end() ? sc_core::sc_max_time() : it->second;
  }

  struct FreshKernel {
    FreshKernel() { tb::reset_kernel(); }
  } kernel;  // first: the events below belong to it
  model::EnergyMonitor monitor{model::EnergyMonitor::Options{}};
  const model::flash::DieStages::Powers powers = die_powers();
  std::vector<Phase> log;
  std::deque<FakeDie> dies;
  sc_core::sc_event wake, power_down_timer;
  ChannelScheduler scheduler;
  std::deque<tlm::tlm_generic_payload> payloads;
  std::deque<FlashCommandExt> exts;
  std::map<const tlm::tlm_generic_payload*, sc_time> ends;
  sc_time due = sc_core::sc_max_time();
};

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

// Independent plane reads: planes of 8 blocks (block 8 is on plane 1), `max` planes sensing
// at once (0: every plane).
ChannelParams plane_reads_params(bool on, uint32_t planes = 2, uint32_t max = 0) {
  ChannelParams p = Rig::params();
  p.flash.planes_per_die = planes;
  p.flash.independent_plane_reads = on;
  p.flash.independent_reads_max = max;
  return p;
}

// Two reads to different planes and page offsets of one die: with independent plane reads the
// second senses from its arrival, during the first's tR, and the data-outs take turns on the
// bus; without, it waits for the first's data-out. Each read pays its die's read power while it
// senses alone, half the multi-plane read power while both sense, and the die's transfer power
// only while no plane senses; the die's energy is the sum of theirs.
TEST(ChannelScheduler, IndependentPlaneReadsSenseTogetherAndTakeTurnsOnTheBus) {
  for (const bool on : {false, true}) {
    SCOPED_TRACE(on);
    Rig r(plane_reads_params(on));
    r.send(FlashOp::Read, 0, 0, 0, us(0));
    r.send(FlashOp::Read, 0, 8, 5, us(5));  // plane 1, another page offset
    r.run();
    EXPECT_EQ(r.starts(0, FlashOp::ArrayRead), (std::vector<sc_time>{us(0), on ? us(5) : us(60)}));
    EXPECT_EQ(r.end(0), us(60));
    EXPECT_EQ(r.end(1), on ? us(70) : us(120));
    if (!on) continue;
    // The die's state: multi-plane read to 50, read while the second senses alone (the first's
    // data-out from 50 too), transfer from 55; the second's data-out from 60.
    EXPECT_EQ(r.starts(0, FlashOp::PlaneState), (std::vector<sc_time>{us(50), us(55)}));
    EXPECT_EQ(r.starts(0, FlashOp::DataOut), std::vector<sc_time>{us(60)});
    EXPECT_EQ(r.scheduler.dies().usage().bus_wait, us(5));
    const double bus_w = 10e-3 * 3.3;
    // 0-5 one plane senses, 5-50 two, 50-55 the second alone (the first's data-out 50-60),
    // 55-60 the first's data-out alone, 60-70 the second's.
    const double first = 0.1 * 5e-6 + 0.15 / 2 * 45e-6 + 0.05 * 5e-6 + bus_w * 10e-6;
    const double second = 0.15 / 2 * 45e-6 + 0.1 * 5e-6 + 0.05 * 10e-6 + bus_w * 10e-6;
    test::expect_rel(r.exts[0].energy_j, first);
    test::expect_rel(r.exts[1].energy_j, second);
    test::expect_rel(r.die_energy(0, us(70)), first + second - 2 * bus_w * 10e-6);
    EXPECT_TRUE(r.scheduler.dies().die(0).read_planes == 0);
  }
}

// A program queued behind a read (oldest ready first) holds back the reads queued after it: the
// die drains, the program runs alone, and the next read starts only once it has ended.
TEST(ChannelScheduler, AProgramWaitsForEveryPlaneReadAndNoReadStartsBesideIt) {
  Rig r(plane_reads_params(true));
  r.send(FlashOp::Read, 0, 0, 0, us(0));
  r.send(FlashOp::Program, 0, 9, 0, us(1));  // plane 1
  r.send(FlashOp::Read, 0, 8, 3, us(2));     // plane 1, free
  r.run();
  EXPECT_EQ(r.end(0), us(60));
  EXPECT_EQ(r.starts(0, FlashOp::DataIn), std::vector<sc_time>{us(60)});
  EXPECT_EQ(r.starts(0, FlashOp::ArrayProgram), std::vector<sc_time>{us(70)});
  EXPECT_EQ(r.end(1), us(270));
  EXPECT_EQ(r.starts(0, FlashOp::ArrayRead), (std::vector<sc_time>{us(0), us(270)}));
  EXPECT_EQ(r.end(2), us(330));
  // The program's energy as without the option: its data in, then tPROG.
  const double bus_w = 10e-3 * 3.3;
  test::expect_rel(r.exts[1].energy_j, (bus_w + 0.05) * 10e-6 + 0.2 * 200e-6);
  double sum = 0;
  for (const FlashCommandExt& e : r.exts) sum += e.energy_j;
  test::expect_rel(r.die_energy(0, us(330)), sum - 3 * bus_w * 10e-6);
}

// independent_reads_max 2 on a 4-plane die: a third read waits for a plane's read to end (its
// data-out), then starts; with every plane allowed it senses at once.
TEST(ChannelScheduler, AThirdPlaneReadWaitsForASlotUnderTheLimit) {
  for (const uint32_t max : {2u, 0u}) {
    SCOPED_TRACE(max);
    Rig r(plane_reads_params(true, 4, max));
    r.send(FlashOp::Read, 0, 0, 0, us(0));
    r.send(FlashOp::Read, 0, 8, 1, us(1));
    r.send(FlashOp::Read, 0, 16, 2, us(2));
    r.run();
    EXPECT_EQ(r.starts(0, FlashOp::ArrayRead),
              (std::vector<sc_time>{us(0), us(1), max == 2 ? us(60) : us(2)}));
    EXPECT_EQ(r.end(0), us(60));
    EXPECT_EQ(r.end(1), us(70));
    EXPECT_EQ(r.end(2), max == 2 ? us(120) : us(80));
    double sum = 0;
    for (const FlashCommandExt& e : r.exts) sum += e.energy_j;
    const double bus_w = 10e-3 * 3.3;
    test::expect_rel(r.die_energy(0, us(200)), sum - 3 * bus_w * 10e-6);
  }
}

// Many reads and programs on every plane of the three dies, at random times: every die's energy
// is the sum of its commands' (less the bus's), and every command ends.
TEST(ChannelScheduler, PlaneReadEnergyAddsUpUnderAMixedLoad) {
  for (const uint32_t planes : {2u, 4u}) {
    SCOPED_TRACE(planes);
    Rig r(plane_reads_params(true, planes, planes == 4 ? 3 : 0));
    uint64_t x = 12345;
    const auto next = [&](uint64_t n) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      return (x >> 33) % n;
    };
    std::vector<uint32_t> written(3 * planes * 8, 0);  // next page per (die, block)
    sc_time at = us(0);
    for (int i = 0; i < 300; ++i) {
      at += us(double(next(20)));
      const uint32_t die = uint32_t(next(3));
      const uint32_t block = uint32_t(next(planes * 8));
      uint32_t& page = written[die * planes * 8 + block];
      if (next(4) == 0 && page < 16)
        r.send(FlashOp::Program, die, block, page++, at);
      else
        r.send(FlashOp::Read, die, block, uint32_t(next(16)), at);
    }
    r.run();
    const double bus_w = 10e-3 * 3.3;
    for (uint32_t die = 0; die < 3; ++die) {
      double sum = 0;
      sc_time last;
      for (std::size_t i = 0; i < r.exts.size(); ++i) {
        if (r.exts[i].die_in_channel != die) continue;
        ASSERT_NE(r.end(i), sc_core::sc_max_time()) << i;
        last = std::max(last, r.end(i));
        sum += r.exts[i].energy_j - bus_w * 10e-6;
      }
      test::expect_rel(r.die_energy(die, last), sum);
    }
  }
}

}  // namespace
}  // namespace ssd
