#include "model/host/HostInterface.h"

#include <algorithm>
#include <string>
#include <utility>

#include "common/SimNow.h"

namespace ssd::model {
namespace {
constexpr const char* kMsgId = "/ssdtlm/host_interface";

host::Arbiter arbiter_for(const config::HostConfig& cfg) {
  std::vector<host::QueuePriority> priorities;
  for (const config::HostQueueConfig& q : config::submission_queues(cfg))
    priorities.push_back(q.priority);
  return host::Arbiter(cfg.arbitration, std::move(priorities), cfg.arbitration_burst,
                       {cfg.wrr_weights.high, cfg.wrr_weights.medium, cfg.wrr_weights.low});
}

sc_core::sc_time ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }

// A Report Zones answer's data structure: its header and the descriptors it lists.
uint64_t report_bytes(const HostCommandExt& e) {
  return fw::zns::kZoneReportEntryBytes * (1 + e.zones.size());
}
}  // namespace

HostInterface::HostInterface(sc_core::sc_module_name name, const config::HostConfig& cfg,
                             uint32_t page_bytes,
                             const std::vector<config::NamespaceRange>& namespaces,
                             EnergyMonitor& monitor)
    : sc_module(name),
      host_socket("host_socket"),
      ctrl_socket("ctrl_socket"),
      queue_depth_(cfg.queue_depth),
      page_bytes_(page_bytes),
      namespaces_(namespaces),
      transfer_time_(cfg.link_mb_per_s),
      full_duplex_(cfg.full_duplex),
      arbiter_(arbiter_for(cfg)),
      t_fetch_(ns(cfg.t_sq_fetch_ns)),
      fetch_gap_(ns(cfg.sq_fetch_gap_ns)),
      t_complete_(ns(cfg.t_cq_post_ns + cfg.t_interrupt_ns)),
      instant_fetch_(cfg.t_sq_fetch_ns == 0 && cfg.sq_fetch_gap_ns == 0 &&
                     config::submission_queues(cfg).size() == 1) {
  for (const config::HostQueueConfig& q : config::submission_queues(cfg))
    sq_depth_.push_back(q.depth);
  sq_outstanding_.assign(sq_depth_.size(), 0);
  sq_waiting_.assign(sq_depth_.size(), 0);
  sq_.resize(sq_depth_.size());
  for (std::size_t q = 0; q < sq_.size(); ++q) sq_[q].slots.resize(sq_depth_[q]);
  queue_usage_.resize(sq_depth_.size());
  std::vector<StateCurrent> states{{PowerState::Idle, cfg.i_idle_ma},
                                   {PowerState::Transfer, cfg.i_transfer_ma}};
  // A link state's power is the link's: shared equally by the directions' components.
  const double lanes = full_duplex_ ? 2.0 : 1.0;
  for (std::size_t k = 0; k < cfg.link_states.size(); ++k) {
    const config::LinkStateConfig& l = cfg.link_states[k];
    const auto state = PowerState(std::size_t(PowerState::Low1) + k);
    states.push_back({state, l.p_mw / cfg.voltage_v / lanes});
    link_states_.push_back(LinkState{state, sc_core::sc_time(l.idle_us, sc_core::SC_US),
                                     sc_core::sc_time(l.t_entry_us, sc_core::SC_US),
                                     sc_core::sc_time(l.t_exit_us, sc_core::SC_US)});
  }
  link_power_.entries.assign(link_states_.size(), 0);
  link_power_.wakes.assign(link_states_.size(), 0);
  if (full_duplex_) {
    psm_[kToDevice] = std::make_unique<PowerStateMachine>(
        monitor, "host_if.to_device", "host_interface", cfg.voltage_v, states, PowerState::Idle);
    psm_[kToHost] = std::make_unique<PowerStateMachine>(
        monitor, "host_if.to_host", "host_interface", cfg.voltage_v, states, PowerState::Idle);
  } else {
    psm_[kToDevice] = std::make_unique<PowerStateMachine>(monitor, "host_if", "host_interface",
                                                          cfg.voltage_v, states, PowerState::Idle);
  }
  host_socket.register_nb_transport_fw(this, &HostInterface::host_fw);
  ctrl_socket.register_nb_transport_bw(this, &HostInterface::ctrl_bw);
  SC_METHOD(on_controller_done);
  sensitive << done_.get_event();
  dont_initialize();
  SC_METHOD(on_data_delivered);
  sensitive << delivered_.get_event();
  dont_initialize();
  SC_METHOD(fetch);
  sensitive << fetch_event_;
  dont_initialize();
  SC_METHOD(on_fetched);
  sensitive << fetched_.get_event();
  dont_initialize();
  SC_METHOD(on_posted);
  sensitive << posted_.get_event();
  dont_initialize();
  if (!link_states_.empty()) {
    SC_METHOD(link_power_timer);
    sensitive << link_timer_;
    dont_initialize();
    link_timer_.notify(link_states_.front().idle);  // idle from time 0
  }
}

