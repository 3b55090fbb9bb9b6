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
// page_bytes x bus_ns_per_byte (the way switch delay) per page.
//
// Scheduling (controller.scheduler_policy, host_first, suspend_for_reads): a free die starts
// the first of its queued commands by rank: background work after host work (host_first),
// reads before programs and erases (read_first), then issue order. A command is ready once it
// has arrived, its data is in the buffer (programs), and no earlier command in the die's
// queue is for the same block: commands to one block never pass each other, which keeps the
// NAND rules and makes the contents a command sees the ones of issue order. The bus goes to
// the ready die whose transfer ranks first the same way (data out counts as a read).
// Multi-plane (flash.multiplane): a die starting a command takes with it the ready commands
// of the same kind on other planes at the same page offset; they share one array time and
// one bus grant. A program with a partner already sent but not yet ready waits for it up to
// flash.multiplane_wait_us (the controller sends a multi-plane command as one sequence). Cache
// program (flash.cache_program): while a die programs, the next program may move its data in; it
// starts the moment the array is free. Suspend (suspend_for_reads): a ready host read to another
// block suspends a die's program or erase (t_suspend_us), runs, and the operation resumes
// (t_resume_us) with the array time it had left.
//
// Cost: without suspend, nothing can change a program's or erase's end once its array time
// is decided, nor a read's once its data-out is granted. The channel then answers at once,
// with the end as annotated delay, reports the die's return to rest ahead, and wakes at that
// end only if the die has more work. The scheduler runs only when a decision is due.
//
// Die power-down (flash.die_power_down; docs/energy-model.md#low-power-states): a die that
// has rested idle_us is switched off by an idle timer of its own; when the scheduler next
// picks a command for it, the die first powers up for t_wake_us (held like a die waiting
// for a multi-plane partner), then starts it. Scope "channel": the dies go off together
// once every one has rested idle_us, and all power up when one is needed.
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>

#include "config/DriveConfig.h"
#include "model/NandDie.h"
#include "model/PowerBudget.h"
#include "model/PowerStateMachine.h"

namespace ssd::model {

// Its own socket's interface, as the dies are (BlockingTarget.h): a command reaches it in one
// virtual call.
class FlashChannel : public sc_core::sc_module, private tlm::tlm_fw_transport_if<> {
 public:
  tlm::tlm_target_socket<> socket;
  tlm_utils::multi_passthrough_initiator_socket<FlashChannel> die_socket;

  // What the channel measured, for the utilisation report.
  struct Usage {
    sc_core::sc_time bus_busy;           // the bus held by transfers
    sc_core::sc_time bus_wait;           // time transfers waited for the bus
    std::vector<sc_core::sc_time> die_wait;  // per die: time its commands waited in its queue
    std::vector<uint64_t> die_commands;  // per die: commands it started
    uint64_t multiplane_groups = 0;      // array operations on more than one plane
    uint64_t cache_programs = 0;         // programs whose data moved in during another
    uint64_t suspensions = 0;
    uint64_t die_power_downs = 0;        // dies switched off by their idle timer
    uint64_t die_wakes = 0;              // ... and powered up for a command
  };

  SC_HAS_PROCESS(FlashChannel);
  // Creates and binds the channel's ways_per_channel x dies_per_way dies. With a `budget`, a
  // die operation starts only when the budget admits it (docs/thermal.md).
  FlashChannel(sc_core::sc_module_name name, uint32_t index, const config::DriveConfig& cfg,
               EnergyMonitor& monitor, PowerBudget* budget = nullptr);

  const NandDie& die(uint32_t i) const { return *dies_.at(i); }
  const Usage& usage() const { return usage_; }

