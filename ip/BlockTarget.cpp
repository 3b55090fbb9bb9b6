#include "ip/BlockTarget.h"

#include <algorithm>
#include <string>

#include "common/SimNow.h"
#include "ssdtlm/BlockCommand.h"
#include "ssdtlm/Messages.h"
#include "ssdtlm/WritePlacement.h"

namespace ssd::ip {

BlockTarget::BlockTarget(sc_core::sc_module_name name,
                         std::vector<config::NamespaceRange> namespaces, uint64_t page_bytes,
                         BackingStore* store, bool placement)
    : sc_module(name),
      socket("socket"),
      drive_socket("drive_socket"),
      namespaces_(std::move(namespaces)),
      capacity_(namespaces_.back().first_byte + namespaces_.back().size_bytes),
      page_bytes_(page_bytes),
      store_(store),
      placement_(placement),
      scoreboard_(store ? std::make_unique<Scoreboard>(capacity_ / page_bytes + 1) : nullptr),
      requests_("requests") {
  socket.register_b_transport(this, &BlockTarget::b_transport);
  socket.register_nb_transport_fw(this, &BlockTarget::nb_transport_fw);
  socket.register_transport_dbg(this, &BlockTarget::transport_dbg);
  drive_socket.register_nb_transport_bw(this, &BlockTarget::drive_bw);
  SC_METHOD(on_request);
  sensitive << requests_.get_event();
  dont_initialize();
  SC_METHOD(submit);
  sensitive << submit_event_;
  dont_initialize();
  SC_METHOD(send_responses);
  sensitive << respond_event_;
  dont_initialize();
}

tlm::tlm_response_status BlockTarget::classify(const tlm::tlm_generic_payload& gp,
                                               fw::CommandOp& op) const {
  switch (gp.get_command()) {
    case tlm::TLM_READ_COMMAND:
      op = fw::CommandOp::Read;
      break;
    case tlm::TLM_WRITE_COMMAND:
      op = fw::CommandOp::Write;
      break;
    case tlm::TLM_IGNORE_COMMAND: {
      const auto* bc = gp.get_extension<ssdtlm::BlockCommand>();
      if (!bc) return tlm::TLM_OK_RESPONSE;  // the base protocol's no-op
      if (bc->op == ssdtlm::BlockCommand::Op::Flush) {
        op = fw::CommandOp::Flush;
        return tlm::TLM_INCOMPLETE_RESPONSE;
      }
      if (bc->op == ssdtlm::BlockCommand::Op::PlacementUpdate) {
        op = fw::CommandOp::PlacementUpdate;
        if (gp.get_address() >= capacity_) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
        const config::NamespaceRange& n = namespaces_[namespace_of(gp.get_address())];
        return placement_ && n.kind == config::NamespaceKind::Conventional
                   ? tlm::TLM_INCOMPLETE_RESPONSE
                   : tlm::TLM_COMMAND_ERROR_RESPONSE;
      }
      if (bc->op != ssdtlm::BlockCommand::Op::Trim) return tlm::TLM_COMMAND_ERROR_RESPONSE;
      op = fw::CommandOp::Trim;
      break;
    }
    default:
      return tlm::TLM_COMMAND_ERROR_RESPONSE;
  }
  const uint64_t address = gp.get_address(), length = gp.get_data_length();
  if (address > capacity_ || length > capacity_ - address) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  const config::NamespaceRange& n = namespaces_[namespace_of(address)];
  if (length > n.first_byte + n.size_bytes - address) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  if (op == fw::CommandOp::Trim)
    return length == 0 ? tlm::TLM_OK_RESPONSE : tlm::TLM_INCOMPLETE_RESPONSE;
  // A placement directive the drive (or the namespace) does not take.
  if (gp.get_extension<ssdtlm::WritePlacement>() && op == fw::CommandOp::Write &&
      (!placement_ || n.kind != config::NamespaceKind::Conventional))
    return tlm::TLM_COMMAND_ERROR_RESPONSE;
  if (gp.get_byte_enable_ptr()) return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  if (gp.get_streaming_width() < length) return tlm::TLM_BURST_ERROR_RESPONSE;
  if (length == 0) return tlm::TLM_OK_RESPONSE;
  if (!gp.get_data_ptr()) return tlm::TLM_GENERIC_ERROR_RESPONSE;
  return tlm::TLM_INCOMPLETE_RESPONSE;
}

void BlockTarget::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  fw::CommandOp op{};
  const tlm::tlm_response_status status = classify(gp, op);
  if (status != tlm::TLM_INCOMPLETE_RESPONSE) {
    gp.set_response_status(status);
    refused_ += status != tlm::TLM_OK_RESPONSE;
    return;
  }
  // The initiator's local time is ahead of the kernel's: the command starts there.
  sc_core::wait(delay);
  delay = sc_core::SC_ZERO_TIME;
  sc_core::sc_event done;
  start(gp, op, &done);
  sc_core::wait(done);
}

