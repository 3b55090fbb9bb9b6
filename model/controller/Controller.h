#pragma once
// The controller core. The firmware (fw::Firmware and its FTL) runs on it as an SC_THREAD
// and reaches DRAM and flash only through this module's sockets: the controller implements
// the firmware's Hal with TLM transactions whose annotated delays carry the timing.
//
// Timing: the core serves commands in arrival order on its own timeline; firmware compute
// and DRAM accesses advance it; each flash command costs the channel switch delay
// (t_cmd_issue_us) before it leaves, so commands leave one after another. Flash commands go
// to the channels non-blocking; the channels' sequencers schedule them and answer when they
// end. A host command is done when its firmware work and the flash commands it waits for
// have ended; the controller then sends BEGIN_RESP back to the host interface. A channel may
// answer a flash command before it ends, with the end as annotated delay, once nothing can
// change it. A program whose data comes from a read in flight (read-modify-write, GC copy)
// leaves with its data time unknown; the controller sets it when the read's end is known.
// With controller.issue_order in_order (the founding study's controller) the core starts a
// command's issue only once its channel's bus can take it, idle while it waits (await_channel).
//
// Power management: under the "off_when_idle" NAND policy the controller powers the dies off
// once it holds no command (none queued, none in its firmware) and every flash operation it
// started has finished, and on again
// when the next command reaches it. (Read data may still be crossing the host link then:
// that needs no NAND.)
//
// Background work (the write buffer's destaging, dram.write_buffer_mb; background GC,
// ftl.background_gc): once the core has had no command for the idle time (the shorter of
// write_buffer_idle_us and bg_gc_idle_us of those enabled), the firmware thread runs it one
// step at a time (a stripe, a victim), each like a command's work on the core's timeline,
// and stops when a command is sent to it (checked between steps).
#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "config/DriveConfig.h"
#include "firmware/Firmware.h"
#include "firmware/Hal.h"
#include "model/PayloadQueue.h"
#include "model/SsdExtensions.h"
#include "model/controller/CriticalPath.h"
#include "model/dram/Dram.h"
#include "model/flash/BackgroundTime.h"
#include "model/flash/IssueGate.h"
#include "model/power/PowerStateMachine.h"

namespace ssd::model {

class Controller : public sc_core::sc_module, private fw::Hal {
 public:
  tlm_utils::simple_target_socket<Controller> host_socket;  // from the HostInterface
  tlm_utils::simple_initiator_socket<Controller> dram_socket;
  tlm_utils::multi_passthrough_initiator_socket<Controller> flash_socket;  // one per channel

  struct FlashCounters {
    uint64_t reads = 0;
    uint64_t programs = 0;
    uint64_t erases = 0;
    // Reads of a page whose program had not ended, served from the controller buffer instead
    // of the flash (controller.block_order nand; not counted in `reads`).
    uint64_t buffer_reads = 0;
    uint64_t spare_reads = 0;  // reads of a page's spare area only (not counted in `reads`)
  };

  SC_HAS_PROCESS(Controller);
  // The whole drive, unlike the other modules: the controller runs the firmware, whose FTL,
  // write buffer and lifetime manager answer for all of it.
  Controller(sc_core::sc_module_name name, const config::DriveConfig& cfg, EnergyMonitor& monitor);

