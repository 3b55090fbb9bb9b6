#include "model/controller/Controller.h"

#include <algorithm>
#include <exception>

#include "common/SimNow.h"

namespace ssd::model {
namespace {
constexpr const char* kMsgId = "/ssdtlm/controller";
constexpr std::size_t kFirmwareStackBytes = 8u << 20;
}  // namespace

Controller::Controller(sc_core::sc_module_name name, const config::DriveConfig& cfg,
                       EnergyMonitor& monitor)
    : sc_module(name),
      host_socket("host_socket"),
      dram_socket("dram_socket"),
      flash_socket("flash_socket"),
      channels_(cfg.flash.channels),
      slc_(cfg.slc_region()),
      logical_pages_(cfg.logical_units()),
      dram_entry_bytes_(cfg.dram.access_bytes),
      t_cmd_issue_(cfg.controller.cmd_issue_us(), sc_core::SC_US),
      t_engine_command_(cfg.controller.hw_read_path.t_command_ns, sc_core::SC_NS),
      t_engine_issue_(cfg.controller.hw_read_path.t_issue_ns, sc_core::SC_NS),
      in_order_(cfg.controller.issue_order == config::IssueOrder::InOrder),
      firmware_(cfg, *this),
      dram_(Dram::effective(cfg, firmware_.ftl().mapping_table_bytes())),
      flash_cmd_(*new FlashCommandExt),
      burst_(*new DramBurstExt),
      buffer_reads_(cfg),
      die_power_(cfg.flash, flash_socket),
      background_(cfg),
      dram_active_w_(dram_.cfg.i_active_ma * 1e-3 * dram_.cfg.voltage_v),
      dram_access_j_(dram_active_w_ * dram_.cfg.t_access_ns * 1e-9),
      core_(monitor, controller::CoreSpec::firmware_core(cfg.controller)),
      data_units_(monitor, cfg) {
  if (cfg.controller.hw_read_path.enabled)
    engine_.emplace(monitor, controller::CoreSpec::read_engine(cfg.controller));
  host_socket.register_nb_transport_fw(this, &Controller::nb_transport_fw);
  flash_socket.register_nb_transport_bw(this, &Controller::flash_bw);
  // The payloads the firmware sends are reused: b_transport returns before the next one.
  flash_gp_.set_extension(&flash_cmd_);  // the payloads own and free them
  burst_gp_.set_extension(&burst_);
  dram_port_ = new DramPortExt;
  burst_port_ = new DramPortExt;
  dram_gp_.set_extension(dram_port_);
  burst_gp_.set_extension(burst_port_);
  SC_THREAD(firmware_thread);
  // GC, merges and the flash sequencer's decisions run on this thread's stack, deeply nested
  // (and far deeper frames in sanitizer builds): more than SystemC's 64 KiB default.
  set_stack_size(kFirmwareStackBytes);
  if (engine_) {
    SC_THREAD(engine_thread);
    set_stack_size(kFirmwareStackBytes);
  }
  SC_METHOD(power_manager);
  sensitive << die_power_.check();
  dont_initialize();
  if (cfg.controller.clock_gating.enabled) {
    SC_METHOD(clock_gate);
    sensitive << core_.gate_timer();
    dont_initialize();
  }
  FlashCounters& c = counters_;
  statistics_.group("flash_ops")
      .counter("read", StatUnit::Pages, "Flash page reads the controller issued.", c.reads)
      .counter("program", StatUnit::Pages, "Flash page programs.", c.programs)
      .counter("erase", StatUnit::Blocks, "Block erases.", c.erases)
      .counter("reads_from_buffer", StatUnit::Pages,
               "Reads of a page still being programmed, served from the controller buffer.",
               c.buffer_reads)
      .counter("spare_read", StatUnit::Reads, "Reads of a page's spare area only.", c.spare_reads);
}

tlm::tlm_sync_enum Controller::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                               sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) SC_REPORT_FATAL(kMsgId, "unexpected phase from the host interface");
  const fw::HostCommand& cmd = gp.get_extension<HostCommandExt>()->cmd;
  firmware_.prefetch(cmd);
  if (engine_ && cmd.op == fw::CommandOp::Read) {
    ++engine_queued_;
    engine_reads_.notify(gp, delay);
  } else {
    ++queued_;
    commands_.notify(gp, delay);
  }
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void Controller::start_of_simulation() {
  if (!preconditioning_.requested() && !restart_) return;
  // Before the run, as preconditioning: the flash and DRAM cost nothing, no figure counts it.
  functional_ = true;
  if (restart_) firmware_.restart();
  if (preconditioning_.requested()) preconditioning_.run(firmware_, logical_pages_);
  functional_ = false;
  counters_ = FlashCounters{};
  by_work_j_.fill(0.0);
}

