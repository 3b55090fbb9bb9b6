#pragma once
// The controller. The firmware (fw::Firmware and its FTL) runs on its core as an SC_THREAD and
// reaches DRAM and flash only through this module's sockets: the controller implements the
// firmware's Hal with TLM transactions whose annotated delays carry the timing.
//
// With controller.hw_read_path, host reads run on a read engine instead: its own timeline and
// costs, no firmware time (the firmware's functions still decide what is read from where).
//
// Timing: the core serves commands in arrival order on its own timeline; firmware compute and
// DRAM accesses advance it; each flash command costs the channel switch delay (t_cmd_issue_us)
// before it leaves, so commands leave one after another. Flash commands go to the channels
// non-blocking; the channels' sequencers schedule them and answer when they end. A host command
// is done when its firmware work and the flash commands it waits for have ended; the controller
// then sends BEGIN_RESP back to the host interface. A channel may answer a flash command before
// it ends, with the end as annotated delay, once nothing can change it. A program whose data
// comes from a read in flight (read-modify-write, GC copy) leaves with its data time unknown;
// the controller sets it when the read's end is known.
//
// Its parts, in model/controller/: the core (Core), the flash commands in flight (OpTable) and
// the host commands taken up (HostCommands), reads served from the buffer (BufferReads),
// in-order issue (InOrderIssue), preconditioning (Preconditioning), the dies' power under
// off_when_idle (DiePower), background work (BackgroundWork), the lifetime manager's data units
// (DataUnits) and a loss of the supply (PowerLoss; its flush in ControllerPowerLoss.cpp).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "config/DriveConfig.h"
#include "firmware/BlockModes.h"
#include "firmware/Firmware.h"
#include "firmware/Hal.h"
#include "model/PayloadQueue.h"
#include "model/SsdExtensions.h"
#include "model/controller/BackgroundWork.h"
#include "model/controller/BufferReads.h"
#include "model/controller/ChannelSocket.h"
#include "model/controller/Core.h"
#include "model/controller/Cores.h"
#include "model/controller/DataUnits.h"
#include "model/controller/DiePower.h"
#include "model/controller/HostCommands.h"
#include "model/controller/InOrderIssue.h"
#include "model/controller/NamespaceFlash.h"
#include "model/controller/OpTable.h"
#include "model/controller/PowerLoss.h"
#include "model/controller/Preconditioning.h"
#include "model/dram/Dram.h"
#include "model/flash/IssueGate.h"

namespace ssd::model {

class Controller : public sc_core::sc_module, private fw::Hal {
 public:
  tlm_utils::simple_target_socket<Controller> host_socket;  // from the HostInterface
  tlm_utils::simple_initiator_socket<Controller> dram_socket;
  ChannelSocket flash_socket;  // one binding per channel

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
  void attach_gates(std::vector<const flash::IssueGate*> gates) {
    in_order_issue_.attach(std::move(gates));
  }
  using PreconditionMode = controller::Preconditioning::Mode;
  using PreconditionStats = controller::Preconditioning::Stats;
  // Before the simulation starts, age the drive (controller::Preconditioning); then zero the
  // firmware's and the controller's counters.
  // `fill_fraction` of the logical pages written in order (1: all), then `random_fraction` x
  // those pages at random among them.
  void precondition(double fill_fraction, double random_fraction,
                    PreconditionMode mode = PreconditionMode::Bulk,
                    controller::Preconditioning::Progress progress = {}) {
    preconditioning_.request(fill_fraction, random_fraction, mode, std::move(progress));
  }
  const PreconditionStats& precondition_stats() const { return preconditioning_.stats(); }
  // A saved aged drive (tb/run/StateFile.h) took preconditioning's place: what it reports.
  // A loaded state took preconditioning's place (tb/run/StateFile.h): its figures, and the
  // firmware restarts on it at the start of simulation (Ftl::restart).
  void restore_precondition_stats(const PreconditionStats& s) {
    preconditioning_.restore(s);
    restart_ = true;
  }
  // The DRAM the drive has (Dram::effective: configured, or sized from the FTL's tables).
  const config::DramConfig& dram_config() const { return dram_.cfg; }
  // Its ports: each core's, and the read engine's if there is one (run_on).
  uint32_t dram_ports() const { return uint32_t(cores_.size()) + (engine_ ? 1 : 0); }
  const std::string& dram_part() const { return dram_.part; }
  const FlashCounters& flash_counters() const { return counters_; }
  // Units programmed holding each namespace's data, and its flash operations' energy.
  const controller::NamespaceFlash& namespace_flash() const { return namespace_flash_; }
  // The figures of the controller (flash_ops), then its firmware's: report.json's objects walk
  // them (docs/report.md).
  std::vector<const Statistics*> statistics() const {
    std::vector<const Statistics*> out = firmware_.statistics();
    out.insert(out.begin(), &statistics_);
    return out;
  }
  // What works on host commands: the cores, the read engine (controller.hw_read_path) and the
  // issue engine (controller.issue_engine) if there are; each with its name and the total time
  // commands waited for it (its mean queue length; the issue engine's: flash commands).
  struct Worker {
    std::string name;
    sc_core::sc_time command_wait;
  };
  std::vector<Worker> workers() const {
    std::vector<Worker> w;
    for (std::size_t i = 0; i < cores_.size(); ++i)
      w.push_back({cores_.at(i).name(), cores_.at(i).command_wait()});
    if (engine_) w.push_back({engine_->name(), engine_->command_wait()});
    if (issuer_) w.push_back({issuer_->name(), issuer_->command_wait()});
    return w;
  }
  // controller.clock_gating: times a core's clock stopped.
  uint64_t clock_gate_entries() const {
    uint64_t n = 0;
    for (std::size_t i = 0; i < cores_.size(); ++i) n += cores_.at(i).gate_entries();
    return n;
  }
  // The latest time any work the controller started has ended (the firmware's own timeline
  // may run ahead of simulated time).
  const sc_core::sc_time& work_horizon() const { return horizon_; }
  // A loss of the supply (power.hold_up): its times and the host data programmed after it.
  const controller::PowerLoss& power_loss() const { return power_loss_; }
  // Energy of the operations the firmware started, by what they were for: the controller's
  // active time, DRAM accesses and flash operations (die and bus), each at its active
  // current. Idle energy belongs to no work and is not included.
  const std::array<double, fw::kWorkCount>& energy_by_work_j() const { return by_work_j_; }