std::vector<std::string> HostInterface::power_names() const {
  if (full_duplex_) return {"host_if.to_device", "host_if.to_host"};
  return {"host_if"};
}

void HostInterface::enter_all(PowerState s, const sc_core::sc_time& t) {
  for (auto& psm : psm_)
    if (psm) psm->enter(s, t);
}

void HostInterface::link_power_timer() {
  if (outstanding_ != 0 || link_level_ == link_states_.size()) return;
  const LinkState& next = link_states_[link_level_];
  link_reached_ = sim_now() + next.entry;
  enter_all(next.state, link_reached_);
  ++link_power_.entries[link_level_];
  ++link_level_;
  if (link_level_ < link_states_.size())
    link_timer_.notify(link_reached_ + link_states_[link_level_].idle - sim_now());
}

void HostInterface::wake_link() {
  if (link_states_.empty()) return;
  link_timer_.cancel();
  if (link_level_ == 0) return;
  const LinkState& from = link_states_[link_level_ - 1];
  const sc_core::sc_time now = sim_now();
  // A link on its way into the state gets there first.
  const sc_core::sc_time wake = std::max(now, link_reached_);
  enter_all(PowerState::Idle, wake);
  link_ready_ = wake + from.exit;
  link_power_.wake_wait += link_ready_ - now;
  ++link_power_.wakes[link_level_ - 1];
  link_level_ = 0;
}

sc_core::sc_time HostInterface::move(Direction dir, uint64_t bytes, const sc_core::sc_time& from) {
  const std::size_t lane = full_duplex_ ? dir : kToDevice;
  const sc_core::sc_time ready = std::max(from, link_ready_);
  const sc_core::sc_time start = std::max(ready, link_free_[lane]);
  link_wait_ += start - ready;
  link_free_[lane] = start + transfer_time_(bytes);
  psm_[lane]->occupy(PowerState::Transfer, start, link_free_[lane]);
  return link_free_[lane];
}

