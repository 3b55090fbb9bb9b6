#include "model/HostInterface.h"

#include <algorithm>

#include "common/SimNow.h"

namespace ssd::model {
namespace {
constexpr const char* kMsgId = "/ssdtlm/host_interface";
}

HostInterface::HostInterface(sc_core::sc_module_name name, const config::HostConfig& cfg,
                             uint32_t page_bytes,
                             EnergyMonitor& monitor)
    : sc_module(name),
      host_socket("host_socket"),
      ctrl_socket("ctrl_socket"),
      queue_depth_(cfg.queue_depth),
      page_bytes_(page_bytes),
      link_mb_per_s_(cfg.link_mb_per_s),
      full_duplex_(cfg.full_duplex),
      done_("done"),
      delivered_("delivered") {
  const std::vector<StateCurrent> states{{PowerState::Idle, cfg.i_idle_ma},
                                         {PowerState::Transfer, cfg.i_transfer_ma}};
  if (full_duplex_) {
    psm_[kToDevice] = std::make_unique<PowerStateMachine>(monitor, "host_if.to_device",
                                                          "host_interface", cfg.voltage_v,
                                                          states, PowerState::Idle);
    psm_[kToHost] = std::make_unique<PowerStateMachine>(monitor, "host_if.to_host",
                                                        "host_interface", cfg.voltage_v, states,
                                                        PowerState::Idle);
  } else {
    psm_[kToDevice] = std::make_unique<PowerStateMachine>(monitor, "host_if", "host_interface",
                                                          cfg.voltage_v, states,
                                                          PowerState::Idle);
  }
  host_socket.register_nb_transport_fw(this, &HostInterface::host_fw);
  ctrl_socket.register_nb_transport_bw(this, &HostInterface::ctrl_bw);
  SC_METHOD(on_controller_done);
  sensitive << done_.get_event();
  dont_initialize();
  SC_METHOD(on_data_delivered);
  sensitive << delivered_.get_event();
  dont_initialize();
}

sc_core::sc_time HostInterface::move(Direction dir, uint64_t bytes) {
  const std::size_t lane = full_duplex_ ? dir : kToDevice;
  const sc_core::sc_time start = std::max(sim_now(), link_free_[lane]);
  link_wait_ += start - sim_now();
  // bytes / (MB/s) is microseconds.
  link_free_[lane] = start + sc_core::sc_time(double(bytes) / link_mb_per_s_, sc_core::SC_US);
  psm_[lane]->occupy(PowerState::Transfer, start, link_free_[lane]);
  return link_free_[lane];
}

tlm::tlm_sync_enum HostInterface::host_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                          sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ || delay != sc_core::SC_ZERO_TIME)
    SC_REPORT_FATAL(kMsgId, "the host must send BEGIN_REQ with zero delay");
  if (waiting_) SC_REPORT_FATAL(kMsgId, "BEGIN_REQ before END_REQ of the previous request");
  if (outstanding_ == queue_depth_) {
    waiting_ = &gp;  // END_REQ goes back when a slot frees
    return tlm::TLM_ACCEPTED;
  }
  accept(gp);
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void HostInterface::accept(tlm::tlm_generic_payload& gp) {
  ++outstanding_;
  auto* ext = gp.get_extension<HostCommandExt>();
  sc_core::sc_time arrives = sim_now();
  if (ext->cmd.op == fw::CommandOp::Write) {
    const uint64_t bytes = ext->cmd.length_bytes;
    ext->data_end = move(kToDevice, bytes);
    ext->data_start = ext->data_end - sc_core::sc_time(double(bytes) / link_mb_per_s_, sc_core::SC_US);
    // The command goes on once its first page (up to a page boundary) is in the buffer.
    const uint64_t first = std::min<uint64_t>(bytes, page_bytes_ - ext->cmd.offset_bytes % page_bytes_);
    arrives = first == bytes ? ext->data_end : ext->data_start + (ext->data_end - ext->data_start) *
                                                                     (double(first) / double(bytes));
  }
  // Keep the host's order among overlapping commands (see the header).
  const sc_core::sc_time now = sim_now();
  const bool all = ext->cmd.op == fw::CommandOp::Flush;
  const uint64_t first = ext->cmd.offset_bytes, end = first + ext->cmd.length_bytes;
  std::size_t kept = 0;
  for (const InTransit& t : in_transit_) {
    if (t.arrives < now) continue;  // delivered: forget it
    if (all || (t.first < end && first < t.end)) arrives = std::max(arrives, t.arrives);
    in_transit_[kept++] = t;
  }
  in_transit_.resize(kept);
  in_transit_.push_back(InTransit{first, end, arrives});
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = arrives - sim_now();
  ctrl_socket->nb_transport_fw(gp, phase, delay);
}

tlm::tlm_sync_enum HostInterface::ctrl_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                          sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_RESP) SC_REPORT_FATAL(kMsgId, "unexpected phase from the controller");
  done_.notify(gp, delay);
  return tlm::TLM_COMPLETED;
}

void HostInterface::on_controller_done() {
  while (tlm::tlm_generic_payload* gp = done_.get_next_transaction()) {
    auto* ext = gp->get_extension<HostCommandExt>();
    if (ext->cmd.op == fw::CommandOp::Read)
      delivered_.notify(*gp, move(kToHost, ext->cmd.length_bytes) - sim_now());
    else
      respond(*gp);
  }
}

void HostInterface::on_data_delivered() {
  while (tlm::tlm_generic_payload* gp = delivered_.get_next_transaction()) respond(*gp);
}

void HostInterface::respond(tlm::tlm_generic_payload& gp) {
  --outstanding_;
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  host_socket->nb_transport_bw(gp, phase, delay);
  if (waiting_) {
    tlm::tlm_generic_payload* next = waiting_;
    waiting_ = nullptr;
    accept(*next);
    phase = tlm::END_REQ;
    host_socket->nb_transport_bw(*next, phase, delay);
  }
}

}  // namespace ssd::model