 private:
  using Op = controller::Op;

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  // A channel answers a flash command: it has ended.
  tlm::tlm_sync_enum flash_bw(int channel, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                              sc_core::sc_time& delay);
  void start_of_simulation() override;
  void firmware_thread();
  // controller.hw_read_path: the read engine takes the host reads.
  void engine_thread();
  // Runs a thread's firmware work; a firmware failure becomes a model error.
  template <class F>
  void guarded(F&& f);
  // A host command on the core, or a read on the read engine (`hardware`).
  void handle(tlm::tlm_generic_payload& gp, bool hardware);
  void respond(uint32_t command);
  // Handles the host commands that have arrived; whether there were any.
  bool serve_commands();
  // Background work until there is none left or (on a core that takes host work too) a host
  // command is on its way.
  void background_work();
  // The host command's work on cores other than the one that took it (controller::Cores) has
  // ended: when its last part is back at that core, and what held that part back.
  sc_core::sc_time end_ftl_work(sc_core::sc_time fw_end, CoreWaits& waits);
  void power_manager();
  // power.hold_up: the supply fails at its time; the firmware thread then puts what the drive
  // holds on flash (hold_up) instead of serving commands.
  void power_loss_thread();
  void hold_up();
  // controller.clock_gating: a core's gate timer fired (the others' see it is not their time).
  void clock_gate() {
    for (std::size_t i = 0; i < cores_.size(); ++i) cores_.at(i).gate_timer_fired();
  }
  // Nothing in flight: the power manager looks again once the latest work has ended.
  void check_idle() {
    if (ops_.in_flight() == 0) die_power_.look_at(horizon_);
  }
  void add_energy(fw::Work w, double j) { by_work_j_[static_cast<std::size_t>(w)] += j; }
  // The firmware's step is background work (neither host data nor its mapping).
  bool background() const { return work() != fw::Work::HostData && work() != fw::Work::Mapping; }