tlm::tlm_sync_enum BlockTarget::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                sc_core::sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    if (open_request_) {
      gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
      report_protocol(gp, "BEGIN_REQ before END_REQ of the previous request");
      return tlm::TLM_COMPLETED;
    }
    fw::CommandOp op{};
    const tlm::tlm_response_status status = classify(gp, op);
    if (status != tlm::TLM_INCOMPLETE_RESPONSE) {
      gp.set_response_status(status);
      refused_ += status != tlm::TLM_OK_RESPONSE;
      return tlm::TLM_COMPLETED;
    }
    open_request_ = &gp;
    requests_.notify(gp, delay);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::END_RESP) {
    if (!open_response_ || open_response_->platform != &gp) {
      report_protocol(gp, "END_RESP for a transaction without an open response");
      return tlm::TLM_COMPLETED;
    }
    release(*open_response_);
    open_response_ = nullptr;
    respond_after_ = sim_now() + delay;
    respond_event_.notify(delay);
    return tlm::TLM_COMPLETED;
  }
  report_protocol(gp, "a phase only a target sends (END_REQ, BEGIN_RESP) or an unknown one");
  return tlm::TLM_COMPLETED;
}

unsigned BlockTarget::transport_dbg(tlm::tlm_generic_payload& gp) {
  fw::CommandOp op{};
  if (!store_ || gp.get_command() == tlm::TLM_IGNORE_COMMAND ||
      classify(gp, op) != tlm::TLM_INCOMPLETE_RESPONSE) {
    return 0;
  }
  auto* data = gp.get_data_ptr();
  if (op == fw::CommandOp::Read)
    store_->read(gp.get_address(), data, gp.get_data_length());
  else
    store_->write(gp.get_address(), data, gp.get_data_length());
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return gp.get_data_length();
}

void BlockTarget::report_protocol(const tlm::tlm_generic_payload& gp, const char* what) {
  SC_REPORT_ERROR(ssdtlm::msg::kProtocol, (std::string(name()) + ": " + what + " (address " +
                                           std::to_string(gp.get_address()) + ")")
                                              .c_str());
}

BlockTarget::Command& BlockTarget::acquire() {
  if (free_.empty()) {
    commands_.push_back(std::make_unique<Command>());
    Command& c = *commands_.back();
    c.ext = new model::HostCommandExt;
    c.set_extension(c.ext);  // the payload owns it
    free_.push_back(&c);
  }
  Command* c = free_.back();
  free_.pop_back();
  return *c;
}

uint32_t BlockTarget::namespace_of(uint64_t address) const {
  const auto after = std::upper_bound(
      namespaces_.begin(), namespaces_.end(), address,
      [](uint64_t a, const config::NamespaceRange& n) { return a < n.first_byte; });
  return uint32_t(after - namespaces_.begin()) - 1;
}

void BlockTarget::release(Command& c) {
  c.platform = nullptr;
  c.done = nullptr;
  free_.push_back(&c);
}

void BlockTarget::start(tlm::tlm_generic_payload& gp, fw::CommandOp op, sc_core::sc_event* done) {
  Command& c = acquire();
  c.platform = &gp;
  c.done = done;
  c.started = sim_now();
  const bool flush = op == fw::CommandOp::Flush;
  fw::HostCommand& cmd = c.ext->cmd;
  cmd = fw::HostCommand{};
  cmd.op = op;
  cmd.offset_bytes = flush ? 0 : gp.get_address();
  cmd.length_bytes = flush || op == fw::CommandOp::PlacementUpdate ? 0 : gp.get_data_length();
  if (op == fw::CommandOp::Write) cmd.version = next_version_++;
  if (op == fw::CommandOp::Write || op == fw::CommandOp::PlacementUpdate)
    if (const auto* p = gp.get_extension<ssdtlm::WritePlacement>()) cmd.placement = p->identifier;
  c.set_command(gp.get_command());
  c.set_address(cmd.offset_bytes);
  c.set_data_length(static_cast<unsigned>(cmd.length_bytes));
  c.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  if (store_) {
    if (op == fw::CommandOp::Write)
      store_->write(cmd.offset_bytes, gp.get_data_ptr(), cmd.length_bytes);
    else if (op == fw::CommandOp::Read)
      store_->read(cmd.offset_bytes, gp.get_data_ptr(), cmd.length_bytes);
    else if (op == fw::CommandOp::Trim)
      store_->discard(cmd.offset_bytes, cmd.length_bytes);
  }
  c.watches.clear();
  if (scoreboard_) scoreboard_->command_issued(cmd, page_bytes_, c.watches);
  // The drive takes it in its namespace (and answers in its logical capacity, as here).
  if (!flush) {
    c.ext->ns = namespace_of(cmd.offset_bytes);
    cmd.offset_bytes -= namespaces_[c.ext->ns].first_byte;
  }
  pending_.push_back(&c);
  submit();
}

