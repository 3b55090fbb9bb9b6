#include "model/controller/Controller.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "common/CpuTime.h"
#include "common/SimNow.h"
#include "firmware/PreconditionStream.h"
#include "model/dram/Dram.h"

namespace ssd::model {
namespace {
constexpr const char* kMsgId = "/ssdtlm/controller";
constexpr std::size_t kFirmwareStackBytes = 8u << 20;

// Background work (write buffer destaging, background GC, SLC cache folding) starts once the
// drive has idled as long as the first of those enabled asks; none if none is.
std::optional<double> background_idle_us(const config::DriveConfig& cfg) {
  std::optional<double> us;
  const auto consider = [&](bool enabled, double idle_us) {
    if (enabled) us = std::min(us.value_or(idle_us), idle_us);
  };
  // The write buffer, or the units packed in SRAM without one (docs/ftl.md#mapping-units).
  consider(cfg.dram.write_buffer_mb > 0 || cfg.units_per_page() > 1, cfg.dram.write_buffer_idle_us);
  consider(cfg.ftl.background_gc, cfg.ftl.bg_gc_idle_us);
  consider(cfg.ftl.slc_cache_blocks_per_plane > 0, cfg.ftl.slc_fold_idle_us);
  return us;
}
}  // namespace

Controller::Controller(sc_core::sc_module_name name, const config::DriveConfig& cfg,
                       EnergyMonitor& monitor)
    : sc_module(name),
      host_socket("host_socket"),
      dram_socket("dram_socket"),
      flash_socket("flash_socket"),
      channels_(cfg.flash.channels),
      blocks_per_die_(cfg.flash.blocks_per_die()),
      pages_per_block_(cfg.flash.pages_per_block),
      units_per_page_(cfg.units_per_page()),
      serve_from_buffer_(cfg.controller.block_order == config::BlockOrder::Nand),
      slc_(cfg.slc_region()),
      logical_pages_(cfg.logical_units()),
      dram_entry_bytes_(cfg.dram.access_bytes),
      t_cmd_issue_(cfg.controller.t_cmd_issue_us, sc_core::SC_US),
      in_order_(cfg.controller.issue_order == config::IssueOrder::InOrder),
      power_off_when_idle_(cfg.flash.idle_policy == config::NandIdlePolicy::OffWhenIdle),
      dies_off_(power_off_when_idle_),
      firmware_(cfg, *this),
      dram_(Dram::effective(cfg, firmware_.ftl().mapping_table_bytes())),
      flash_cmd_(*new FlashCommandExt),
      burst_(*new DramBurstExt),
      background_gc_(background_idle_us(cfg).has_value()),
      bg_idle_(background_idle_us(cfg).value_or(0), sc_core::SC_US),
      ctrl_active_w_(cfg.controller.i_active_ma * 1e-3 * cfg.controller.voltage_v),
      dram_active_w_(dram_.cfg.i_active_ma * 1e-3 * dram_.cfg.voltage_v),
      dram_access_j_(dram_active_w_ * dram_.cfg.t_access_ns * 1e-9),
      psm_(monitor, "controller", "controller", cfg.controller.voltage_v,
           {{PowerState::Idle, cfg.controller.i_idle_ma},
            {PowerState::Active, cfg.controller.i_active_ma}},
           PowerState::Idle) {
  if (cfg.lifetime.enabled()) {
    // Drawn from the controller's supply: mW / V is mA.
    const double v = cfg.controller.voltage_v;
    for (const auto& [unit, mw] : {std::pair{"dedup_unit", cfg.lifetime.p_hash_mw},
                                   std::pair{"compression_unit", cfg.lifetime.p_compress_mw}})
      units_.push_back(DataUnit{
          std::make_unique<PowerStateMachine>(
              monitor, unit, "controller", v,
              std::vector<StateCurrent>{{PowerState::Idle, 0.0}, {PowerState::Active, mw / v}},
              PowerState::Idle),
          mw * 1e-3});
  }
  host_socket.register_nb_transport_fw(this, &Controller::nb_transport_fw);
  flash_socket.register_nb_transport_bw(this, &Controller::flash_bw);
  // The payloads the firmware sends are reused: b_transport returns before the next one.
  flash_gp_.set_extension(&flash_cmd_);  // the payloads own and free them
  burst_gp_.set_extension(&burst_);
  SC_THREAD(firmware_thread);
  // GC, merges and the flash sequencer's decisions run on this thread's stack, deeply nested
  // (and far deeper frames in sanitizer builds): more than SystemC's 64 KiB default.
  set_stack_size(kFirmwareStackBytes);
  SC_METHOD(power_manager);
  sensitive << idle_check_;
  dont_initialize();
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
  ++queued_;
  firmware_.prefetch(gp.get_extension<HostCommandExt>()->cmd);
  commands_.notify(gp, delay);
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void Controller::start_of_simulation() {
  if (!precondition_) return;
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();
  functional_ = true;
  const uint64_t page = firmware_.page_bytes();
  const uint64_t pages = logical_pages_;
  fw::HostCommand cmd{fw::CommandOp::Write, 0, page, 0};  // version 0: "never written" data
  try {
    const uint64_t random = uint64_t(precondition_random_ * double(pages));
    precondition_stats_.bulk =
        precondition_mode_ == PreconditionMode::Bulk && firmware_.precondition_bulk(random);
    if (!precondition_stats_.bulk) {
      for (uint64_t lpn = 0; lpn < pages; ++lpn) {
        cmd.offset_bytes = lpn * page;
        firmware_.execute(cmd, nullptr);
      }
      fw::PreconditionStream addresses(pages);  // fixed seed: repeatable
      for (uint64_t i = 0; i < random; ++i) {
        cmd.offset_bytes = addresses.next() * page;
        firmware_.execute(cmd, nullptr);
      }
      firmware_.settle();  // the measured run starts with an empty write buffer and SLC cache
    }
    precondition_stats_.pages_written = pages + random;
    precondition_stats_.random_fraction = precondition_random_;
    precondition_stats_.done = true;
  } catch (const std::exception& e) {
    SC_REPORT_ERROR(kMsgId, (std::string("precondition: firmware: ") + e.what()).c_str());
  }
  functional_ = false;
  firmware_.reset_stats();
  counters_ = FlashCounters{};
  by_work_j_.fill(0.0);
  precondition_stats_.wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  precondition_stats_.cpu_s = cpu_seconds() - cpu_start;
}

void Controller::firmware_thread() {
  for (;;) {
    // Without background GC (or with nothing left for it, or a command on its way), one wait
    // per wake-up, as always.
    if (bg_armed_ && queued_ == 0) {
      const sc_core::sc_time now = sim_now();
      sc_core::wait(std::max(cursor_ + bg_idle_, now) - now, commands_.get_event());
    } else {
      sc_core::wait(commands_.get_event());
    }
    try {
      const auto serve = [this] {
        bool served = false;
        while (tlm::tlm_generic_payload* gp = commands_.get_next_transaction()) {
          handle(*gp);
          served = true;
        }
        if (served) bg_armed_ = background_gc_;
        return served;
      };
      if (!serve() && bg_armed_ && queued_ == 0 && sim_now() >= cursor_ + bg_idle_) {
        background_gc();
        serve();  // a command that stopped it has already had its wake-up
      }
    } catch (const sc_core::sc_report&) {
      throw;
    } catch (const std::exception& e) {
      // A firmware failure (e.g. no block left to reclaim) is a model error like any other.
      SC_REPORT_ERROR(kMsgId, (std::string("firmware: ") + e.what()).c_str());
    }
  }
}

void Controller::handle(tlm::tlm_generic_payload& gp) {
  --queued_;
  const sc_core::sc_time now = sim_now();
  if (dies_off_) set_dies_power(true);
  auto* ext = gp.get_extension<HostCommandExt>();
  if (!ext) SC_REPORT_FATAL(kMsgId, "host command without a HostCommandExt");
  cursor_ = std::max(cursor_, now);
  const sc_core::sc_time start = cursor_;
  begin_work();
  command_wait_ += start - now;
  uint32_t index;
  if (free_commands_.empty()) {
    index = uint32_t(commands_started_.size());
    commands_started_.emplace_back();
  } else {
    index = free_commands_.back();
    free_commands_.pop_back();
  }
  current_ = ext;
  core_waits_ = CoreWaits{};
  firmware_running_ = true;
  const fw::Completion& done =
      firmware_.execute(ext->cmd, ext->cmd.op == fw::CommandOp::Read ? &ext->read_data : nullptr);
  firmware_running_ = false;
  current_ = nullptr;
  program_data_at_ = sc_core::SC_ZERO_TIME;
  program_held_ = sc_core::SC_ZERO_TIME;
  end_work();
  horizon_ = std::max(horizon_, cursor_);
  Command& c = commands_started_[index];
  c.gp = &gp;
  c.ext = ext;
  c.fw_end = cursor_;
  c.flash_end = done.at;
  c.pending = 0;
  c.gc_wait = sc_core::SC_ZERO_TIME;
  const sc_core::sc_time& arrived = ext->breakdown.at_controller;
  c.path.start(arrived, start, cursor_, core_waits_,
               CoreWaits{core_blocked_flash_.between(arrived, start),
                         core_blocked_gc_.between(arrived, start), sc_core::SC_ZERO_TIME});
  // Commands are taken up in the order they reach the controller: none asks about before this.
  for (flash::BackgroundTime* spans : {&core_blocked_flash_, &core_blocked_gc_})
    if (spans->crowded()) spans->forget_before(arrived);
  for (fw::OpId id : done.ops) {
    Op* op = live_op(id);
    if (!op || op->command == int32_t(index)) continue;  // long over, or listed twice
    if (op->ended) {
      if (op->end > c.flash_end) c.path.flash_last(path_of(*op));
      c.flash_end = std::max(c.flash_end, op->end);
      c.gc_wait = std::max(c.gc_wait, op->gc_wait);
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
  Command& c = commands_started_[index];
  const sc_core::sc_time now = sim_now();
  c.gp->set_response_status(tlm::TLM_OK_RESPONSE);
  c.ext->gc_wait = c.gc_wait;
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay = std::max({c.fw_end, c.flash_end, now}) - now;
  c.ext->breakdown.done = now + delay;
  c.path.stages(c.ext->breakdown, now + delay);
  tlm::tlm_generic_payload* gp = c.gp;
  c.gp = nullptr;
  free_commands_.push_back(index);
  host_socket->nb_transport_bw(*gp, phase, delay);
}

void Controller::check_idle() {
  if (!power_off_when_idle_ || in_flight_ != 0) return;
  const sc_core::sc_time now = sim_now();
  idle_check_.cancel();
  idle_check_.notify(std::max(horizon_, now) - now);
}

void Controller::background_gc() {
  while (queued_ == 0) {
    if (dies_off_) set_dies_power(true);
    cursor_ = std::max(cursor_, sim_now());
    begin_work();
    firmware_running_ = true;
    const bool more = firmware_.background_step();
    firmware_running_ = false;
    end_work();
    horizon_ = std::max(horizon_, cursor_);
    if (!more) bg_armed_ = false;
    check_idle();
    if (!more) return;
    // Let simulated time reach the end of this victim's work, and of the flash command the
    // firmware paces its steps by: a command sent meanwhile stops the next one.
    sc_core::wait(cursor_ - sim_now(), commands_.get_event());
    while (queued_ == 0 && !ended_by_now(bg_after_))
      wait_for_end(*live_op(bg_after_), bg_after_, &commands_.get_event());
    bg_after_ = fw::kNoOp;
  }
}

void Controller::power_manager() {
  // Not while the firmware works: it may be waiting for a flash command answered ahead (no
  // longer in flight) and will issue more to the dies once it ends.
  if (!dies_off_ && !firmware_running_ && queued_ == 0 && in_flight_ == 0 && sim_now() >= horizon_)
    set_dies_power(false);
}

void Controller::set_dies_power(bool on) {
  flash_cmd_.op = on ? FlashOp::PowerOn : FlashOp::PowerOff;
  for (uint32_t ch = 0; ch < channels_; ++ch) {
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    flash_socket[ch]->b_transport(flash_gp_, delay);
  }
  dies_off_ = !on;
}

void Controller::compute(const sc_core::sc_time& duration) {
  if (functional_) return;
  cursor_ += duration;
  by_work_j_[static_cast<std::size_t>(work())] += ctrl_active_w_ * to_seconds(duration);
}

void Controller::unit_work(fw::Unit unit, const sc_core::sc_time& duration) {
  if (functional_) return;
  const sc_core::sc_time start = cursor_;
  compute(duration);
  DataUnit& u = units_.at(static_cast<std::size_t>(unit));
  u.psm->occupy(PowerState::Active, start, cursor_);
  by_work_j_[static_cast<std::size_t>(work())] += u.active_w * to_seconds(duration);
}

void Controller::dram_access(uint32_t entries, bool write) {
  if (functional_) return;
  dram_gp_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  dram_gp_.set_data_length(entries * dram_entry_bytes_);
  sc_core::sc_time delay = cursor_ - sim_now();
  dram_socket->b_transport(dram_gp_, delay);
  const sc_core::sc_time done = sim_now() + delay;
  // The core waits for the DRAM.
  by_work_j_[static_cast<std::size_t>(work())] +=
      ctrl_active_w_ * to_seconds(done - cursor_) + entries * dram_access_j_;
  cursor_ = done;
}

Controller::Op* Controller::live_op(fw::OpId id) {
  const uint64_t slot = id & 0xffffffffu;
  if (slot == 0 || slot > ops_.size()) return nullptr;
  Op& op = op_at(slot - 1);
  return op.live && op.gen == uint32_t(id >> 32) ? &op : nullptr;
}

[[gnu::always_inline]] inline Controller::Op& Controller::new_op(uint32_t& slot) {
  // Commands answered ahead keep their slot until their end has passed: until then their id
  // must still give their end (a later program's data, a host command's completion).
  const sc_core::sc_time now = sim_now();
  while (!retiring_.empty() && op_at(retiring_.front()).end <= now) {
    const uint32_t done = retiring_.front();
    retiring_.pop_front();
    if (serve_from_buffer_ && !op_at(done).buffer && op_at(done).ext->op == FlashOp::Program) {
      const auto it = programs_in_flight_.find(ppn(op_at(done).ext->ppa));
      if (it != programs_in_flight_.end() && it->second == id_of(done))
        programs_in_flight_.erase(it);
    }
    op_at(done).live = false;
    ++op_at(done).gen;
    free_ops_.push_back(done);
  }
  Op* op;
  if (free_ops_.empty()) {
    slot = uint32_t(ops_.size());
    op = ops_.emplace_back(std::make_unique<Op>()).get();
    op->ext = new FlashCommandExt;
    op->gp.set_extension(op->ext);  // the payload owns and frees it
  } else {
    slot = free_ops_.back();
    free_ops_.pop_back();
    op = &op_at(slot);
  }
  op->live = true;
  op->ended = false;
  op->work = work();
  op->command = -1;
  op->buffer = false;
  return *op;
}

fw::OpId Controller::issue(const Request& r) {
  const fw::Ppa& ppa = r.ppa;
  const uint32_t channel = ppa.die % channels_;
  const bool program = r.kind == FlashOp::Program;
  if (functional_) {
    flash_cmd_.op = r.kind;
    flash_cmd_.ppa = ppa;
    flash_cmd_.slc = slc_.contains(ppa.block);
    flash_cmd_.die_in_channel = ppa.die / channels_;
    flash_cmd_.unit = uint8_t(r.unit);
    flash_cmd_.units = uint8_t(program ? r.units : 1);
    flash_cmd_.spare = r.spare;
    if (program) set_data(flash_cmd_, r);
    flash_socket[channel]->transport_dbg(flash_gp_);
    if (r.out) *r.out = flash_cmd_.data;
    return fw::kNoOp;
  }
  if (in_order_) await_channel(channel);
  compute(t_cmd_issue_);
  const sc_core::sc_time now = sim_now();
  uint32_t slot;
  Op& op = new_op(slot);
  FlashCommandExt& ext = *op.ext;
  ext.op = r.kind;
  ext.ppa = ppa;
  ext.slc = slc_.contains(ppa.block);
  ext.die_in_channel = ppa.die / channels_;
  ext.tag = slot;
  ext.background = !urgent() && work() != fw::Work::HostData && work() != fw::Work::Mapping;
  ext.unit = uint8_t(r.unit);
  ext.units = uint8_t(program ? r.units : 1);
  ext.spare = r.spare;
  if (program) set_data(ext, r);
  op.data_floor = program ? program_data_at_ : sc_core::SC_ZERO_TIME;
  op.throttle = program ? program_held_ : sc_core::SC_ZERO_TIME;
  op.room_floor = sc_core::SC_ZERO_TIME;
  op.data_from = program ? r.data_from[0] : fw::kNoOp;
  op.after = r.after;
  op.sources = 0;
  op.gc_wait = sc_core::SC_ZERO_TIME;
  op.issued = cursor_;
  op.core = current_ ? core_waits_ : CoreWaits{};
  // What the program waits for: its floor rises to a command's end once that is known.
  const auto wait_for_source = [&](fw::OpId from, sc_core::sc_time& floor) {
    Op* source = live_op(from);
    if (!source) return;
    if (source->ended) {
      floor = std::max(floor, source->end);
    } else {
      source->waiters.push_back(slot);
      ++op.sources;
    }
  };
  if (program)
    for (uint32_t u = 0; u < r.units; ++u) wait_for_source(r.data_from[u], op.data_floor);
  if (r.after != fw::kNoOp) wait_for_source(r.after, op.room_floor);
  ext.data_ready_at =
      op.sources != 0 ? sc_core::sc_max_time() : std::max(op.data_floor, op.room_floor);
  const fw::OpId id = (uint64_t(op.gen) << 32) | (slot + 1);
  if (serve_from_buffer_ && program) programs_in_flight_[ppn(ppa)] = id;
  ++in_flight_;
  op.gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = cursor_ - now;
  // A channel that can decide at once completes the command here, its end as the delay.
  if (flash_socket[channel]->nb_transport_fw(op.gp, phase, delay) == tlm::TLM_COMPLETED)
    ended(slot, delay);
  if (r.out) *r.out = ext.data;
  return id;
}

void Controller::await_channel(uint32_t channel) {
  if (channel >= gates_.size())
    SC_REPORT_FATAL(kMsgId, "in-order issue without the channels' gates");
  const flash::IssueGate& gate = *gates_[channel];
  // The channel's state is known up to the simulation time: the core's timeline, which may
  // run ahead, waits for it (busy, as it is until then).
  if (cursor_ > sim_now()) sc_core::wait(cursor_ - sim_now());
  if (gate.takes_command(sim_now())) return;
  end_work();  // blocked on the bus: idle, as while it waits for a flash command
  const sc_core::sc_time from = cursor_;
  do {
    const sc_core::sc_time now = sim_now();
    const sc_core::sc_time free = gate.free_at(now);
    if (free != sc_core::sc_max_time())
      sc_core::wait(free - now);
    else
      sc_core::wait(gate.progress());
  } while (!gate.takes_command(sim_now()));
  cursor_ = sim_now();
  note_blocked(from);
  begin_work();
}

tlm::tlm_sync_enum Controller::flash_bw(int /*channel*/, tlm::tlm_generic_payload& gp,
                                        tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_RESP) SC_REPORT_FATAL(kMsgId, "unexpected phase from a channel");
  ended(gp.get_extension<FlashCommandExt>()->tag, delay);
  phase = tlm::END_RESP;
  return tlm::TLM_COMPLETED;
}

void Controller::ended(uint32_t slot, const sc_core::sc_time& delay) {
  Op& op = op_at(slot);
  const FlashCommandExt* ext = op.ext;
  if (op.gp.get_response_status() != tlm::TLM_OK_RESPONSE)
    SC_REPORT_FATAL(kMsgId, "flash command failed");
  const sc_core::sc_time end = sim_now() + delay;
  by_work_j_[static_cast<std::size_t>(op.work)] += ext->energy_j;
  op.gc_wait = ext->gc_wait;
  if (op.room_floor > op.data_floor) op.gc_wait += op.room_floor - op.data_floor;
  op.started = ext->started;
  op.power_wait = ext->power_wait;
  finish(op, slot, end);
}

void Controller::finish(Op& op, uint32_t slot, const sc_core::sc_time& end) {
  const fw::OpId id = (uint64_t(op.gen) << 32) | (slot + 1);
  horizon_ = std::max(horizon_, end);
  // What waits for this command: programs (for a read bringing their data, an erase freeing
  // their room) may start at its end, once nothing else holds them; reads from the buffer
  // end with it.
  // (A read from the buffer finished below waits for nothing itself: op.waiters stays put.)
  for (uint32_t w : op.waiters) {
    Op& program = op_at(w);
    sc_core::sc_time& floor = program.after == id ? program.room_floor : program.data_floor;
    floor = std::max(end, floor);
    if (--program.sources != 0) continue;
    if (program.buffer) {
      // Waited for GC if the data came from a GC copy's read.
      if (program.from_gc) program.gc_wait = program.data_floor - program.issued;
      finish(program, w, program.data_floor);
      continue;
    }
    program.ext->data_ready_at = std::max(program.data_floor, program.room_floor);
    tlm::tlm_phase ready = DATA_READY;
    sc_core::sc_time at = program.ext->data_ready_at - sim_now();
    flash_socket[program.ext->ppa.die % channels_]->nb_transport_fw(program.gp, ready, at);
  }
  op.waiters.clear();
  const int32_t command = op.command;
  op.ended = true;
  op.end = end;
  if (op.buffer) op.started = end;  // never at a die: it waited for its data throughout
  op.command = -1;
  retiring_.push_back(slot);
  --in_flight_;
  if (command >= 0) {
    Command& c = commands_started_[uint32_t(command)];
    if (end > c.flash_end) c.path.flash_last(path_of(op));
    c.flash_end = std::max(c.flash_end, end);
    c.gc_wait = std::max(c.gc_wait, op.gc_wait);
    if (--c.pending == 0) respond(uint32_t(command));
  }
  if (waiting_for_ == id) op_ended_.notify(end - sim_now());
  check_idle();
}

fw::OpId Controller::read_from_buffer(uint32_t program, uint32_t unit, fw::PageToken& out) {
  ++counters_.buffer_reads;
  const FlashCommandExt& page = *op_at(program).ext;
  out = page.units == 1 ? page.data : page.unit_data[unit];
  const fw::OpId source_id = op_at(program).data_from;
  const sc_core::sc_time floor = op_at(program).data_floor;
  uint32_t slot;
  Op& op = new_op(slot);
  op.buffer = true;
  op.throttle = sc_core::SC_ZERO_TIME;
  op.issued = cursor_;
  op.core = current_ ? core_waits_ : CoreWaits{};
  op.power_wait = sc_core::SC_ZERO_TIME;
  op.data_floor = std::max(floor, cursor_);
  op.room_floor = sc_core::SC_ZERO_TIME;
  op.data_from = source_id;
  op.after = fw::kNoOp;
  op.sources = 0;
  op.gc_wait = sc_core::SC_ZERO_TIME;
  op.from_gc = false;
  ++in_flight_;
  const fw::OpId id = id_of(slot);
  Op* source = live_op(source_id);
  if (!source || source->ended) {
    finish(op, slot, source ? std::max(op.data_floor, source->end) : op.data_floor);
    return id;
  }
  // The data is still on its way from a read: the host now waits for it, so it ranks as
  // host work at its die.
  source->waiters.push_back(slot);
  op.sources = 1;
  op.from_gc = source->ext->background;
  if (op.from_gc) {
    tlm::tlm_phase promote = PROMOTE;
    sc_core::sc_time delay = cursor_ - sim_now();
    flash_socket[source->ext->ppa.die % channels_]->nb_transport_fw(source->gp, promote, delay);
  }
  return id;
}

sc_core::sc_time Controller::host_data_at(uint64_t bytes) {
  if (!current_ || current_->cmd.length_bytes == 0 || functional_) return sc_core::SC_ZERO_TIME;
  const double share = double(bytes) / double(current_->cmd.length_bytes);
  return share >= 1.0 ? current_->data_end
                      : current_->data_start + (current_->data_end - current_->data_start) * share;
}

sc_core::sc_time Controller::dram_burst(uint64_t bytes, bool write,
                                        const sc_core::sc_time& not_before) {
  if (functional_) return sc_core::SC_ZERO_TIME;
  burst_gp_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  burst_gp_.set_data_length(uint32_t(bytes));
  burst_.not_before = not_before;
  // DMA: the burst may start once the core has asked for it; the core goes on.
  sc_core::sc_time delay = cursor_ - sim_now();
  dram_socket->b_transport(burst_gp_, delay);
  const sc_core::sc_time end = sim_now() + delay;
  horizon_ = std::max(horizon_, end);
  by_work_j_[static_cast<std::size_t>(work())] +=
      dram_active_w_ * (double(bytes) / (dram_.cfg.burst_mb_per_s * 1e6));
  return end;
}

bool Controller::ended_by_now(fw::OpId id) {
  const Op* op = live_op(id);
  return !op || (op->ended && op->end <= cursor_);
}

void Controller::wait_for(fw::OpId id) {
  const Op* op = functional_ ? nullptr : live_op(id);
  if (!op || (op->ended && op->end <= cursor_)) return;
  // The core is blocked until the command ends: it idles while it waits (so a stalled core
  // does not pass for a busy one).
  end_work();
  const sc_core::sc_time from = cursor_;
  wait_for_end(*op, id, nullptr);
  note_blocked(from);
  begin_work();
}

void Controller::note_blocked(const sc_core::sc_time& from) {
  const bool gc = work() != fw::Work::HostData && work() != fw::Work::Mapping;
  (gc ? core_blocked_gc_ : core_blocked_flash_).add(from, cursor_);
  if (current_) (gc ? core_waits_.gc : core_waits_.flash) += cursor_ - from;
}

FlashPath Controller::path_of(const Op& op) const {
  FlashPath f{op.issued,  op.issued,     op.started,  op.end,
              op.gc_wait, op.power_wait, op.throttle, op.core};
  // A read from the buffer waits for the program's data, unless that comes from GC's read.
  if (op.buffer)
    f.data_at = op.from_gc ? op.issued : op.end;
  else
    f.data_at = std::max(op.issued, op.data_floor);
  return f;
}

void Controller::wait_for_end(const Op& op, fw::OpId id, const sc_core::sc_event* interrupt) {
  if (op.ended) {
    const sc_core::sc_time left = op.end - sim_now();
    interrupt ? sc_core::wait(left, *interrupt) : sc_core::wait(left);
  } else {
    waiting_for_ = id;  // op_ended_ is notified at the command's end
    interrupt ? sc_core::wait(op_ended_ | *interrupt) : sc_core::wait(op_ended_);
    waiting_for_ = fw::kNoOp;
  }
  cursor_ = std::max(cursor_, sim_now());
}

fw::OpId Controller::flash_read(const fw::Ppa& ppa, fw::PageToken& out, uint32_t unit) {
  if (serve_from_buffer_ && !functional_) {
    const auto it = programs_in_flight_.find(ppn(ppa));
    const Op* program = it == programs_in_flight_.end() ? nullptr : live_op(it->second);
    if (program && (!program->ended || program->end > cursor_))
      return read_from_buffer(uint32_t((it->second & 0xffffffffu) - 1), unit, out);
  }
  ++counters_.reads;
  Request r{FlashOp::Read, ppa};
  r.unit = unit;
  r.out = &out;
  return issue(r);
}

fw::OpId Controller::flash_read_spare(const fw::Ppa& ppa, fw::PageToken& out) {
  // Always from the flash: the controller buffer keeps page data, not spare areas.
  ++counters_.spare_reads;
  Request r{FlashOp::Read, ppa};
  r.out = &out;
  r.spare = true;
  return issue(r);
}

fw::OpId Controller::flash_program(const fw::Ppa& ppa, const fw::PageToken& data,
                                   fw::OpId data_from, fw::OpId after) {
  ++counters_.programs;
  Request r{FlashOp::Program, ppa};
  r.data = &data;
  r.data_from = &data_from;
  r.after = after;
  return issue(r);
}

fw::OpId Controller::flash_program_units(const fw::Ppa& ppa, const fw::PageToken* data,
                                         const fw::OpId* data_from, uint32_t units,
                                         fw::OpId after) {
  ++counters_.programs;
  Request r{FlashOp::Program, ppa};
  r.data = data;
  r.data_from = data_from;
  r.units = units;
  r.after = after;
  return issue(r);
}

fw::OpId Controller::flash_erase(uint32_t die, uint32_t block) {
  ++counters_.erases;
  return issue(Request{FlashOp::Erase, fw::Ppa{die, block, 0}});
}

void Controller::flash_preset(uint32_t die, uint32_t block, uint32_t erases,
                              const std::vector<fw::PageToken>& pages) {
  flash_cmd_.op = FlashOp::Preset;
  flash_cmd_.ppa = fw::Ppa{die, block, 0};
  flash_cmd_.slc = slc_.contains(block);
  flash_cmd_.die_in_channel = die / channels_;
  flash_cmd_.erases = erases;
  flash_gp_.set_data_ptr(
      reinterpret_cast<unsigned char*>(const_cast<fw::PageToken*>(pages.data())));
  flash_gp_.set_data_length(uint32_t(pages.size() * sizeof(fw::PageToken)));
  flash_socket[die % channels_]->transport_dbg(flash_gp_);
  flash_gp_.set_data_ptr(nullptr);
  flash_gp_.set_data_length(0);
}

}  // namespace ssd::model
