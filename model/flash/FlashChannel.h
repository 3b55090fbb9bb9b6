#pragma once
// One flash channel: its bus, the dies on it, and the controller's channel sequencer that
// queues flash commands per die and decides, as simulated time passes, which command a free
// die starts and which ready die gets the bus
// (docs/architecture.md#flash-scheduling-channels-and-dies).
//
// Commands arrive non-blocking (nb_transport_fw, BEGIN_REQ with the time they leave the
// controller as annotated delay) and are answered with BEGIN_RESP when they end: a read when
// its data is in the controller buffer, a program when the page is programmed, an erase when
// the block is erased. A read is array read then data out; a program is data in then array
// program; an erase is the array erase alone. A data phase holds the bus and the die for
// unit bytes x bus_ns_per_byte (the way switch delay) per mapping unit it moves: a program
// its page's units, a read the unit it reads (the unit is the page unless
// ftl.mapping_unit_bytes is smaller).
//
// The parts, each in its own file of model/flash/: a die's queue and its ordering rules
// (DieQueue), the choice among ready commands (SchedulingPolicy), multi-plane grouping
// (MultiPlane), the bus (BusArbiter) and die power-down (DiePowerDown). This module holds the
// sockets, each die's operations as they move through their stages, and the scheduling pass.
// Cache program (flash.cache_program): while a die programs, the next program may move its
// data in; it starts the moment the array is free. Suspend (suspend_for_reads): a ready host
// read to another block suspends a die's program or erase (t_suspend_us), runs, and the
// operation resumes (t_resume_us) with the array time it had left. Each command is charged
// the energy of the phases it ran, at the powers its die reports and the bus's own.
//
// Cost: without suspend, nothing can change a program's or erase's end once its array time
// is decided, nor a read's once its data-out is granted. The channel then answers at once,
// with the end as annotated delay, reports the die's return to rest ahead, and wakes at that
// end only if the die has more work. The scheduler runs only when a decision is due.
//
// Die power-down: when the scheduler picks a command for a die that is off, the die first
// powers up for t_wake_us (held like a die waiting for a multi-plane partner), then starts it.
#include <tlm_utils/multi_passthrough_initiator_socket.h>

#include <memory>
#include <string>
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
#include "model/flash/IssueGate.h"
#include "model/flash/MultiPlane.h"
#include "model/flash/NandDie.h"
#include "model/flash/SchedulingPolicy.h"
#include "model/power/PowerBudget.h"
#include "model/power/PowerStateMachine.h"

namespace ssd::config {
struct DriveConfig;
}