void Controller::firmware_thread() {
  for (;;) {
    // Without background work (or with nothing left for it, or a command on its way), one wait
    // per wake-up.
    if (background_.armed() && queued_ == 0) {
      const sc_core::sc_time now = sim_now();
      sc_core::wait(std::max(background_.due(core_.now()), now) - now, commands_.get_event());
    } else {
      sc_core::wait(commands_.get_event());
    }
    guarded([this] {
      const auto serve = [this] {
        bool served = false;
        while (tlm::tlm_generic_payload* gp = commands_.get_next_transaction()) {
          handle(*gp, false);
          served = true;
        }
        if (served) background_.host_served();
        return served;
      };
      if (!serve() && background_.armed() && queued_ == 0 &&
          sim_now() >= background_.due(core_.now())) {
        background_work();
        serve();  // a command that stopped it has already had its wake-up
      }
    });
  }
}

void Controller::engine_thread() {
  for (;;) {
    sc_core::wait(engine_reads_.get_event());
    guarded([this] {
      while (tlm::tlm_generic_payload* gp = engine_reads_.get_next_transaction()) handle(*gp, true);
    });
  }
}

template <class F>
void Controller::guarded(F&& f) {
  try {
    f();
  } catch (const sc_core::sc_report&) {
    throw;
  } catch (const std::exception& e) {
    // A firmware failure (e.g. no block left to reclaim) is a model error like any other.
    SC_REPORT_ERROR(kMsgId, (std::string("firmware: ") + e.what()).c_str());
  }
}

void Controller::handle(tlm::tlm_generic_payload& gp, bool hardware) {
  --(hardware ? engine_queued_ : queued_);
  const sc_core::sc_time now = sim_now();
  die_power_.wake();
  auto* ext = gp.get_extension<HostCommandExt>();
  if (!ext) SC_REPORT_FATAL(kMsgId, "host command without a HostCommandExt");
  // The read engine's read runs through without a wait, also while the core's command waits
  // inside the firmware: what it changes of the Hal's state is put back after it.
  controller::Core* const outer = exec_;
  const bool outer_running = firmware_running_;
  std::optional<fw::Hal::Scope> host_work;
  if (hardware) host_work.emplace(static_cast<fw::Hal&>(*this), fw::Work::HostData);
  hardware_ = hardware;
  controller::Core& core = hardware ? *engine_ : core_;
  run_on(core);
  core.reach(now);
  const sc_core::sc_time start = core.now();
  core.begin_work();
  core.queued(start - now);
  if (hardware) add_energy(work(), core.advance(t_engine_command_));
  uint32_t index;
  host_commands_.open(index);
  core.take(*ext);
  firmware_running_ = true;
  const fw::Completion& done =
      firmware_.execute(ext->cmd, ext->cmd.op == fw::CommandOp::Read ? &ext->read_data : nullptr);
  firmware_running_ = outer_running;
  const CoreWaits waits = core.waits();
  core.done();
  core.end_work();
  horizon_ = std::max(horizon_, core.now());
  run_on(*outer);
  hardware_ = false;
  controller::HostCommand& c = host_commands_.at(index);
  c.gp = &gp;
  c.ext = ext;
  c.fw_end = core.now();
  c.flash_end = done.at;
  c.pending = 0;
  c.gc_wait = sc_core::SC_ZERO_TIME;
  const sc_core::sc_time& arrived = ext->breakdown.at_controller;
  c.path.start(arrived, start, core.now(), waits, core.blocked_between(arrived, start));
  core.forget_before(arrived);
  for (fw::OpId id : done.ops) {
    Op* op = ops_.live(id);
    if (!op || op->command == int32_t(index)) continue;  // long over, or listed twice
    if (op->ended) {
      c.flash_ended(op->end, op->gc_wait, [op] { return op->path(); });
      continue;
    }
    if (op->command >= 0) SC_REPORT_FATAL(kMsgId, "a flash command serves two host commands");
    op->command = int32_t(index);
    ++c.pending;
  }
  if (c.pending == 0) respond(index);
  check_idle();
}

