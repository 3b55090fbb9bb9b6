#pragma once
// A flash channel's dies as its sequencer sees them, and how their operations move through
// their stages (docs/architecture.md#flash-scheduling-channels-and-dies). Per die: the
// operation it works on, the program staged behind it (cache program), the one a read
// suspended, and its queue. Once the scheduler (ChannelScheduler) has started an operation,
// this runs it: array time, data in or out over the bus (BusArbiter), the next stage when a
// timed one ends, and the end. Each command is charged the energy of the phases it ran, at
// the powers its die reports and the bus's own, and answered with its end.
//
// Without suspend and with one controller core (`early`), nothing can change a program's or erase's
// end once its array time is decided, nor a read's once its data-out is granted: the operation is
// settled then, answered ahead with that end, and the die's return to rest is reported ahead.
// Not with independent plane reads: another plane may still sense at that end.
//
// Independent plane reads (flash.independent_plane_reads): a die's reads run in per-plane slots
// (DieState::reads) beside each other; its programs and erases in `cur`, alone. The die's power
// state follows its planes sensing, and each interval between changes is charged to the reads
// sensing in it (account).
//
// Die power-down (DiePowerDown): the rounds of the channel's idle timer, and a die's wake-up.
//
// Plain C++: a die phase is a b_transport to the die's TLM interface (FlashChannel: what its
// die sockets are bound to), the phase's start as annotated delay and its end returned the
// same way; tb/tests/ChannelSchedulerTest.cpp gives it dies of its own, without a kernel.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>
#include <systemc>
#include <tlm>

#include "config/ControllerConfig.h"
#include "config/FlashConfig.h"
#include "model/flash/BackgroundTime.h"
#include "model/flash/BusArbiter.h"
#include "model/flash/DieOperation.h"
#include "model/flash/DiePowerDown.h"
#include "model/flash/DieQueue.h"
#include "model/flash/EccPool.h"
#include "model/power/PowerState.h"
#include "model/power/PowerStateMachine.h"

namespace ssd::model::flash {

// What a channel takes of the drive: its dies' section, the controller's scheduling and
// ordering rules, and what the drive derives from the FTL's mapping unit.
struct ChannelParams {
  config::FlashConfig flash;
  config::ControllerConfig controller;
  uint32_t units_per_page = 1;  // DriveConfig::units_per_page
  uint32_t unit_bytes = 0;      // DriveConfig::unit_bytes
  bool spare_reads = false;     // DriveConfig::reads_spare_areas
  // Aging NAND with flash.reliability.ecc_scope controller: the controller's engines, shared by
  // every channel (else a channel has its own).
  EccPool* shared_ecc = nullptr;
};

// What the channel measured, for the utilisation report.
struct ChannelUsage {
  sc_core::sc_time bus_wait;               // time transfers waited for the bus
  std::vector<sc_core::sc_time> die_wait;  // per die: time its commands waited in its queue
  std::vector<uint64_t> die_commands;      // per die: commands it started
  uint64_t multiplane_groups = 0;          // array operations on more than one plane
  uint64_t merged_reads = 0;               // unit reads served by another's array read
  uint64_t cache_programs = 0;             // programs whose data moved in during another
  uint64_t word_line_programs = 0;         // one-shot programs (a word line on one plane each)
  uint64_t suspensions = 0;
  uint64_t die_power_downs = 0;  // dies switched off by their idle timer
  uint64_t die_wakes = 0;        // ... and powered up for a command
  // Aging NAND (flash.reliability): unit reads by the retry steps they needed (index: steps),
  // those no step corrected, and the retry steps' array reads run.
  std::vector<uint64_t> reads_by_retries;
  uint64_t uncorrectable_reads = 0;
  uint64_t retry_reads = 0;
};

// A die: what it works on, and what waits for it.
struct DieState {
  Group cur;                         // what the die works on
  Group staged;                      // cache program: the next program
  Group parked;                      // the program or erase a read suspended
  uint64_t held_seq = ~uint64_t{0};  // the program last held for a multi-plane partner
  sc_core::sc_time partner_until;    // ... held until then (a read the policy puts first is not)
  sc_core::sc_time hold_until;       // waking from power-down until then
  DieQueue queue;
  // Independent plane reads (flash.independent_plane_reads; empty without): per plane, the read
  // it runs beside the others (a multi-plane read at its first plane), the planes those hold
  // (bit p: plane p) and how many of them sense, and when the die's sensing set or data-out
  // last changed (its array and transfer power are charged up to then).
  std::vector<Group> reads;
  uint64_t read_planes = 0;
  uint32_t sensing = 0;
  sc_core::sc_time changed;
  BackgroundTime background;  // when it worked on background operations
  BackgroundTime refresh;     // ... of read refresh
  // `g` worked from its start until `end` (suspended or answered): its background time.
  void background_until(const Group& g, const sc_core::sc_time& end) {
    if (!g.background()) return;
    background.add(g.started, end);
    if (g.refresh()) refresh.add(g.started, end);
  }
  // When it was held for power (waking from power-down; its next command refused by the power
  // budget), and since when the budget has refused it (sc_max_time: it does not).
  BackgroundTime power;
  sc_core::sc_time budget_since = sc_core::sc_max_time();
  DieState(uint32_t blocks, uint32_t pages_per_block, bool reads_pass, bool by_page,
           uint32_t word_line_pages)
      : queue(blocks, pages_per_block, reads_pass, by_page, word_line_pages) {}
  // The operation in `slot` (BusArbiter::kCur, kStaged, kRead0 + plane).
  Group& group(uint32_t slot) {
    return slot == BusArbiter::kCur      ? cur
           : slot == BusArbiter::kStaged ? staged
                                         : reads[slot - BusArbiter::kRead0];
  }
};

// A command's answer, owed: sent once the scheduling pass is over.
struct Answer {
  tlm::tlm_generic_payload* gp;
  sc_core::sc_time end;
};

class DieStages {
 public:
  // What a die draws in each power state (W at its supply; NandDie::powers_w).
  using Powers = std::array<double, kPowerStateCount>;