 private:
  enum class Stage : uint8_t {
    None,        // no operation
    NeedDataIn,  // program: waits for the bus to move its data in
    DataIn,
    Queued,      // cache program: data in, waits for the array
    Array,
    NeedDataOut, // read: data in the page register, waits for the bus
    DataOut,
    Suspending,  // a read waits for the array to pause the operation it suspends
    Resuming,
  };
  struct Cmd {
    tlm::tlm_generic_payload* gp = nullptr;
    FlashCommandExt* ext = nullptr;  // not to be read once answered: the payload is reused
    uint64_t seq = 0;
    sc_core::sc_time arrival;
    bool answered = false;
  };
  struct Answer {
    tlm::tlm_generic_payload* gp;
    sc_core::sc_time end;
  };
  // One die operation: one command, or several on different planes (multi-plane).
  struct Group {
    std::vector<Cmd> cmds;
    sc_core::sc_time until;  // end of the current timed stage
    FlashOp kind = FlashOp::Read;
    Stage stage = Stage::None;
    bool settled = false;    // answered ahead, the die's rest reported
    PowerBudget::Slot budget = PowerBudget::kNone;  // its share of the power budget
    sc_core::sc_time left;   // suspended: array time still to run
    sc_core::sc_time since;  // when it began to wait for the bus
    bool empty() const { return cmds.empty(); }
  };
  // A die's queue: the commands accepted and not started. Those to one block form a chain in
  // issue order, and only a chain's head may start (commands to one block never pass each
  // other), so the scheduler looks at heads alone: a GC victim's copies make one chain, not
  // hundreds of entries to scan.
  struct Node {
    Cmd cmd;
    int32_t next = -1;  // the next command to the same block
    bool live = false;
  };
  // When a queued command becomes ready (its arrival, its data in the buffer), for the wake-up.
  struct Timer {
    sc_core::sc_time at;
    uint32_t node;
    uint64_t seq;
    bool operator>(const Timer& o) const { return at > o.at; }
  };
  // What a command's arrival looks at in every die of the channel comes first (one cache line).
  struct alignas(64) DieState {
    uint32_t queued = 0;
    Group cur;               // what the die works on
    Group staged;            // cache program: the next program
    Group parked;            // the program or erase a read suspended
    std::vector<uint32_t> heads;  // nodes that head a chain, in issue order
    std::vector<int32_t> tail;    // per block of the die: the last node of its chain, or -1
    std::vector<Timer> timers;    // min-heap; entries of started commands are dropped lazily
    // Multi-plane wait: the queued programs by page offset, where a held program's partners are.
    std::vector<std::vector<uint32_t>> programs_at_page;
    uint64_t held_seq = ~uint64_t{0};  // the program last held for a multi-plane partner
    sc_core::sc_time hold_until;
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
  bool grant_bus(const sc_core::sc_time& now);  // whether it granted
  void wake_at_next_event(const sc_core::sc_time& now);
  // Die power-down: the idle timer; whether a die is at rest with nothing started.
  void power_down_dies();
  // When die `die` goes off (never_: not while it works or while it is off).
  sc_core::sc_time off_due(uint32_t die) const;
  // Whether die `die` is due off now and may go (its channel's dies all at rest, by scope).
  bool goes_off(uint32_t die, const sc_core::sc_time& now) const;
  bool die_resting(const DieState& d, const sc_core::sc_time& now) const;
  // Notes a die phase for the idle timer: the die rests from `rest_at` (never_: it works).
  void note_rest(uint32_t die, const sc_core::sc_time& rest_at);
  // A die about to start a command: if it is off, starts its wake-up (it holds until the
  // wake ends) and returns true.
  bool wake_die(uint32_t die, const sc_core::sc_time& now);