tlm::tlm_sync_enum HostInterface::host_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                          sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ || delay != sc_core::SC_ZERO_TIME)
    SC_REPORT_FATAL(kMsgId, "the host must send BEGIN_REQ with zero delay");
  if (waiting_) SC_REPORT_FATAL(kMsgId, "BEGIN_REQ before END_REQ of the previous request");
  auto* ext = gp.get_extension<HostCommandExt>();
  const uint16_t q = ext->queue;
  if (q >= sq_.size())
    SC_REPORT_FATAL(kMsgId, ("a command for submission queue " + std::to_string(q) +
                             "; the drive has " + std::to_string(sq_.size()) + " (host.queues)")
                                .c_str());
  place_in_namespace(ext->ns, ext->cmd);
  if (sq_outstanding_[q] == sq_depth_[q]) {
    waiting_ = &gp;  // END_REQ goes back when one of its queue's commands completes
    return tlm::TLM_ACCEPTED;
  }
  submit(gp, *ext);
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void HostInterface::place_in_namespace(uint32_t ns, fw::HostCommand& cmd) const {
  if (ns >= namespaces_.size())
    SC_REPORT_FATAL(kMsgId, ("a command for namespace " + std::to_string(ns) + "; the drive has " +
                             std::to_string(namespaces_.size()) + " (namespaces)")
                                .c_str());
  if (cmd.op == fw::CommandOp::Flush) return;  // of the whole drive: no range
  const config::NamespaceRange& n = namespaces_[ns];
  if (cmd.offset_bytes > n.size_bytes || cmd.length_bytes > n.size_bytes - cmd.offset_bytes)
    SC_REPORT_FATAL(
        kMsgId, ("a command for bytes [" + std::to_string(cmd.offset_bytes) + ", " +
                 std::to_string(cmd.offset_bytes + cmd.length_bytes) + ") of namespace " + n.name +
                 ", which holds " + std::to_string(n.size_bytes))
                    .c_str());
  cmd.offset_bytes += n.first_byte;
}

void HostInterface::submit(tlm::tlm_generic_payload& gp, HostCommandExt& ext) {
  if (outstanding_++ == 0) wake_link();
  ++sq_outstanding_[ext.queue];
  if (instant_fetch_ && waiting_total_ == 0 && in_drive_ < queue_depth_) {
    // One queue, nothing ahead of it, room in the drive, fetches cost nothing: fetched now,
    // as fetch() would (the fast path of SATA drives and zero-cost NVMe configs).
    ++in_drive_;
    ++queue_usage_[ext.queue].fetched;
    accept(gp, ext, sim_now());
    return;
  }
  Ring& r = sq_[ext.queue];
  const uint32_t depth = sq_depth_[ext.queue];
  const uint32_t tail = r.head + sq_waiting_[ext.queue]++;
  r.slots[tail >= depth ? tail - depth : tail] = Submitted{&gp, &ext, sim_now()};
  ++waiting_total_;
  fetch();
}

void HostInterface::fetch() {
  if (waiting_total_ == 0) return;
  const sc_core::sc_time now = sim_now();
  while (in_drive_ < queue_depth_ && waiting_total_ != 0) {
    if (fetch_free_ > now) {
      fetch_event_.notify(fetch_free_ - now);
      return;
    }
    const int q = arbiter_.next(sq_waiting_);
    --waiting_total_;
    Ring& r = sq_[std::size_t(q)];
    const Submitted c = r.slots[r.head];
    if (++r.head == sq_depth_[std::size_t(q)]) r.head = 0;
    --sq_waiting_[std::size_t(q)];
    ++in_drive_;
    fetch_free_ = now + fetch_gap_;
    const sc_core::sc_time wait = now - c.at;
    QueueUsage& u = queue_usage_[std::size_t(q)];
    ++u.fetched;
    u.wait += wait;
    if (wait > u.max_wait) u.max_wait = wait;
    // With a full-duplex link nothing else books the to-device direction, so a command is
    // accepted at once for its fetch's end (no kernel event); half duplex shares the link with
    // read data booked meanwhile, so the command waits for the fetch.
    if (t_fetch_ == sc_core::SC_ZERO_TIME || full_duplex_)
      accept(*c.gp, *c.ext, now + t_fetch_);
    else
      fetched_.notify(*c.gp, t_fetch_);
  }
}

void HostInterface::on_fetched() {
  while (tlm::tlm_generic_payload* gp = fetched_.get_next_transaction())
    accept(*gp, *gp->get_extension<HostCommandExt>(), sim_now());
}

