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
// Cache program (flash.cache_program): while a die programs, the next program may move its
// data in; it starts the moment the array is free. Suspend (suspend_for_reads): a ready host
// read to another block suspends a die's program or erase (t_suspend_us), runs, and the
// operation resumes (t_resume_us) with the array time it had left. Each command is charged
// the energy of the phases it ran, at the powers its die reports and the bus's own.
//
// The parts, each in its own file of model/flash/: the scheduling pass and a command's
// arrival (ChannelScheduler); the dies' operations as they move through their stages, the
// energy each phase charges, die power-down's rounds (DieStages); a die's queue and its
// ordering rules (DieQueue); the choice among ready commands (SchedulingPolicy); multi-plane
// grouping (MultiPlane); the bus (BusArbiter); the power-down rule (DiePowerDown). This module
// holds the sockets and the dies, and is the kernel's side of the rest: it runs the pass when
// woken, sends the answers, and runs the idle timer.
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
#include <vector>
#include <systemc>
#include <tlm>

#include "model/flash/ChannelScheduler.h"
#include "model/flash/DieStages.h"
#include "model/flash/IssueGate.h"
#include "model/flash/NandDie.h"
#include "model/power/PowerBudget.h"

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

  using Usage = flash::ChannelUsage;
  using Params = flash::ChannelParams;
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
  bool takes_command(const sc_core::sc_time& now) const override {
    return scheduler_.takes_command(now);
  }
  sc_core::sc_time free_at(const sc_core::sc_time& now) const override {
    return scheduler_.free_at(now);
  }
  const sc_core::sc_event& progress() const override { return progress_; }
  const Usage& usage() const { return scheduler_.dies().usage(); }
  // The ECC engines its reads' data is decoded at, its own or the controller's (null:
  // flash.reliability off).
  const flash::EccPool* ecc() const { return scheduler_.dies().ecc(); }

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  // Debug transport: a read, program or erase goes to its die as the array operation's effect
  // on the contents alone, with no time and no energy (preconditioning, and acceptance).
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp) override;

  // The die sockets are bound: the scheduler's dies are what they are bound to.
  void end_of_elaboration() override;

  flash::DieQueue& queue(uint32_t die) { return scheduler_.dies().die(die).queue; }
  // The scheduling pass, whenever something may have changed, then the answers it owes.
  void schedule();
  // The idle timer of die power-down.
  void power_down_dies();

  bool in_order_;           // controller.issue_order in_order: a controller waits on progress_
  sc_core::sc_time never_;  // sc_max_time(), kept: the kernel computes it on every call
  sc_core::sc_event wake_;
  sc_core::sc_event progress_;  // after each scheduling pass (in order only)
  sc_core::sc_event power_down_timer_;
  flash::ChannelScheduler scheduler_;
  std::vector<std::unique_ptr<NandDie>> dies_;
  std::vector<flash::Answer> answering_;  // answered after the pass
};

}  // namespace ssd::model