void Controller::respond(uint32_t index) {
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay;
  tlm::tlm_generic_payload& gp = host_commands_.close(index, sim_now(), delay);
  host_socket->nb_transport_bw(gp, phase, delay);
}

void Controller::background_work() {
  while (queued_ == 0) {
    die_power_.wake();
    core_.reach(sim_now());
    core_.begin_work();
    firmware_running_ = true;
    const bool more = firmware_.background_step();
    firmware_running_ = false;
    core_.end_work();
    horizon_ = std::max(horizon_, core_.now());
    if (!more) background_.ran_dry();
    check_idle();
    if (!more) return;
    // Let simulated time reach the end of this step's work, and of the flash command the
    // firmware paces its steps by: a command sent meanwhile stops the next one.
    sc_core::wait(core_.now() - sim_now(), commands_.get_event());
    const fw::OpId after = background_.take_pace();
    while (queued_ == 0 && !ended_by_now(after))
      wait_for_end(*ops_.live(after), after, &commands_.get_event());
  }
}

void Controller::power_manager() {
  // Not while the firmware works: it may be waiting for a flash command answered ahead (no
  // longer in flight) and will issue more to the dies once it ends.
  die_power_.rest(!firmware_running_ && queued_ == 0 && engine_queued_ == 0 &&
                  ops_.in_flight() == 0 && sim_now() >= horizon_);
}

void Controller::compute(const sc_core::sc_time& duration) {
  // The read engine runs no firmware: its costs are its own (handle, issue).
  if (functional_ || hardware_) return;
  add_energy(work(), core_.advance(duration));
}

void Controller::unit_work(fw::Unit unit, const sc_core::sc_time& duration) {
  if (functional_) return;
  const sc_core::sc_time start = exec_->now();
  compute(duration);
  add_energy(work(), data_units_.work(unit, start, duration));
}

void Controller::dram_access(uint32_t entries, bool write) {
  if (functional_) return;
  dram_gp_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  dram_gp_.set_data_length(entries * dram_entry_bytes_);
  sc_core::sc_time delay = exec_->now() - sim_now();
  dram_socket->b_transport(dram_gp_, delay);
  const sc_core::sc_time done = sim_now() + delay;
  // The core waits for the DRAM.
  add_energy(work(),
             exec_->active_w() * to_seconds(done - exec_->now()) + entries * dram_access_j_);
  exec_->reach(done);
}

sc_core::sc_time Controller::host_data_at(uint64_t bytes) {
  const HostCommandExt* cmd = exec_->command();
  if (!cmd || cmd->cmd.length_bytes == 0 || functional_) return sc_core::SC_ZERO_TIME;
  const double share = double(bytes) / double(cmd->cmd.length_bytes);
  return share >= 1.0 ? cmd->data_end : cmd->data_start + (cmd->data_end - cmd->data_start) * share;
}

sc_core::sc_time Controller::dram_burst(uint64_t bytes, bool write,
                                        const sc_core::sc_time& not_before) {
  if (functional_) return sc_core::SC_ZERO_TIME;
  burst_gp_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  burst_gp_.set_data_length(uint32_t(bytes));
  burst_.not_before = not_before;
  // DMA: the burst may start once the core has asked for it; the core goes on.
  sc_core::sc_time delay = exec_->now() - sim_now();
  dram_socket->b_transport(burst_gp_, delay);
  const sc_core::sc_time end = sim_now() + delay;
  horizon_ = std::max(horizon_, end);
  add_energy(work(), dram_active_w_ * (double(bytes) / (dram_.cfg.burst_mb_per_s * 1e6)));
  return end;
}

}  // namespace ssd::model