  const fw::Firmware& firmware() const { return firmware_; }
  fw::Firmware& firmware() { return firmware_; }  // a saved drive state is loaded into it
  // controller.issue_order in_order: the channels' ready lines, by channel (bound by the Ssd).
  void attach_gates(std::vector<const flash::IssueGate*> gates) { gates_ = std::move(gates); }
  // How preconditioning ages the drive: Bulk computes the state that writing every logical
  // page once in order and then `random_fraction` x the logical pages at random leaves
  // (where the FTL can: page FTL, greedy GC, no wear levelling); Simulate, or Bulk where the
  // FTL cannot, runs those writes through the firmware.
  enum class PreconditionMode { Bulk, Simulate };
  // Before the simulation starts: fill the drive functionally at the start of simulation
  // (docs/ftl.md#preconditioning), all with version 0 tokens, through the debug transport (no
  // time, no energy); then zero the firmware's and the controller's counters.
  void precondition(double random_fraction, PreconditionMode mode = PreconditionMode::Bulk) {
    precondition_ = true;
    precondition_random_ = random_fraction;
    precondition_mode_ = mode;
  }
  struct PreconditionStats {
    bool done = false;
    bool bulk = false;  // computed in bulk (else simulated)
    double random_fraction = 0;
    uint64_t pages_written = 0;  // host pages written by preconditioning (sequential + random)
    double wall_s = 0;
    double cpu_s = 0;  // of the simulator's process
  };
  const PreconditionStats& precondition_stats() const { return precondition_stats_; }
  // A saved aged drive (tb/run/StateFile.h) took preconditioning's place: what it reports.
  void restore_precondition_stats(const PreconditionStats& s) { precondition_stats_ = s; }
  // The DRAM the drive has (Dram::effective: configured, or sized from the FTL's tables).
  const config::DramConfig& dram_config() const { return dram_.cfg; }
  const std::string& dram_part() const { return dram_.part; }
  const FlashCounters& flash_counters() const { return counters_; }
  // The figures of the controller (flash_ops), then its firmware's: report.json's objects walk
  // them (docs/report.md).
  std::vector<const Statistics*> statistics() const {
    std::vector<const Statistics*> out = firmware_.statistics();
    out.insert(out.begin(), &statistics_);
    return out;
  }
  // Total time host commands waited for the core (for its mean queue length).
  const sc_core::sc_time& command_wait() const { return command_wait_; }
  // The latest time any work the controller started has ended (the firmware's own timeline
  // may run ahead of simulated time).
  const sc_core::sc_time& work_horizon() const { return horizon_; }
  // Energy of the operations the firmware started, by what they were for: the controller's
  // active time, DRAM accesses and flash operations (die and bus), each at its active
  // current. Idle energy belongs to no work and is not included.
  const std::array<double, fw::kWorkCount>& energy_by_work_j() const { return by_work_j_; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  // A channel answers a flash command: it has ended.
  tlm::tlm_sync_enum flash_bw(int channel, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                              sc_core::sc_time& delay);
  void firmware_thread();
  void start_of_simulation() override;
  // Background GC until there is nothing left to do or a host command is on its way.
  void background_gc();
  void handle(tlm::tlm_generic_payload& gp);
  void power_manager();
  void set_dies_power(bool on);

  // fw::Hal
  sc_core::sc_time now() const override { return cursor_; }
  void compute(const sc_core::sc_time& duration) override;
  void unit_work(fw::Unit unit, const sc_core::sc_time& duration) override;
  void dram_access(uint32_t entries, bool write) override;
  fw::OpId flash_read(const fw::Ppa& ppa, fw::PageToken& out, uint32_t unit) override;
  fw::OpId flash_read_spare(const fw::Ppa& ppa, fw::PageToken& out) override;
  fw::OpId flash_program(const fw::Ppa& ppa, const fw::PageToken& data, fw::OpId data_from,
                         fw::OpId after) override;
  fw::OpId flash_program_units(const fw::Ppa& ppa, const fw::PageToken* data,
                               const fw::OpId* data_from, uint32_t units, fw::OpId after) override;
  fw::OpId flash_erase(uint32_t die, uint32_t block) override;
  void flash_preset(uint32_t die, uint32_t block, uint32_t erases,
                    const std::vector<fw::PageToken>& pages) override;
  void wait_for(fw::OpId op) override;
  sc_core::sc_time host_data_at(uint64_t bytes) override;
  void program_data_at(const sc_core::sc_time& t) override { program_data_at_ = t; }
  void program_held(const sc_core::sc_time& length) override {
    program_held_ = length;
    if (current_) core_waits_.throttle = std::max(core_waits_.throttle, length);
  }
  sc_core::sc_time dram_burst(uint64_t bytes, bool write,
                              const sc_core::sc_time& not_before) override;
  bool ended_by_now(fw::OpId op) override;
  void pace_background(fw::OpId op) override { bg_after_ = op; }

  // A flash command in flight, with its own payload (the channels answer later).
  struct Op {
    tlm::tlm_generic_payload gp;
    FlashCommandExt* ext = nullptr;  // owned by gp
    uint32_t gen = 1;                // bumped when the slot is freed: stale ids are "done"
    bool live = false;
    bool ended = false;  // answered; its end is known (live until it has passed)
    sc_core::sc_time end;
    fw::Work work = fw::Work::HostData;
    int32_t command = -1;  // the host command waiting for it
    // Program: when it may start at the earliest, by its data (host data in the buffer, the
    // read bringing it ended) and by its room (`after`, the erase garbage collection freed it
    // with, ended), and how many of those commands are still in flight.
    sc_core::sc_time data_floor, room_floor;
    fw::OpId data_from = fw::kNoOp, after = fw::kNoOp;
    // A read served from the controller buffer: never sent; it ends when the program's data
    // is there (`data_floor`, or its data source's end). `issued`: when the core asked.
    bool buffer = false;
    bool from_gc = false;  // its data comes from a GC copy's read
    sc_core::sc_time issued;
    uint32_t sources = 0;
    // How long it waited for garbage collection: at its die (FlashCommandExt::gc_wait) and,
    // held for room, past the time its data was there.
    sc_core::sc_time gc_wait;
    // For the latency breakdown: its start at the die and its wait for power there; the core's
    // waits for the host command that issued it, up to its issue.
    sc_core::sc_time started, power_wait, throttle;
    CoreWaits core;
    std::vector<uint32_t> waiters;  // programs waiting for this command (its data, its room)
  };
  // A host command the controller has started and not answered.
  struct Command {
    tlm::tlm_generic_payload* gp = nullptr;
    HostCommandExt* ext = nullptr;  // gp's
    uint32_t pending = 0;           // flash commands it still waits for
    sc_core::sc_time fw_end;        // end of its firmware work
    sc_core::sc_time flash_end;     // latest end of the flash commands answered so far
    sc_core::sc_time gc_wait;       // the longest any of its flash commands waited for GC
    CommandPath path;               // for its latency breakdown
  };
  // What a flash command carries.
  struct Request {
    FlashOp kind;
    const fw::Ppa& ppa;
    const fw::PageToken* data = nullptr;  // program: its units' data
    const fw::OpId* data_from = nullptr;  // program: per unit, the read bringing it (or kNoOp)
    uint32_t units = 1;                   // program: its page's units
    fw::OpId after = fw::kNoOp;           // program: it may not start before this ends
    uint32_t unit = 0;                    // read: the unit of the page
    fw::PageToken* out = nullptr;         // read: the unit's data
    bool spare = false;                   // read: of the spare area only
  };
  // Sends one flash command; kNoOp in functional mode.
  fw::OpId issue(const Request& r);
  // In order: the core catches the simulation up with its timeline, then, idle, waits until
  // `channel` can take a command; its issue starts then.
  void await_channel(uint32_t channel);
  // A program's data into its extension (a one-unit page's in `data`).
  static void set_data(FlashCommandExt& ext, const Request& r) {
    if (r.units == 1)
      ext.data = r.data[0];
    else
      std::copy(r.data, r.data + r.units, ext.unit_data.begin());
  }
  Op* live_op(fw::OpId id);
  // A fresh slot in ops_ for a command in flight, made live; `slot` its index.
  Op& new_op(uint32_t& slot);
  fw::OpId id_of(uint32_t slot) const { return (uint64_t(ops_[slot]->gen) << 32) | (slot + 1); }
  // The read of unit `unit` of a page whose program (in `program`) has not ended, from the
  // buffer; `out`: the program's data.
  fw::OpId read_from_buffer(uint32_t program, uint32_t unit, fw::PageToken& out);
  // The ended command's part of a host command's critical path.
  FlashPath path_of(const Op& op) const;
  // The core was blocked on flash from `from` to cursor_: noted for the host command it works
  // on (the latency breakdown).
  void note_blocked(const sc_core::sc_time& from);
  // The command `op` (in `slot`) has ended at `end`: what waited for it goes on.
  void finish(Op& op, uint32_t slot, const sc_core::sc_time& end);
  // The flat physical page number, for programs_in_flight_.
  uint64_t ppn(const fw::Ppa& p) const {
    return (uint64_t(p.die) * blocks_per_die_ + p.block) * pages_per_block_ + p.page;
  }
  // The firmware thread waits until the command `id` (in `op`) has ended, or until
  // `interrupt` (if any) fires first; the core's clock moves to now.
  void wait_for_end(const Op& op, fw::OpId id, const sc_core::sc_event* interrupt);
  // A channel answered the command in `slot`: it ends `delay` from now.
  void ended(uint32_t slot, const sc_core::sc_time& delay);
  void respond(uint32_t command);
  // The core starts / stops working at cursor_. Reported as it happens, in time order with the
  // DRAM's and the flash's reports of the work in between, which keeps the energy monitor's
  // queue in order.
  void begin_work() { psm_.enter(PowerState::Active, cursor_); }
  void end_work() { psm_.enter(psm_.rest_state(), cursor_); }
  void check_idle();

  uint32_t channels_;
  uint32_t blocks_per_die_, pages_per_block_;
  uint32_t units_per_page_;  // ftl.mapping_unit_bytes
  // controller.block_order nand: reads of a page whose program has not ended are served from
  // the controller buffer; the programs whose end has not passed, by physical page (an entry
  // goes when its command's slot is retired).
  bool serve_from_buffer_;
  std::unordered_map<uint64_t, fw::OpId> programs_in_flight_;
  config::SlcRegion slc_;  // commands to its blocks use SLC mode
  uint64_t logical_pages_;
  uint32_t dram_entry_bytes_;
  sc_core::sc_time t_cmd_issue_;
  bool in_order_;                               // controller.issue_order in_order
  std::vector<const flash::IssueGate*> gates_;  // by channel (in order only)
  bool power_off_when_idle_;
  bool dies_off_;
  bool firmware_running_ = false;  // in a host command's firmware or a background step
  fw::Firmware firmware_;
  Dram::Sizing dram_;
  PayloadQueue<tlm::tlm_generic_payload> commands_;
  sc_core::sc_event idle_check_;
  uint32_t queued_ = 0;      // commands received, not yet handled
  sc_core::sc_time cursor_;  // the core's own timeline
  sc_core::sc_time command_wait_;
  const HostCommandExt* current_ = nullptr;  // the host command the firmware works on
  CoreWaits core_waits_;                     // the core's waits for it so far
  // When the core was blocked on flash, and on flash for garbage collection: a command's wait
  // for the core is told apart from its work (the latency breakdown).
  flash::BackgroundTime core_blocked_flash_, core_blocked_gc_;
  sc_core::sc_time program_data_at_;  // programs' data is in the buffer from then
  sc_core::sc_time program_held_;     // of which throttling held it that long
  sc_core::sc_time horizon_;          // end of the latest work started
  tlm::tlm_generic_payload flash_gp_, dram_gp_, burst_gp_;
  FlashCommandExt& flash_cmd_;            // owned by flash_gp_ (power commands, preconditioning)
  DramBurstExt& burst_;                   // owned by burst_gp_
  std::vector<std::unique_ptr<Op>> ops_;  // by slot; an Op never moves (payloads point to it)
  Op& op_at(uint32_t slot) { return *ops_[slot]; }
  std::vector<uint32_t> free_ops_;
  // Ended commands in the order they were answered, freed from the front once its end has
  // passed (ends are not in order: a slot may wait a little longer than it must).
  std::deque<uint32_t> retiring_;
  uint32_t in_flight_ = 0;
  std::vector<Command> commands_started_;
  std::vector<uint32_t> free_commands_;
  fw::OpId waiting_for_ = fw::kNoOp;  // the firmware thread waits for it
  sc_core::sc_event op_ended_;
  FlashCounters counters_;
  Statistics statistics_;
  // Preconditioning: the Hal costs nothing and flash goes by debug transport.
  bool functional_ = false;
  bool precondition_ = false;
  double precondition_random_ = 0;
  PreconditionMode precondition_mode_ = PreconditionMode::Bulk;
  PreconditionStats precondition_stats_;
  bool background_gc_;
  sc_core::sc_time bg_idle_;
  bool bg_armed_ = false;          // a host command was served since background GC last ran dry
  fw::OpId bg_after_ = fw::kNoOp;  // the next background step waits for it
  // Active energies used for the attribution by work (flash: reported by the channels).
  double ctrl_active_w_;
  double dram_active_w_;
  double dram_access_j_;
  std::array<double, fw::kWorkCount> by_work_j_{};
  PowerStateMachine psm_;
  // The lifetime manager's data units (lifetime.mode; none when off), by fw::Unit, each with
  // its active power.
  struct DataUnit {
    std::unique_ptr<PowerStateMachine> psm;
    double active_w;
  };
  std::vector<DataUnit> units_;
};

}  // namespace ssd::model