namespace ssd::model {

// Its own socket's interface, as the dies are (BlockingTarget.h): a command reaches it in one
// virtual call.
class FlashChannel : public sc_core::sc_module,
                     private tlm::tlm_fw_transport_if<>,
                     public flash::IssueGate {
 public:
  tlm::tlm_target_socket<> socket;
  tlm_utils::multi_passthrough_initiator_socket<FlashChannel> die_socket;

  // What the channel measured, for the utilisation report.
  struct Usage {
    sc_core::sc_time bus_wait;               // time transfers waited for the bus
    std::vector<sc_core::sc_time> die_wait;  // per die: time its commands waited in its queue
    std::vector<uint64_t> die_commands;      // per die: commands it started
    uint64_t multiplane_groups = 0;          // array operations on more than one plane
    uint64_t merged_reads = 0;               // unit reads served by another's array read
    uint64_t cache_programs = 0;             // programs whose data moved in during another
    uint64_t suspensions = 0;
    uint64_t die_power_downs = 0;  // dies switched off by their idle timer
    uint64_t die_wakes = 0;        // ... and powered up for a command
  };

  // What a channel takes of the drive: its dies' section, the controller's scheduling and
  // ordering rules, and what the drive derives from the FTL's mapping unit.
  struct Params {
    config::FlashConfig flash;
    config::ControllerConfig controller;
    uint32_t units_per_page = 1;  // DriveConfig::units_per_page
    uint32_t unit_bytes = 0;      // DriveConfig::unit_bytes
    bool spare_reads = false;     // DriveConfig::reads_spare_areas
  };
  static Params params(const config::DriveConfig& drive);

  SC_HAS_PROCESS(FlashChannel);
  // Creates and binds the channel's ways_per_channel x dies_per_way dies. With a `budget`, a
  // die operation starts only when the budget admits it (docs/thermal.md).
  FlashChannel(sc_core::sc_module_name name, uint32_t index, const Params& params,
               EnergyMonitor& monitor, PowerBudget* budget = nullptr);

  const NandDie& die(uint32_t i) const { return *dies_.at(i); }
  NandDie& die(uint32_t i) { return *dies_.at(i); }
  uint32_t dies() const { return uint32_t(dies_.size()); }

  // flash::IssueGate, for an in-order controller.
  bool takes_command(const sc_core::sc_time& now) const override;
  sc_core::sc_time free_at(const sc_core::sc_time& now) const override;
  const sc_core::sc_event& progress() const override { return progress_; }
  const Usage& usage() const { return usage_; }

 private:
  using Cmd = flash::Cmd;
  using Group = flash::Group;
  using Stage = flash::Stage;
  using Want = flash::SchedulingPolicy::Want;
  struct Answer {
    tlm::tlm_generic_payload* gp;
    sc_core::sc_time end;
  };
  // A die: what it works on, and what waits for it.
  struct DieState {
    Group cur;                         // what the die works on
    Group staged;                      // cache program: the next program
    Group parked;                      // the program or erase a read suspended
    uint64_t held_seq = ~uint64_t{0};  // the program last held for a multi-plane partner
    sc_core::sc_time hold_until;
    flash::DieQueue queue;
    flash::BackgroundTime background;  // when it worked on background operations
    // When it was held for power (waking from power-down; its next command refused by the
    // power budget), and since when the budget has refused it (never_: it does not).
    flash::BackgroundTime power;
    sc_core::sc_time budget_since = sc_core::sc_max_time();
    DieState(uint32_t blocks, uint32_t pages_per_block, bool reads_pass, bool by_page)
        : queue(blocks, pages_per_block, reads_pass, by_page) {}
  };

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  // Debug transport: a read, program or erase goes to its die as the array operation's effect
  // on the contents alone, with no time and no energy (preconditioning, and acceptance).
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp) override;

  // The scheduler: runs whenever something may have changed, at the current time.
  void schedule();
  void finish_stages(const sc_core::sc_time& now);
  // The bus transfer, if it has ended by `now`.
  void finish_transfer(const sc_core::sc_time& now);
  void start_dies(const sc_core::sc_time& now);
  // A free die `die` with an operation it suspended: a further host read, or the resume.
  void resume_or_read(uint32_t die, const sc_core::sc_time& now);
  // A busy die `die`: a host read that suspends its operation, or the next program staged.
  void suspend_or_stage(uint32_t die, const sc_core::sc_time& now);
  bool grant_bus(const sc_core::sc_time& now);  // whether it granted
  void wake_at_next_event(const sc_core::sc_time& now);
  // Die power-down: the idle timer, and the wake-up of a die that is off (or due off now)
  // about to start a command (it holds until the wake ends); returns whether it woke.
  void power_down_dies();
  bool wake_die(uint32_t die, const sc_core::sc_time& now);
  bool die_resting(uint32_t die, const sc_core::sc_time& now) const;
  // Notes a die phase for the idle timer: the die rests from `rest_at` (never_: it works).
  void note_rest(uint32_t die, const sc_core::sc_time& rest_at);