void HostInterface::accept(tlm::tlm_generic_payload& gp, HostCommandExt& e,
                           const sc_core::sc_time& fetched) {
  HostCommandExt* ext = &e;
  sc_core::sc_time arrives = std::max(fetched, link_ready_);
  if (ext->cmd.op == fw::CommandOp::Write || ext->cmd.op == fw::CommandOp::Append) {
    const uint64_t bytes = ext->cmd.length_bytes;
    ext->data_end = move(kToDevice, bytes, fetched);
    ext->data_start = ext->data_end - transfer_time_(bytes);
    // The command goes on once its first page (up to a page boundary) is in the buffer.
    const uint64_t first =
        std::min<uint64_t>(bytes, page_bytes_ - ext->cmd.offset_bytes % page_bytes_);
    arrives = first == bytes ? ext->data_end
                             : ext->data_start + (ext->data_end - ext->data_start) *
                                                     (double(first) / double(bytes));
  }
  // Keep the host's order among overlapping commands (see the header).
  const sc_core::sc_time now = sim_now();
  // A flush, and a placement update (the writes before it fill the handle's old reclaim unit),
  // wait for every command before them.
  const bool all =
      ext->cmd.op == fw::CommandOp::Flush || ext->cmd.op == fw::CommandOp::PlacementUpdate;
  const uint64_t first = ext->cmd.offset_bytes, end = first + ext->cmd.length_bytes;
  // A command arriving after every one still on its way (a write queued behind the link's
  // earlier transfers, the usual case) need not look: none can hold it back.
  if (arrives < last_arrival_ || in_transit_.size() >= prune_at_) {
    std::size_t kept = 0;
    for (const InTransit& t : in_transit_) {
      if (t.arrives < now) continue;  // delivered: forget it
      if (all || (t.first < end && first < t.end)) arrives = std::max(arrives, t.arrives);
      in_transit_[kept++] = t;
    }
    in_transit_.resize(kept);
    prune_at_ = std::max<std::size_t>(kPruneAt, 2 * kept);
  }
  last_arrival_ = std::max(last_arrival_, arrives);
  in_transit_.push_back(InTransit{first, end, arrives});
  ext->breakdown.fetched = fetched;
  ext->breakdown.at_controller = arrives;
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
      delivered_.notify(*gp, move(kToHost, ext->cmd.length_bytes, sim_now()) - sim_now());
    else if (ext->cmd.op == fw::CommandOp::ZoneReport && ext->ok)
      delivered_.notify(*gp, move(kToHost, report_bytes(*ext), sim_now()) - sim_now());
    else
      respond(*gp);
  }
}

void HostInterface::on_data_delivered() {
  while (tlm::tlm_generic_payload* gp = delivered_.get_next_transaction()) respond(*gp);
}

void HostInterface::respond(tlm::tlm_generic_payload& gp) {
  --in_drive_;
  if (t_complete_ == sc_core::SC_ZERO_TIME)
    deliver(gp);
  else
    posted_.notify(gp, t_complete_);
  fetch();
}

void HostInterface::on_posted() {
  while (tlm::tlm_generic_payload* gp = posted_.get_next_transaction()) deliver(*gp);
}

void HostInterface::deliver(tlm::tlm_generic_payload& gp) {
  --outstanding_;
  --sq_outstanding_[gp.get_extension<HostCommandExt>()->queue];
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  host_socket->nb_transport_bw(gp, phase, delay);
  if (waiting_) {
    auto* ext = waiting_->get_extension<HostCommandExt>();
    if (sq_outstanding_[ext->queue] < sq_depth_[ext->queue]) {
      tlm::tlm_generic_payload* next = waiting_;
      waiting_ = nullptr;
      submit(*next, *ext);
      phase = tlm::END_REQ;
      host_socket->nb_transport_bw(*next, phase, delay);
    }
  }
  // The link idles from here (a command the host sends at once cancels the timer).
  if (outstanding_ == 0 && !link_states_.empty()) {
    link_reached_ = sim_now();
    link_timer_.notify(link_states_.front().idle);
  }
}

}  // namespace ssd::model