  // What a die may start: which kinds, and blocks it must leave alone.
  struct Want {
    bool programs_only = false;
    bool host_reads_only = false;
    const Group* avoid = nullptr;  // blocks of an operation in progress or suspended
  };
  // Whether command `c` for die `d` can be started on arrival, decided now (see .cpp).
  bool decides_at_once(const DieState& d, const Cmd& c) const;
  // Starts it; returns TLM_COMPLETED with its end as `delay` once that is fixed.
  tlm::tlm_sync_enum start_at_once(uint32_t die, const Cmd& c, sc_core::sc_time& delay);
  // Rank of a command or transfer: smaller goes first; issue order breaks ties.
  uint32_t rank(const Cmd& c, bool read_like) const;
  void enqueue(DieState& d, const Cmd& c, const sc_core::sc_time& now);
  // Removes a chain's head from the queue; the next command to its block heads the chain.
  void dequeue(DieState& d, uint32_t node);
  // Notes that the queued command at `node` becomes ready at `at` (if that is still ahead).
  void add_timer(DieState& d, uint32_t node, const sc_core::sc_time& at,
                 const sc_core::sc_time& now);
  // The earliest time after `now` at which a command queued at the die becomes ready.
  sc_core::sc_time next_ready(DieState& d, const sc_core::sc_time& now);
  // The node of the best ready command the die may start, or -1.
  int pick(const DieState& d, const sc_core::sc_time& now, const Want& want) const;
  // Whether the head `node` is ready (arrived, data in the buffer).
  bool ready(uint32_t node, const sc_core::sc_time& now) const;
  // Multi-plane: whether the die should wait (flash.multiplane_wait_us) for a program on
  // another plane to join the one at `node`; sets the wake-up if so.
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
  // Queues the answer to the group's commands (ending at `end`), sent after the pass.
  void answer(Group& g, const sc_core::sc_time& end);
  // The group's commands have ended.
  void complete(uint32_t die, Group& g, const sc_core::sc_time& now);
  // Answers a group whose end is now fixed and reports the die's rest at that end.
  void settle(uint32_t die, Group& g);
  // Whether the die's queued commands can only start once its current operation has ended
  // (a wake at that end is due anyway), so their arrivals need no wake of their own.
  bool waits_for_die(const DieState& d) const;
  // Adds the active energy of a phase to the group's commands, shared equally.
  static void charge(Group& g, double joules);
  static PowerState array_state(const Group& g);
  double array_power_w(const Group& g) const;
  static bool touches(const Group& g, uint32_t block);
  uint32_t plane_of(const Cmd& c) const { return c.ext->ppa.block / blocks_per_plane_; }

  sc_core::sc_time page_transfer_;
  uint32_t blocks_per_plane_;
  uint32_t planes_;
  bool multiplane_, multiplane_same_block_, cache_program_;
  sc_core::sc_time multiplane_wait_;
  bool read_first_, host_first_, suspend_;
  bool early_;  // answer at once when an end is fixed (no suspend)
  sc_core::sc_time never_;  // sc_max_time(), kept: the kernel computes it on every call
  sc_core::sc_time t_suspend_, t_resume_;
  // Active power (W) by die state, for the energy of each command.
  double p_read_w_, p_prog_w_, p_erase_w_, p_transfer_w_, p_bus_w_;
  double p_read_mp_w_, p_prog_mp_w_, p_erase_mp_w_;
  PowerBudget* budget_;
  uint32_t first_die_;  // the drive-wide index of the channel's first die, for the budget
  std::vector<std::unique_ptr<NandDie>> dies_;
  std::vector<DieState> state_;
  std::vector<Node> nodes_;  // the dies' queued commands
  std::vector<uint32_t> free_nodes_;
  // The bus: which die holds it (-1: free), until when.
  int bus_die_ = -1;
  bool bus_staged_ = false;  // the transfer is the staged (cache program) group's
  sc_core::sc_time bus_until_;
  uint64_t seq_ = 0;
  Usage usage_;
  std::vector<Answer> done_, answering_;  // answered after the pass
  std::vector<uint32_t> taken_;  // scratch for take()
  sc_core::sc_event wake_;
  bool power_down_;
  bool power_down_channel_;  // scope "channel"
  sc_core::sc_time down_idle_, t_wake_;
  struct DiePower {
    sc_core::sc_time rest_at;  // resting since (never_ while it works)
    bool off = false;
  };
  std::vector<DiePower> die_power_;
  sc_core::sc_event power_down_timer_;
  tlm::tlm_generic_payload die_gp_;
  FlashCommandExt& die_cmd_;  // owned by die_gp_
  PowerStateMachine psm_;
};

}  // namespace ssd::model