  // Whether command `c` for die `d` can be started on arrival, decided now (see .cpp).
  bool decides_at_once(const DieState& d, const Cmd& c) const;
  // Starts it; returns TLM_COMPLETED with its end as `delay` once that is fixed.
  tlm::tlm_sync_enum start_at_once(uint32_t die, const Cmd& c, sc_core::sc_time& delay);
  // Multi-plane: whether the die should wait for a program on another plane to join the one
  // at `node`; sets the wake-up if so (once per first command).
  bool hold_for_partner(DieState& d, uint32_t node, const sc_core::sc_time& now);
  // Power budget: the slot of command `c`'s operation if the budget admits it now, else kNone
  // (with `queue`, the die waits its turn and the budget wakes the channel). Always a slot
  // without a budget.
  PowerBudget::Slot admit(uint32_t die, const Cmd& c, const sc_core::sc_time& now, bool queue);
  // Moves the command at `node` and, multi-plane, its ready companions into `g`.
  void take(uint32_t die, int node, const sc_core::sc_time& now, Group& g);
  // Runs a die phase for group `g` (none for Rest) starting now; returns its end.
  sc_core::sc_time die_phase(uint32_t die, FlashOp op, const Group* g, const sc_core::sc_time& now);
  void start_array(uint32_t die, Group& g, sc_core::sc_time at);  // by value: may be g.until
  void start_transfer(uint32_t die, Group& g, bool staged, const sc_core::sc_time& now);
  // Queues the answer to the group's commands (ending at `end`), sent after the pass, and
  // notes die `die`'s background work.
  void answer(uint32_t die, Group& g, const sc_core::sc_time& end);
  // The group's commands have ended.
  void complete(uint32_t die, Group& g, const sc_core::sc_time& now);
  // Answers a group whose end is now fixed and reports the die's rest at that end.
  void settle(uint32_t die, Group& g);
  // Whether the die's queued commands can only start once its current operation has ended
  // (a wake at that end is due anyway), so their arrivals need no wake of their own.
  bool waits_for_die(const DieState& d) const;
  // A die's operation waits for the bus (its data in or out), or a queued command is about to.
  bool waits_for_bus(const sc_core::sc_time& now) const;
  // Adds the active energy of a phase to the group's commands, shared equally.
  static void charge(Group& g, double joules);
  static PowerState array_state(const Group& g);
  // What die `die` draws in the array state of `g`, and moving data.
  double array_power_w(uint32_t die, const Group& g) const {
    return dies_[die]->power_w(array_state(g));
  }
  double transfer_power_w(uint32_t die) const { return dies_[die]->power_w(PowerState::Transfer); }

  // How long the group's data holds the bus: its commands' units (a program's whole page, a
  // read's one unit; ftl.mapping_unit_bytes), a unit's bytes at bus_ns_per_byte each; a spare
  // read's flash.oob_bytes.
  sc_core::sc_time transfer_time(const Group& g) const {
    if (g.cmds.front().ext->spare) return spare_transfer_;  // never grouped
    uint32_t units = 0;
    for (const Cmd& c : g.cmds) units += c.ext->units;
    return unit_transfer_ * double(units);
  }
  sc_core::sc_time unit_transfer_;
  sc_core::sc_time spare_transfer_;
  bool cache_program_;
  bool in_order_;           // controller.issue_order in_order: a controller waits on progress_
  bool early_;              // answer at once when an end is fixed (no suspend)
  bool merge_reads_;        // reads of a page's units share one array read (units smaller than it)
  sc_core::sc_time never_;  // sc_max_time(), kept: the kernel computes it on every call
  sc_core::sc_time t_suspend_, t_resume_;
  double p_bus_w_;  // the bus while it moves data
  flash::SchedulingPolicy policy_;
  flash::MultiPlane multiplane_;
  flash::BusArbiter bus_;
  flash::DiePowerDown power_down_;
  PowerBudget* budget_;
  uint32_t first_die_;  // the drive-wide index of the channel's first die, for the budget
  std::vector<std::unique_ptr<NandDie>> dies_;
  std::vector<DieState> state_;
  uint32_t queued_ = 0;  // commands queued at all the channel's dies
  uint64_t seq_ = 0;
  Usage usage_;
  std::vector<Answer> done_, answering_;  // answered after the pass
  std::vector<uint32_t> taken_;           // scratch for take()
  sc_core::sc_event wake_;
  sc_core::sc_event progress_;  // after each scheduling pass (in order only)
  sc_core::sc_event power_down_timer_;
  tlm::tlm_generic_payload die_gp_;
  FlashCommandExt& die_cmd_;  // owned by die_gp_
  PowerStateMachine psm_;
};

}  // namespace ssd::model
