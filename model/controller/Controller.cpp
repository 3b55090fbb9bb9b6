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
      allocated_units_(cfg.allocated_units()),
      dram_entry_bytes_(cfg.dram.access_bytes),
      t_cmd_issue_(cfg.controller.cmd_issue_us(), sc_core::SC_US),
      t_engine_command_(cfg.controller.hw_read_path.t_command_ns, sc_core::SC_NS),
      t_engine_issue_(cfg.controller.hw_read_path.t_issue_ns, sc_core::SC_NS),
      t_post_(cfg.controller.issue_engine.t_post_ns, sc_core::SC_NS),
      t_issuer_issue_(cfg.controller.issue_engine.t_issue_ns, sc_core::SC_NS),
      in_order_(cfg.controller.issue_order == config::IssueOrder::InOrder),
      firmware_(cfg, *this),
      modes_(firmware_.ftl().block_modes()),
      dram_(Dram::effective(cfg, firmware_.ftl().mapping_table_bytes())),
      flash_cmd_(*new FlashCommandExt),
      burst_(*new DramBurstExt),
      buffer_reads_(cfg),
      die_power_(cfg.flash, flash_socket),
      background_(cfg),
      namespace_flash_(cfg),
      block_contents_(namespace_flash_.on()
                          ? std::size_t(cfg.flash.pages_per_block) * cfg.units_per_page()
                          : 0),
      dram_active_w_(dram_.cfg.i_active_ma * 1e-3 * dram_.cfg.voltage_v),
      dram_access_j_(dram_active_w_ * dram_.cfg.t_access_ns * 1e-9),
      cores_(monitor, cfg.controller),
      exec_(&cores_.at(0)),
      data_units_(monitor, cfg),
      monitor_(monitor),
      power_loss_(cfg.power.hold_up.loss_at_ms > 0
                      ? sc_core::sc_time(cfg.power.hold_up.loss_at_ms, sc_core::SC_MS)
                      : sc_core::sc_max_time()) {
  if (cfg.controller.hw_read_path.enabled)
    engine_.emplace(monitor, controller::CoreSpec::read_engine(cfg.controller));
  if (cfg.controller.issue_engine.enabled)
    issuer_.emplace(monitor, controller::CoreSpec::issue_engine(cfg.controller));
  host_socket.register_nb_transport_fw(this, &Controller::nb_transport_fw);
  flash_socket.register_nb_transport_bw(this, &Controller::flash_bw);
  // The payloads the firmware sends are reused: b_transport returns before the next one.
  flash_gp_.set_extension(&flash_cmd_);  // the payloads own and free them
  flash_cmd_.functional = true;
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
  if (power_loss_.armed()) {
    const config::HoldUpConfig& h = cfg.power.hold_up;
    monitor.meter_hold_up(
        HoldUpMeter(power_loss_.at().value(), h.capacitance_uf * 1e-6, h.charged_v, h.cutoff_v));
    SC_THREAD(power_loss_thread);
  }
  SC_METHOD(power_manager);
  sensitive << die_power_.check();
  dont_initialize();
  if (cfg.controller.clock_gating.enabled) {
    SC_METHOD(clock_gate);
    for (std::size_t i = 0; i < cores_.size(); ++i) sensitive << cores_.at(i).gate_timer();
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
  if (preconditioning_.requested()) preconditioning_.run(firmware_, allocated_units_);
  functional_ = false;
  counters_ = FlashCounters{};
  namespace_flash_.reset();
  by_work_j_.fill(0.0);
}

void Controller::firmware_thread() {
  const bool yields = cores_.background_yields();
  while (!lost_) {
    // Without background work (or with nothing left for it, or a command on its way to the core
    // it would run on), one wait per wake-up.
    if (background_.armed() && (queued_ == 0 || !yields)) {
      const sc_core::sc_time now = sim_now();
      sc_core::wait(std::max(background_.due(cores_.background().now()), now) - now,
                    commands_.get_event());
    } else {
      sc_core::wait(commands_.get_event());
    }
    if (lost_) break;
    guarded([this, yields] {
      const bool served = serve_commands();
      if ((!yields || (!served && queued_ == 0)) && background_.armed() &&
          sim_now() >= background_.due(cores_.background().now())) {
        background_work();
        serve_commands();  // a command that stopped it has already had its wake-up
      }
    });
  }
  guarded([this] { hold_up(); });
}

bool Controller::serve_commands() {
  bool served = false;
  while (tlm::tlm_generic_payload* gp = lost_ ? nullptr : commands_.get_next_transaction()) {
    handle(*gp, false);
    served = true;
  }
  if (served) background_.host_served();
  return served;
}

void Controller::engine_thread() {
  for (;;) {
    sc_core::wait(engine_reads_.get_event());
    if (lost_) return;  // the reads left are never answered
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
  controller::Core& core = hardware ? *engine_ : cores_.host();
  run_on(core);
  if (!hardware) {
    taker_ = &core;
    handed_at_.reset();
  }
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
  CoreWaits waits = core.waits();
  const sc_core::sc_time fw_end = hardware ? core.now() : end_ftl_work(core.now(), waits);
  core.done();
  core.end_work();
  horizon_ = std::max(horizon_, fw_end);
  run_on(*outer);
  hardware_ = false;
  controller::HostCommand& c = host_commands_.at(index);
  c.gp = &gp;
  c.ext = ext;
  c.fw_end = fw_end;
  c.flash_end = done.at;
  c.pending = 0;
  c.gc_wait = c.refresh_wait = sc_core::SC_ZERO_TIME;
  c.uncorrectable = false;
  c.refused = done.failed;
  c.status = done.status;
  c.appended_lba = done.appended_lba;
  if (ext->cmd.op == fw::CommandOp::ZoneReport) {
    ext->zones_reported = done.zones_reported;
    ext->zones = done.zones;
  }
  const sc_core::sc_time& arrived = ext->breakdown.at_controller;
  c.path.start(arrived, start, fw_end, waits, core.blocked_between(arrived, start));
  core.forget_before(arrived);
  for (fw::OpId id : done.ops) {
    Op* op = ops_.live(id);
    if (!op || op->command == int32_t(index)) continue;  // long over, or listed twice
    if (op->ended) {
      c.flash_ended(op->end, op->gc_wait, op->refresh_wait, op->uncorrectable,
                    [op] { return op->path(); });
      continue;
    }
    if (op->command < 0) {
      op->command = int32_t(index);
    } else {
      if (std::find(op->more_commands.begin(), op->more_commands.end(), int32_t(index)) !=
          op->more_commands.end())
        continue;  // listed twice
      op->more_commands.push_back(int32_t(index));
    }
    ++c.pending;
  }
  if (c.pending == 0) respond(index);
  check_idle();
}

void Controller::ftl_work(fw::Lpn lpn) {
  if (hardware_ || functional_ || cores_.size() == 1) return;
  // The host core hands the units out once it has parsed the command.
  if (!handed_at_) handed_at_ = taker_->now();
  // Placement shared: the command's FTL work stays on the core it went to.
  controller::Core& to =
      !helpers_.empty() && !cores_.stripes() ? *helpers_.front() : cores_.ftl(lpn, *taker_);
  if (&to == exec_) return;
  exec_->end_work();
  run_on(to);
  // A step on another core may have waited for flash since this one last worked on it.
  to.reach(sim_now());
  if (&to != taker_ && std::find(helpers_.begin(), helpers_.end(), &to) == helpers_.end()) {
    const sc_core::sc_time arrives = *handed_at_ + cores_.message();
    to.reach(arrives);
    to.queued(to.now() - arrives);
    to.take(*taker_->command());
    to.handed(*handed_at_, arrives);
    helpers_.push_back(&to);
  }
  to.begin_work();
}

sc_core::sc_time Controller::end_ftl_work(sc_core::sc_time fw_end, CoreWaits& waits) {
  for (controller::Core* core : helpers_) {
    core->end_work();
    horizon_ = std::max(horizon_, core->now());
    // Its part is done once the host core hears of it.
    const sc_core::sc_time back = core->now() + cores_.message();
    if (back > fw_end) {
      fw_end = back;
      waits = core->waits();
      waits.handover.ended = core->now();
    }
    core->done();
  }
  helpers_.clear();
  return fw_end;
}

void Controller::respond(uint32_t index) {
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay;
  tlm::tlm_generic_payload& gp = host_commands_.close(index, sim_now(), delay);
  host_socket->nb_transport_bw(gp, phase, delay);
}

void Controller::background_work() {
  const bool yields = cores_.background_yields();
  while ((!yields || queued_ == 0) && !lost_) {
    controller::Core& core = cores_.background();
    run_on(core);
    die_power_.wake();
    core.reach(sim_now());
    core.begin_work();
    firmware_running_ = true;
    const bool more = firmware_.background_step();
    firmware_running_ = false;
    core.end_work();
    horizon_ = std::max(horizon_, core.now());
    if (!more) background_.ran_dry();
    check_idle();
    if (!more) break;
    // Let simulated time reach the end of this step's work, and of the flash command the
    // firmware paces its steps by. On a core that takes host work too, a command sent
    // meanwhile stops the next step; on cores of its own, it is served and the work goes on.
    do {
      sc_core::wait(core.now() - sim_now(), commands_.get_event());
    } while (!yields && serve_commands() && sim_now() < core.now());
    const fw::OpId after = background_.take_pace();
    while ((!yields || queued_ == 0) && !ended_by_now(after)) {
      wait_for_end(*ops_.live(after), after, &commands_.get_event());
      if (!yields) serve_commands();
    }
  }
  run_on(cores_.at(0));
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
  add_energy(work(), exec_->advance(duration));
}

double Controller::die_retention_s(uint32_t die) {
  // The sensor reads the present: the core's time may run ahead of what the drive has done.
  const ThermalModel* thermal = monitor_.thermal();
  return monitor_.retention_s(thermal->nand_node(die % channels_), sim_now());
}

void Controller::unit_work(fw::Unit unit, const sc_core::sc_time& duration) {
  if (functional_) return;
  // Another core may be driving the unit: this one waits until it is free.
  exec_->reach(data_units_.free_at(unit));
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