void BlockTarget::on_request() {
  while (tlm::tlm_generic_payload* gp = requests_.get_next_transaction()) {
    fw::CommandOp op{};
    classify(*gp, op);  // admitted at BEGIN_REQ
    start(*gp, op, nullptr);
  }
}

void BlockTarget::submit() {
  while (!held_ && !pending_.empty()) {
    Command& c = *pending_.front();
    pending_.pop_front();
    c.sent = sim_now();
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    if (drive_socket->nb_transport_fw(c, phase, delay) == tlm::TLM_UPDATED && phase == tlm::END_REQ)
      accepted(c);
    else
      held_ = &c;  // its queue is full: END_REQ comes when one of it completes
  }
}

void BlockTarget::accepted(Command& c) {
  if (c.done) return;  // b_transport has no END_REQ
  open_request_ = nullptr;
  tlm::tlm_phase phase = tlm::END_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->nb_transport_bw(*c.platform, phase, delay);
}

tlm::tlm_sync_enum BlockTarget::drive_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                         sc_core::sc_time&) {
  auto& c = static_cast<Command&>(gp);
  if (phase == tlm::END_REQ) {
    held_ = nullptr;
    accepted(c);
    // Not from inside the drive's call: it is still completing another command.
    submit_event_.notify(sc_core::SC_ZERO_TIME);
    return tlm::TLM_ACCEPTED;
  }
  // Aging NAND (flash.reliability): a read no retry step corrected fails.
  c.platform->set_response_status(c.ext->ok ? tlm::TLM_OK_RESPONSE
                                            : tlm::TLM_GENERIC_ERROR_RESPONSE);
  count(c);
  if (c.done) {
    c.done->notify();
    release(c);
  } else {
    responses_.push_back(&c);
    send_responses();
  }
  return tlm::TLM_COMPLETED;
}

void BlockTarget::count(Command& c) {
  const sc_core::sc_time now = sim_now();
  model::LatencyBreakdown& b = c.ext->breakdown;
  b.close(c.started, c.sent, now);
  stats_.record(*c.ext, c.started, now);
  if (!scoreboard_) return;
  const uint64_t before = scoreboard_->mismatches();
  scoreboard_->command_completed(c.ext->cmd, c.watches, c.ext->read_data, !c.ext->ok);
  const uint64_t n = scoreboard_->mismatches();
  if (n == before) return;
  // The scoreboard keeps the first few messages.
  const std::string what =
      scoreboard_->messages().size() == n ? scoreboard_->messages().back() : "data mismatch";
  SC_REPORT_ERROR(
      ssdtlm::msg::kData,
      (std::string(name()) + ": " + what + " (" + std::to_string(n) + " so far)").c_str());
}

void BlockTarget::send_responses() {
  while (!open_response_ && !responses_.empty()) {
    const sc_core::sc_time now = sim_now();
    if (respond_after_ > now) {
      respond_event_.notify(respond_after_ - now);
      return;
    }
    Command& c = *responses_.front();
    responses_.pop_front();
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    const tlm::tlm_sync_enum s = socket->nb_transport_bw(*c.platform, phase, delay);
    if (s == tlm::TLM_ACCEPTED) {
      open_response_ = &c;  // END_RESP comes on the forward path
      return;
    }
    if (s == tlm::TLM_UPDATED && phase != tlm::END_RESP)
      report_protocol(*c.platform, "BEGIN_RESP answered with a phase other than END_RESP");
    respond_after_ = now + delay;
    release(c);
  }
}

}  // namespace ssd::ip
