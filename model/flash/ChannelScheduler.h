#pragma once
// A flash channel's scheduling (docs/architecture.md#flash-scheduling-channels-and-dies):
// what becomes of a command on arrival, and the pass that, whenever something may have
// changed, settles everything due at the current time. The pass ends what has ended (the
// dies' stages, DieStages), starts a command on each free die (the choice by
// SchedulingPolicy; multi-plane companions by MultiPlane), lets a ready host read suspend a
// busy die's program or erase, or stages the next program (cache program), gives the bus to
// the waiting transfer of best rank (BusArbiter), and tells when the next decision is due. A
// die that is off wakes first (DiePowerDown); a die operation starts only when the power
// budget admits it. With independent plane reads (flash.independent_plane_reads), a die runs
// reads for its free planes beside each other (start_plane_reads), each with its own data-out.
//
// Cost: without suspend, an operation's end is fixed early (DieStages), so the channel needs
// no wake at that end unless the die has more work, and a command that finds nothing to decide
// against it starts on arrival. The scheduler runs only when a decision is due.
//
// Plain C++ (the dies through DieStages): tb/tests/ChannelSchedulerTest.cpp drives it
// without a kernel.
#include <cstdint>
#include <vector>
#include <systemc>
#include <tlm>

#include "model/flash/DieStages.h"
#include "model/flash/MultiPlane.h"
#include "model/flash/SchedulingPolicy.h"
#include "model/power/PowerBudget.h"

namespace ssd::model::flash {

class ChannelScheduler {
 public:
  // Channel `index`'s scheduling: its dies (attached to dies(); their bus reports to
  // `monitor`), the drive's power `budget` if any (it notifies `wake` when power is released),
  // the idle timer of die power-down (`power_down_timer`).
  ChannelScheduler(const ChannelParams& p, uint32_t index, EnergyMonitor& monitor,
                   PowerBudget* budget, sc_core::sc_event& wake,
                   sc_core::sc_event& power_down_timer);

  DieStages& dies() { return dies_; }
  const DieStages& dies() const { return dies_; }

  // What became of a command on arrival.
  struct Arrival {
    enum Kind : uint8_t {
      kAnswered,  // started, its end fixed: `at` is its end
      kStarted,   // started: the scheduler runs again at `at`
      kQueued,    // queued: the scheduler runs again at `at` (sc_max_time: none of its own)
    } kind;
    sc_core::sc_time at;
  };
  // Command `ext` (payload `gp`) arrives at `arrival` (>= now) for die ext.die_in_channel.
  Arrival arrive(tlm::tlm_generic_payload& gp, FlashCommandExt& ext, const sc_core::sc_time& now,
                 const sc_core::sc_time& arrival);

  // The scheduling pass at `now`; the answers it owes are then in dies().
  void pass(const sc_core::sc_time& now) {
    // One pass settles everything due now: ends free dies and the bus, free dies start, the
    // bus goes to a waiting die; a die whose program just started may stage the next one.
    dies_.finish_stages(now);
    start_dies(now);
    if (grant_bus(now) && cache_program_) start_dies(now);
  }
  // When the next decision is due after a pass at `now` (sc_max_time: none).
  sc_core::sc_time next_event(const sc_core::sc_time& now);

  // flash::IssueGate's questions (IssueGate.h).
  bool takes_command(const sc_core::sc_time& now) const {
    return !dies_.bus().busy_at(now) && !waits_for_bus(now);
  }
  sc_core::sc_time free_at(const sc_core::sc_time& now) const {
    if (waits_for_bus(now)) return never_;
    return dies_.bus().busy_at(now) ? dies_.bus().until() : now;
  }

 private:
  using Want = SchedulingPolicy::Want;

  // Whether command `c` for die `d` can be started on arrival, decided now (see .cpp).
  bool decides_at_once(const DieState& d, const Cmd& c) const;
  // Starts it; returns whether its end is fixed, and `end`: that end, or when the scheduler
  // must run for it next.
  bool start_at_once(uint32_t die, const Cmd& c, sc_core::sc_time& end);
  void start_dies(const sc_core::sc_time& now);
  // A free die `die` with an operation it suspended: a further host read, or the resume.
  void resume_or_read(uint32_t die, const sc_core::sc_time& now);
  // A busy die `die`: a host read that suspends its operation, or the next program staged.
  void suspend_or_stage(uint32_t die, const sc_core::sc_time& now);
  bool grant_bus(const sc_core::sc_time& now);  // whether it granted
  // Multi-plane: whether the die should wait for a program on another plane to join the one
  // at `node`; sets the wake-up if so (once per first command).
  bool hold_for_partner(DieState& d, uint32_t node, const sc_core::sc_time& now);
  // Power budget: the slot of command `c`'s operation if the budget admits it now, else kNone
  // (with `queue`, the die waits its turn and the budget wakes the channel). Always a slot
  // without a budget.
  PowerBudget::Slot admit(uint32_t die, const Cmd& c, const sc_core::sc_time& now, bool queue);
  // Moves the command at `node` and, multi-plane, its ready companions into `g` (none on the
  // `busy` planes, at most `limit` commands: independent plane reads).
  void take(uint32_t die, int node, const sc_core::sc_time& now, Group& g, uint64_t busy = 0,
            uint32_t limit = ~0u);
  // Independent plane reads: starts on die `die` (neither working on a program or erase nor
  // holding a suspended one) the best ready reads for its free planes, as long as the best
  // ready command is such a read. Returns false if the die, reading nothing, should start its
  // best command (a program, erase or spare read) as without the option.
  bool start_plane_reads(uint32_t die, const sc_core::sc_time& now);
  // Whether the die's queued commands can only start once its current operation has ended
  // (a wake at that end is due anyway), so their arrivals need no wake of their own.
  bool waits_for_die(const DieState& d) const {
    return dies_.early() && !cache_program_ && !d.cur.empty();
  }
  // A die's operation waits for the bus (its data in or out), or a queued command is about to.
  bool waits_for_bus(const sc_core::sc_time& now) const;

  SchedulingPolicy policy_;
  MultiPlane multiplane_;
  DieStages dies_;
  bool cache_program_;
  bool merge_reads_;        // reads of a page's units share one array read (units smaller than it)
  sc_core::sc_time never_;  // sc_max_time(), kept: the kernel computes it on every call
  sc_core::sc_time t_suspend_, t_resume_;
  PowerBudget* budget_;
  sc_core::sc_event& wake_;  // for the budget
  uint32_t first_die_;       // the drive-wide index of the channel's first die, for the budget
  uint32_t blocks_per_plane_;
  uint32_t queued_ = 0;  // commands queued at all the channel's dies
  uint64_t seq_ = 0;
  std::vector<uint32_t> taken_;  // scratch for take()
};

}  // namespace ssd::model::flash