  // Channel `index`'s dies; its bus reports its power state to `monitor`. `by_page`: the die
  // queues list programs by page offset (MultiPlane::waits). An operation's end releases its
  // share of `budget` (if any). The idle timer of power-down is `power_down_timer`: notified
  // when a die may go off.
  DieStages(const ChannelParams& p, uint32_t index, bool by_page, EnergyMonitor& monitor,
            PowerBudget* budget, sc_core::sc_event& power_down_timer);
  // The next die (in order, before the first phase): its TLM interface and its powers, both
  // outliving this.
  void attach(tlm::tlm_fw_transport_if<>& die, const Powers& powers_w) {
    targets_.push_back(&die);
    powers_.push_back(&powers_w);
  }

  uint32_t size() const { return uint32_t(state_.size()); }
  DieState& die(uint32_t i) { return state_[i]; }
  const DieState& die(uint32_t i) const { return state_[i]; }
  // Every die, in order.
  std::vector<DieState>::iterator begin() { return state_.begin(); }
  std::vector<DieState>::iterator end() { return state_.end(); }
  std::vector<DieState>::const_iterator begin() const { return state_.begin(); }
  std::vector<DieState>::const_iterator end() const { return state_.end(); }
  const BusArbiter& bus() const { return bus_; }
  ChannelUsage& usage() { return usage_; }
  const ChannelUsage& usage() const { return usage_; }
  const DiePowerDown& power_down() const { return power_down_; }
  // The channel's ECC engine (null: flash.reliability off).
  const EccPool* ecc() const { return ecc_; }
  // Answers are owed ahead (no suspend, no independent plane reads).
  bool early() const { return early_; }
  // Independent plane reads: whether the dies run them, and how many planes may sense at once.
  bool plane_reads() const { return plane_reads_; }
  uint32_t reads_max() const { return reads_max_; }
  // The planes of a read (bit p: plane p).
  uint64_t planes_of(const Group& g) const {
    uint64_t mask = 0;
    for (const Cmd& c : g.cmds) mask |= uint64_t{1} << (c.ext->ppa.block / blocks_per_plane_);
    return mask;
  }

  // The answers owed since the last call, moved into `out` (empty).
  void take_answers(std::vector<Answer>& out) { std::swap(done_, out); }
  // The end of the one answer owed (a command started and settled at once), taken.
  sc_core::sc_time take_answer() {
    sc_core::sc_time end = done_.back().end;
    done_.clear();
    return end;
  }

  // Runs a die phase for operation `g` (none for Rest) starting at `now`; returns its end.
  // `planes`: the planes the die's array works on (0: g's).
  sc_core::sc_time phase(uint32_t die, FlashOp op, const Group* g, const sc_core::sc_time& now,
                         uint32_t planes = 0);
  // Charges the group's commands die `die`'s array power of `g` for `length`, shared equally.
  void charge_array(uint32_t die, Group& g, const sc_core::sc_time& length);

