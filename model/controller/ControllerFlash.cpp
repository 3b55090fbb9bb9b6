// The controller's flash side: the firmware's flash commands (fw::Hal) sent to the channels,
// their ends, what waits for them (programs for their data or room, host commands, the
// firmware thread), and reads served from the buffer.
#include <algorithm>

#include "common/SimNow.h"
#include "model/controller/Controller.h"

namespace ssd::model {
namespace {
constexpr const char* kMsgId = "/ssdtlm/controller";

// A program's data into its extension (a one-unit page's in `data`).
void set_data(FlashCommandExt& ext, const fw::PageToken* data, uint32_t units) {
  if (units == 1)
    ext.data = data[0];
  else
    std::copy(data, data + units, ext.unit_data.begin());
}
}  // namespace

void Controller::address(FlashCommandExt& ext, const Request& r) const {
  const bool program = r.kind == FlashOp::Program;
  ext.op = r.kind;
  ext.ppa = r.ppa;
  ext.slc = slc(r.ppa.die, r.ppa.block);
  ext.die_in_channel = r.ppa.die / channels_;
  ext.unit = uint8_t(r.unit);
  ext.units = uint8_t(program ? r.units : 1);
  ext.spare = r.spare;
  if (program) set_data(ext, r.data, r.units);
}

fw::OpId Controller::issue_functional(const Request& r) {
  address(flash_cmd_, r);
  flash_socket[r.ppa.die % channels_]->transport_dbg(flash_gp_);
  if (r.out) *r.out = flash_cmd_.data;
  return fw::kNoOp;
}

[[gnu::always_inline]] inline controller::Op& Controller::new_op(uint32_t& slot) {
  return ops_.make(sim_now(), work(), slot, [this](uint32_t done) {
    const Op& op = ops_.at(done);
    if (buffer_reads_.on() && !op.buffer && op.ext->op == FlashOp::Program)
      buffer_reads_.retired(op.ext->ppa, ops_.id_of(done));
  });
}

fw::OpId Controller::issue(const Request& r) {
  if (functional_) return issue_functional(r);
  const uint32_t channel = r.ppa.die % channels_;
  const bool program = r.kind == FlashOp::Program;
  if (in_order_) in_order_issue_.await(channel, *exec_, background());
  if (hardware_)
    add_energy(work(), exec_->advance(t_engine_issue_));
  else if (issuer_)
    compute(t_post_);
  else
    compute(t_cmd_issue_);
  // The command leaves when its issuer is done with it: the core, or the issue engine, which
  // takes the posted commands one at a time.
  const sc_core::sc_time leaves = hardware_ || !issuer_ ? exec_->now() : through_issuer();
  uint32_t slot;
  Op& op = new_op(slot);
  FlashCommandExt& ext = *op.ext;
  address(ext, r);
  ext.tag = slot;
  if (r.kind == FlashOp::Erase && namespace_flash_.on()) erasing(slot, r.ppa);
  ext.background = !urgent() && background();
  ext.refresh = ext.background && work() == fw::Work::Refresh;
  op.data_floor = program ? exec_->program_data_at() : sc_core::SC_ZERO_TIME;
  op.throttle = program ? exec_->program_held() : sc_core::SC_ZERO_TIME;
  op.room_floor = sc_core::SC_ZERO_TIME;
  op.data_from = program ? r.data_from[0] : fw::kNoOp;
  op.after = r.after;
  op.sources = 0;
  op.gc_wait = op.refresh_wait = sc_core::SC_ZERO_TIME;
  op.issued = exec_->now();
  op.core = exec_->waits_now();
  // What the program waits for: its floor rises to a command's end once that is known.
  const auto wait_for_source = [&](fw::OpId from, sc_core::sc_time& floor) {
    Op* source = ops_.live(from);
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
  const fw::OpId id = ops_.id_of(slot);
  if (buffer_reads_.on() && program) buffer_reads_.programming(r.ppa, id);
  // Host data goes to flash in host work, a merge, a failed program's rewrite: every program.
  if (power_loss_.armed() && program) {
    uint32_t from_host = 0;
    for (uint32_t u = 0; u < r.units; ++u) from_host |= uint32_t(r.data_from[u] == fw::kNoOp) << u;
    power_loss_.programming(id, r.data, r.units, from_host);
  }
  op.gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = leaves - sim_now();
  // A channel that can decide at once completes the command here, its end as the delay.
  if (flash_socket[channel]->nb_transport_fw(op.gp, phase, delay) == tlm::TLM_COMPLETED)
    ended(slot, delay);
  if (r.out) *r.out = ext.data;
  return id;
}

void Controller::erasing(uint32_t slot, const fw::Ppa& ppa) {
  flash_cmd_.op = FlashOp::Contents;
  flash_cmd_.ppa = ppa;
  flash_cmd_.die_in_channel = ppa.die / channels_;
  flash_gp_.set_data_ptr(reinterpret_cast<unsigned char*>(block_contents_.data()));
  flash_gp_.set_data_length(uint32_t(block_contents_.size() * sizeof(fw::PageToken)));
  const unsigned int n = flash_socket[ppa.die % channels_]->transport_dbg(flash_gp_);
  flash_gp_.set_data_ptr(nullptr);
  flash_gp_.set_data_length(0);
  namespace_flash_.erasing(slot, block_contents_.data(), n);
}

sc_core::sc_time Controller::through_issuer() {
  controller::Core& e = *issuer_;
  e.reach(exec_->now());
  e.queued(e.now() - exec_->now());
  e.begin_work();
  add_energy(work(), e.advance(t_issuer_issue_));
  e.end_work();
  return e.now();
}

tlm::tlm_sync_enum Controller::flash_bw(int /*channel*/, tlm::tlm_generic_payload& gp,
                                        tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_RESP) SC_REPORT_FATAL(kMsgId, "unexpected phase from a channel");
  ended(gp.get_extension<FlashCommandExt>()->tag, delay);
  phase = tlm::END_RESP;
  return tlm::TLM_COMPLETED;
}

void Controller::ended(uint32_t slot, const sc_core::sc_time& delay) {
  Op& op = ops_.at(slot);
  const FlashCommandExt* ext = op.ext;
  if (op.gp.get_response_status() != tlm::TLM_OK_RESPONSE)
    SC_REPORT_FATAL(kMsgId, "flash command failed");
  const sc_core::sc_time end = sim_now() + delay;
  add_energy(op.work, ext->energy_j);
  if (namespace_flash_.on()) namespace_flash_.ended(slot, *ext);
  op.gc_wait = ext->gc_wait;
  op.refresh_wait = ext->refresh_wait;
  if (op.room_floor > op.data_floor) op.gc_wait += op.room_floor - op.data_floor;
  op.started = ext->started;
  op.power_wait = ext->power_wait;
  op.retry_time = ext->retry_time;
  op.ecc_time = ext->ecc_time;
  op.uncorrectable = ext->uncorrectable;
  finish(op, slot, end);
}

void Controller::finish(Op& op, uint32_t slot, const sc_core::sc_time& end) {
  const fw::OpId id = ops_.id_of(slot);
  horizon_ = std::max(horizon_, end);
  // What waits for this command: programs (for a read bringing their data, an erase freeing
  // their room) may start at its end, once nothing else holds them; reads from the buffer
  // end with it.
  // (A read from the buffer finished below waits for nothing itself: op.waiters stays put.)
  for (uint32_t w : op.waiters) {
    Op& program = ops_.at(w);
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
  ops_.ended(slot);
  if (command >= 0) {
    controller::HostCommand& c = host_commands_.at(uint32_t(command));
    c.flash_ended(end, op.gc_wait, op.refresh_wait, op.uncorrectable, [&op] { return op.path(); });
    if (op.more_commands.empty()) {
      if (--c.pending == 0) respond(uint32_t(command));
    } else {
      // Each answered with what it needs of the command before any response goes out (which
      // may let the slot be taken again).
      std::vector<int32_t> more;
      more.swap(op.more_commands);
      for (const int32_t waiting : more)
        host_commands_.at(uint32_t(waiting))
            .flash_ended(end, op.gc_wait, op.refresh_wait, op.uncorrectable,
                         [&op] { return op.path(); });
      if (--c.pending == 0) respond(uint32_t(command));
      for (const int32_t waiting : more)
        if (--host_commands_.at(uint32_t(waiting)).pending == 0) respond(uint32_t(waiting));
    }
  }
  if (waiting_for_ == id) op_ended_.notify(end - sim_now());
  if (power_loss_.armed()) {
    power_loss_.ended(id, end);
    if (lost_) flash_ended_.notify(sc_core::SC_ZERO_TIME);
  }
  check_idle();
}

fw::OpId Controller::read_from_buffer(uint32_t program, uint32_t unit, fw::PageToken& out) {
  ++counters_.buffer_reads;
  const FlashCommandExt& page = *ops_.at(program).ext;
  out = page.units == 1 ? page.data : page.unit_data[unit];
  const fw::OpId source_id = ops_.at(program).data_from;
  const sc_core::sc_time floor = ops_.at(program).data_floor;
  uint32_t slot;
  Op& op = new_op(slot);
  op.buffer = true;
  op.throttle = sc_core::SC_ZERO_TIME;
  op.issued = exec_->now();
  op.core = exec_->waits_now();
  op.power_wait = op.retry_time = op.ecc_time = sc_core::SC_ZERO_TIME;
  op.uncorrectable = false;
  op.data_floor = std::max(floor, exec_->now());
  op.room_floor = sc_core::SC_ZERO_TIME;
  op.data_from = source_id;
  op.after = fw::kNoOp;
  op.sources = 0;
  op.gc_wait = op.refresh_wait = sc_core::SC_ZERO_TIME;
  op.from_gc = false;
  const fw::OpId id = ops_.id_of(slot);
  Op* source = ops_.live(source_id);
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
    // Behind the commands posted to the issue engine (the read among them), if there is one.
    const sc_core::sc_time at = issuer_ ? std::max(exec_->now(), issuer_->now()) : exec_->now();
    sc_core::sc_time delay = at - sim_now();
    flash_socket[source->ext->ppa.die % channels_]->nb_transport_fw(source->gp, promote, delay);
  }
  return id;
}

bool Controller::ended_by_now(fw::OpId id) {
  const Op* op = ops_.live(id);
  return !op || (op->ended && op->end <= exec_->now());
}

void Controller::wait_for(fw::OpId id) {
  const Op* op = functional_ ? nullptr : ops_.live(id);
  if (!op || (op->ended && op->end <= exec_->now())) return;
  // The core is blocked until the command ends: it idles while it waits (so a stalled core
  // does not pass for a busy one).
  exec_->end_work();
  const sc_core::sc_time from = exec_->now();
  wait_for_end(*op, id, nullptr);
  exec_->blocked(from, background());
  exec_->begin_work();
}

void Controller::wait_for_end(const Op& op, fw::OpId id, const sc_core::sc_event* interrupt) {
  // The read engine's work runs through (the Hal's state is the engine's meanwhile); a read
  // that needs to wait is firmware work, which the config rules keep off the engine.
  if (hardware_) SC_REPORT_FATAL(kMsgId, "the read engine waited for a flash command");
  if (op.ended) {
    const sc_core::sc_time left = op.end - sim_now();
    interrupt ? sc_core::wait(left, *interrupt) : sc_core::wait(left);
  } else {
    waiting_for_ = id;  // op_ended_ is notified at the command's end
    interrupt ? sc_core::wait(op_ended_ | *interrupt) : sc_core::wait(op_ended_);
    waiting_for_ = fw::kNoOp;
    // Woken by the interrupt, the command's end may still be notified for later: it would
    // wake the next wait, for another command, before that one's end.
    op_ended_.cancel();
  }
  exec_->reach(sim_now());
}

fw::OpId Controller::flash_read(const fw::Ppa& ppa, fw::PageToken& out, uint32_t unit) {
  if (buffer_reads_.on() && !functional_) {
    const fw::OpId id = buffer_reads_.program_of(ppa);
    const Op* program = ops_.live(id);
    if (program && (!program->ended || program->end > exec_->now()))
      return read_from_buffer(controller::OpTable::slot_of(id), unit, out);
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
  namespace_flash_.programmed(&data, 1);
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
  namespace_flash_.programmed(data, units);
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
  flash_cmd_.slc = slc(die, block);
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
