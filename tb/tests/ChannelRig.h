#pragma once
// A flash channel's scheduler without a kernel, for the tests of its scheduling
// (ChannelSchedulerTest.cpp, PlaneReadSchedulingTest.cpp): no SystemC process runs; the rig
// makes the scheduler's passes at the times it asks for, and the dies are a fake that times
// each phase as a NAND die does (tR, tPROG, the bus time it is given) and logs it.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <vector>

#include "model/flash/ChannelScheduler.h"
#include "model/power/EnergyMonitor.h"
#include "tb/run/Simulation.h"

namespace ssd::test {

using model::FlashCommandExt;
using model::FlashOp;
using model::PowerState;
using model::flash::ChannelParams;
using model::flash::ChannelScheduler;
using sc_core::sc_time;
using sc_core::SC_US;

inline sc_time us(double v) { return sc_time(v, SC_US); }

// A unit's data on the bus: 1000 bytes at 10 ns each.
inline const sc_time kXfer = us(10);

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
        return model::program_state(c.planes > 1, c.word_line);
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
inline model::flash::DieStages::Powers die_powers() {
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

  // Sends `op` to (die, block, page) at `at` (passes due before it are made first), reaching
  // the die `later` after that (as a controller's annotated delay).
  ChannelScheduler::Arrival send(FlashOp op, uint32_t die, uint32_t block, uint32_t page,
                                 const sc_time& at, const sc_time& later = sc_core::SC_ZERO_TIME) {
    run(at, false);
    tlm::tlm_generic_payload& gp = payloads.emplace_back();
    FlashCommandExt& e = exts.emplace_back();
    e.op = op;
    e.die_in_channel = die;
    e.ppa = fw::Ppa{die, block, page};
    ChannelScheduler::Arrival a = scheduler.arrive(gp, e, at, at + later);
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

}  // namespace ssd::test