  // The operation's array time starts at `at` (by value: may be g.until).
  void start_array(uint32_t die, Group& g, sc_core::sc_time at);
  // The data of the operation in `slot` (BusArbiter) moves in or out from `now` (a staged
  // program's into the cache register while the die programs).
  void start_transfer(uint32_t die, uint32_t slot, const sc_core::sc_time& now);
  // Independent plane reads: the read at reads[plane] (taken from the queue) starts its array
  // time now, beside the die's other reads.
  void start_plane_read(uint32_t die, uint32_t plane, const sc_core::sc_time& now);
  // The group's commands have ended.
  void complete(uint32_t die, Group& g, const sc_core::sc_time& now);
  // The bus transfer, if it has ended by `now`.
  void finish_transfer(const sc_core::sc_time& now);
  // The transfer, then each die's timed stage, if they have ended by `now`: each moves on to
  // its next stage (a read's data waits for the bus; a program makes way for the one staged;
  // a suspension's read starts; a resumed operation runs the array time it had left).
  void finish_stages(const sc_core::sc_time& now);

  // The idle timer's round at `now`: dies at rest for idle_us go off. Returns when the next
  // is due (sc_max_time: none).
  sc_core::sc_time power_down_dies(const sc_core::sc_time& now);
  // Powers up die `die` (with scope "channel", every die) if it is off or due off now, about
  // to start a command: it holds until awake. Returns whether it woke.
  bool wake(uint32_t die, const sc_core::sc_time& now);

  // How long the group's data holds the bus: its commands' units (a program's whole page, a
  // read's one unit; ftl.mapping_unit_bytes), a unit's bytes at bus_ns_per_byte each; a spare
  // read's flash.oob_bytes.
  sc_core::sc_time transfer_time(const Group& g) const {
    if (g.cmds.front().ext->spare) return spare_transfer_;  // never grouped
    uint32_t units = 0;
    for (const Cmd& c : g.cmds) units += c.ext->units;
    return unit_transfer_ * double(units);
  }

 private:
  // Queues the answer to the group's commands (the die done with them at `end`; a read's,
  // once its decode ends), sent after the pass, and notes die `die`'s background work.
  void answer(uint32_t die, Group& g, const sc_core::sc_time& end);
  // Aging NAND: the read's data, out by g.until, goes to the ECC engines, a unit at a time.
  void decode(Group& g);
  // ... and after a failed decode, the read's next retry step begins at `now`.
  void next_step(Group& g, const sc_core::sc_time& now);
  // Whether a read's decode will fail and a retry step follow.
  static bool retry_follows(const Group& g) {
    return g.kind == FlashOp::Read && g.step < g.retries;
  }
  // Answers a group whose end is now fixed and reports the die's rest at that end.
  void settle(uint32_t die, Group& g);
  // Adds the active energy of a phase to the group's commands, shared equally.
  static void charge(Group& g, double joules);
  double power_w(uint32_t die, PowerState s) const { return (*powers_[die])[std::size_t(s)]; }
  // Independent plane reads: charges the die's array (or transfer) power since its last change
  // to the reads sensing (or the data-out moving) in that interval, up to `now`.
  void account(uint32_t die, const sc_core::sc_time& now);
  // ... and the die's power state from its planes sensing and its data-out, at `now`.
  void plane_state(uint32_t die, const sc_core::sc_time& now);
  // Whether a read of die `die` (not its current operation) holds the bus.
  bool plane_transfer(uint32_t die) const {
    return bus_.held() && bus_.holder() == die && bus_.slot() >= BusArbiter::kRead0;
  }
  // The tR ends, data-outs and ends of die `die`'s independent reads due by `now`.
  void finish_plane_reads(uint32_t die, const sc_core::sc_time& now);
  // Whether die `die` is at rest with nothing started.
  bool resting(uint32_t die, const sc_core::sc_time& now) const;
  // Notes a die phase for the idle timer: the die rests from `rest_at` (never_: it works).
  void note_rest(uint32_t die, const sc_core::sc_time& rest_at);

  sc_core::sc_time unit_transfer_;
  sc_core::sc_time spare_transfer_;
  bool early_;          // answer at once when an end is fixed (no suspend)
  bool plane_reads_;    // flash.independent_plane_reads
  uint32_t reads_max_;  // planes that may sense at once
  uint32_t blocks_per_plane_;
  sc_core::sc_time never_;  // sc_max_time(), kept: the kernel computes it on every call
  double p_bus_w_;          // the bus while it moves data
  PowerBudget* budget_;
  BusArbiter bus_;
  DiePowerDown power_down_;
  std::unique_ptr<EccPool> own_ecc_;
  EccPool* ecc_ = nullptr;  // own_ecc_, or the controller's
  sc_core::sc_event& power_down_timer_;
  std::vector<DieState> state_;
  ChannelUsage usage_;
  std::vector<Answer> done_;                          // answered after the pass
  PowerStateMachine psm_;                             // the bus
  std::vector<tlm::tlm_fw_transport_if<>*> targets_;  // the dies
  std::vector<const Powers*> powers_;
  tlm::tlm_generic_payload die_gp_;  // a die phase
  FlashCommandExt& die_cmd_;         // owned by die_gp_
};

}  // namespace ssd::model::flash