  // fw::Hal
  sc_core::sc_time now() const override { return exec_->now(); }
  bool functional() const override { return functional_; }
  double die_retention_s(uint32_t die) override;
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
  void program_data_at(const sc_core::sc_time& t) override { exec_->programs_data_at(t); }
  void program_held(const sc_core::sc_time& length) override { exec_->programs_held(length); }
  sc_core::sc_time dram_burst(uint64_t bytes, bool write,
                              const sc_core::sc_time& not_before) override;
  bool ended_by_now(fw::OpId op) override;
  void pace_background(fw::OpId op) override { background_.pace(op); }
  void ftl_work(fw::Lpn lpn) override;

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
  // Sends one flash command; kNoOp in functional mode (preconditioning: by debug transport).
  fw::OpId issue(const Request& r);
  fw::OpId issue_functional(const Request& r);
  // An erase in op slot `slot` is issued on `ppa`'s block: what it holds, for namespace_flash_.
  void erasing(uint32_t slot, const fw::Ppa& ppa);
  // The extension of a command to `ppa` with what every command carries.
  void address(FlashCommandExt& ext, const Request& r) const;
  // Whether the firmware writes the die's block in SLC mode.
  bool slc(uint32_t die, uint32_t block) const {
    if (!modes_) return false;
    const uint32_t ftl_block = firmware_.ftl_block(block);  // a zoned namespace's: native
    return ftl_block != fw::FlashWindow::kNotFtl && modes_->slc(die, ftl_block);
  }
  // A fresh slot for a command in flight; a program retired meanwhile leaves the buffer.
  Op& new_op(uint32_t& slot);
  // The read of unit `unit` of a page whose program (in `program`) has not ended, from the
  // buffer; `out`: the program's data.
  fw::OpId read_from_buffer(uint32_t program, uint32_t unit, fw::PageToken& out);
  // The command `op` (in `slot`) has ended at `end`: what waited for it goes on.
  void finish(Op& op, uint32_t slot, const sc_core::sc_time& end);
  // A channel answered the command in `slot`: it ends `delay` from now.
  void ended(uint32_t slot, const sc_core::sc_time& delay);
  // controller.issue_engine: the engine takes the command the core posted now(); returns when
  // it leaves for its channel.
  sc_core::sc_time through_issuer();
  // The firmware thread waits until the command `id` (in `op`) has ended, or until
  // `interrupt` (if any) fires first; the core's clock moves to now.
  void wait_for_end(const Op& op, fw::OpId id, const sc_core::sc_event* interrupt);

  uint32_t channels_;
  uint64_t allocated_units_;  // what the namespaces cover: preconditioning writes them
  uint32_t dram_entry_bytes_;
  sc_core::sc_time t_cmd_issue_;
  sc_core::sc_time t_engine_command_, t_engine_issue_;  // controller.hw_read_path
  sc_core::sc_time t_post_, t_issuer_issue_;            // controller.issue_engine
  bool in_order_;                                       // controller.issue_order in_order
  fw::Firmware firmware_;
  const fw::BlockModes* modes_;  // the firmware's: a command carries its block's mode
  Dram::Sizing dram_;
  PayloadQueue<tlm::tlm_generic_payload> commands_;
  uint32_t queued_ = 0;                                  // commands received, not yet handled
  PayloadQueue<tlm::tlm_generic_payload> engine_reads_;  // the read engine's, likewise
  uint32_t engine_queued_ = 0;
  bool firmware_running_ = false;  // in a host command's firmware or a background step
  sc_core::sc_time horizon_;       // end of the latest work started
  tlm::tlm_generic_payload flash_gp_, dram_gp_, burst_gp_;
  FlashCommandExt& flash_cmd_;  // owned by flash_gp_ (preconditioning, presets)
  DramBurstExt& burst_;         // owned by burst_gp_
  controller::OpTable ops_;
  controller::HostCommands host_commands_;
  controller::BufferReads buffer_reads_;
  controller::InOrderIssue in_order_issue_;
  controller::Preconditioning preconditioning_;
  controller::DiePower die_power_;
  controller::BackgroundWork background_;
  fw::OpId waiting_for_ = fw::kNoOp;  // the firmware thread waits for it
  sc_core::sc_event op_ended_;
  FlashCounters counters_;
  controller::NamespaceFlash namespace_flash_;
  std::vector<fw::PageToken> block_contents_;  // an erased block's, for namespace_flash_
  Statistics statistics_;
  bool functional_ = false;  // preconditioning: the Hal costs nothing
  bool restart_ = false;     // a loaded state: the firmware restarts before the run
  // Active energies used for the attribution by work (flash: reported by the channels).
  double dram_active_w_;
  double dram_access_j_;
  std::array<double, fw::kWorkCount> by_work_j_{};
  controller::Cores cores_;
  std::optional<controller::Core> engine_;  // controller.hw_read_path
  std::optional<controller::Core> issuer_;  // controller.issue_engine
  // The work in hand runs on the read engine (hardware_) or a core: the Hal's costs go to
  // exec_'s timeline.
  controller::Core* exec_;
  bool hardware_ = false;
  // The core's host command in hand: the core that took it up, when that handed its FTL work
  // out, and the other cores it went to (the first: its FTL core under placement shared).
  controller::Core* taker_ = nullptr;
  std::optional<sc_core::sc_time> handed_at_;
  std::vector<controller::Core*> helpers_;
  // The DRAM ports of the look-ups and bursts (the payloads own them): exec_'s, set when it
  // changes (run_on), not per access.
  DramPortExt* dram_port_ = nullptr;
  DramPortExt* burst_port_ = nullptr;
  void run_on(controller::Core& core) {
    exec_ = &core;
    dram_port_->port = burst_port_->port = core.index();
  }
  controller::DataUnits data_units_;
  EnergyMonitor& monitor_;
  controller::PowerLoss power_loss_;
  bool lost_ = false;  // the supply has failed
  sc_core::sc_event flash_ended_;
};

}  // namespace ssd::model
