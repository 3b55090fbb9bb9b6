// sc_spawn: one process per flow.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "tb/host/Host.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "common/Errors.h"
#include "common/SimNow.h"

namespace ssd::tb {
namespace {

constexpr uint64_t kProgressEvery = 1 << 14;

fw::CommandOp to_command(IoOp op) {
  switch (op) {
    case IoOp::Read:
      return fw::CommandOp::Read;
    case IoOp::Write:
      return fw::CommandOp::Write;
    case IoOp::Trim:
      return fw::CommandOp::Trim;
    case IoOp::Append:
      return fw::CommandOp::Append;
    case IoOp::ZoneManage:
      return fw::CommandOp::ZoneManage;
    case IoOp::PlacementUpdate:
      return fw::CommandOp::PlacementUpdate;
    case IoOp::ZoneReport:
      return fw::CommandOp::ZoneReport;
    case IoOp::Flush:
      break;
  }
  return fw::CommandOp::Flush;
}

// A request's content fingerprint as the firmware's 64-bit content id (0: none).
uint64_t content_id(const HostRequest& r) {
  if (!r.has_fingerprint) return 0;
  uint64_t id = 0;
  for (std::size_t i = 0; i < r.fingerprint.size(); ++i)
    id ^= uint64_t(r.fingerprint[i]) << (8 * (i % 8));
  return id == 0 ? 1 : id;
}

}  // namespace

Host::Host(sc_core::sc_module_name name, RequestSource& source, std::vector<uint32_t> queue_depths,
           ip::Scoreboard& scoreboard, uint64_t page_bytes,
           std::vector<config::NamespaceRange> namespaces, bool progress)
    : sc_module(name),
      socket("socket"),
      source_(source),
      queue_depths_(std::move(queue_depths)),
      queue_outstanding_(queue_depths_.size(), 0),
      scoreboard_(scoreboard),
      page_bytes_(page_bytes),
      namespaces_(std::move(namespaces)),
      zones_(namespaces_, page_bytes, scoreboard),
      namespace_stats_(namespaces_.size() > 1 ? namespaces_.size() : 0),
      progress_(progress),
      last_progress_(std::chrono::steady_clock::now()) {
  socket.register_nb_transport_bw(this, &Host::nb_transport_bw);
  for (RequestSource* f : source_.flows()) {
    if (f->queue() >= queue_depths_.size())
      throw InputError(f->queue_origin() + ": queue " + std::to_string(f->queue()) +
                       ": the drive has " + std::to_string(queue_depths_.size()) +
                       (queue_depths_.size() == 1 ? " submission queue" : " submission queues") +
                       " (host.queues)");
    flows_.push_back(Flow{f, f->flow_name(), f->queue(), 0, HostStats{}});
  }
  for (std::size_t i = 0; i < flows_.size(); ++i)
    sc_core::sc_spawn([this, i] { run(i); }, ("flow" + std::to_string(i)).c_str());
  translated_.resize(namespaces_.size());
  for (std::size_t i = 0; i < namespaces_.size(); ++i) {
    if (!namespaces_[i].translation.enabled) continue;
    translated_[i] = std::make_unique<TranslatedNamespace>(namespaces_[i], uint32_t(i));
    TranslatedNamespace& t = *translated_[i];
    sc_core::sc_spawn([this, &t] { translate(t); }, ("translate" + std::to_string(i)).c_str());
  }
}

std::vector<FlowStats> Host::flow_results() const {
  std::vector<FlowStats> out;
  for (const Flow& f : flows_)
    out.push_back(FlowStats{f.name, f.queue, flows_.size() == 1 ? &stats_ : &f.stats});
  return out;
}

std::vector<FlowStats> Host::namespace_results() const {
  std::vector<FlowStats> out;
  for (std::size_t i = 0; i < namespaces_.size(); ++i)
    out.push_back(
        FlowStats{namespaces_[i].name, 0, namespace_stats_.empty() ? &stats_ : &namespace_stats_[i],
                  translated_[i] ? std::optional(translated_[i]->figures()) : std::nullopt});
  return out;
}

std::vector<std::string> Host::warnings() const {
  std::vector<std::string> out;
  for (const Flow& f : flows_) {
    const uint32_t qd = f.source->host_queue_depth(), depth = queue_depths_[f.queue];
    if (qd <= depth) continue;
    const std::string holds = std::to_string(depth);
    out.push_back((flows_.size() == 1 ? std::string("the workload") : "flow " + f.name) +
                  " keeps up to " + std::to_string(qd) +
                  " requests outstanding (qd), more than its submission queue" +
                  (queue_depths_.size() == 1 ? "" : " " + std::to_string(f.queue)) + " holds (" +
                  holds + ", host.queue_depth or host.queues): the drive never has more than " +
                  holds + " of them, and the figures are those of that depth");
  }
  return out;
}

void Host::run(std::size_t flow) {
  // Keep the source's error as it is (file:line: field: reason) instead of letting the
  // kernel wrap it; the runner rethrows it.
  try {
    play(flow);
  } catch (...) {
    if (!error_) error_ = std::current_exception();
    sc_core::sc_stop();
  }
}

void Host::play(std::size_t flow) {
  Flow& f = flows_[flow];
  RequestSource& source = *f.source;
  const uint32_t qd = source.host_queue_depth();
  const bool timed = source.timed();
  const bool shared = flows_.size() > 1;
  // One request read ahead: its scoreboard slots are fetched while the current one waits
  // for a free queue slot (on a large drive they are cache misses).
  HostRequest r, ahead;
  bool more = source.next(ahead);
  while (more) {
    r = ahead;
    more = source.next(ahead);
    if (more) prefetch(ahead);
    fit_to_namespace(r);
    TranslatedNamespace* t = r.op != IoOp::Flush ? translated_[r.ns].get() : nullptr;
    if (timed && r.arrival > sim_now()) {
      // A loss of the supply before the arrival ends the wait (and the flow).
      if (power_may_fail_)
        sc_core::wait(r.arrival - sim_now(), power_lost_);
      else
        sc_core::wait(r.arrival - sim_now());
    }
    // At a loss of the supply both events are notified.
    // A zone's management action and the zone's other commands wait for each other.
    // A translated namespace's request waits only for its flow's qd: its commands go as they may.
    while (!lost_ && ((qd != 0 && f.outstanding >= qd) ||
                      (!t && shared && queue_outstanding_[f.queue] >= queue_depths_[f.queue]) ||
                      (!t && zones_.zoned(r.ns) && !zones_.may_issue(r))))
      sc_core::wait(slot_freed_);
    while (!lost_ && !t && !may_send_) sc_core::wait(end_req_);
    if (lost_) return;  // the flow ends with the drive's supply
    if (t)
      submit(*t, r, timed ? r.arrival : sim_now(), flow);
    else
      issue(r, timed ? r.arrival : sim_now(), flow);
    if (timed) {
      ++stats_.timed_requests;
      stats_.last_arrival = r.arrival;
    }
  }
  while (!lost_ && f.outstanding != 0) sc_core::wait(slot_freed_);
  if (lost_) return;
  if (flows_done_ + 1 < flows_.size()) {
    ++flows_done_;
    return;
  }
  // The translation layers' collections run on after the last request: the run ends with them.
  const auto translating = [this] {
    return std::any_of(translated_.begin(), translated_.end(),
                       [](const auto& t) { return t && !t->idle(); });
  };
  while (!lost_ && translating()) sc_core::wait(slot_freed_);
  if (lost_) return;
  ++flows_done_;
  if (on_done_) on_done_();
  show_progress(true);
}

void Host::prefetch(const HostRequest& r) const {
  constexpr uint64_t kPages = 4;  // enough to cover the fetch; more would crowd the cache
  if (r.length_bytes == 0 || r.ns >= namespaces_.size() || translated_[r.ns]) return;
  const uint64_t offset = namespaces_[r.ns].first_byte + r.offset_bytes;
  const fw::Lpn first = offset / page_bytes_;
  for (fw::Lpn lpn = first; lpn < first + kPages && lpn * page_bytes_ < offset + r.length_bytes;
       ++lpn)
    scoreboard_.prefetch(lpn);
}

void Host::fit_to_namespace(HostRequest& r) {
  if (r.ns >= namespaces_.size())
    throw InputError("a request for namespace " + std::to_string(r.ns) + "; the drive has " +
                     std::to_string(namespaces_.size()) + " (namespaces)");
  if (r.op == IoOp::Flush) return;
  const uint64_t size = namespaces_[r.ns].host_bytes();
  if (translated_[r.ns] && (r.op == IoOp::Append || r.op == IoOp::ZoneManage ||
                            r.op == IoOp::PlacementUpdate || r.op == IoOp::ZoneReport))
    throw InputError(std::string("a ") + to_string(r.op) + " command for namespace " +
                     namespaces_[r.ns].name +
                     ", which the host's zone translation layer serves "
                     "(namespaces[].host_translation): it takes reads, writes, trims and flushes");
  if (r.op == IoOp::PlacementUpdate) {  // of the namespace: no range
    if (zones_.zoned(r.ns))
      throw InputError("a placement update for namespace " + namespaces_[r.ns].name +
                       ", which is zoned (placement handles are a conventional namespace's)");
    r.offset_bytes = 0;
    r.length_bytes = 0;
    return;
  }
  if (r.op == IoOp::ZoneManage || r.op == IoOp::ZoneReport) {
    if (r.select_all) r.offset_bytes = 0;
    if (r.offset_bytes < size) return;
    throw InputError(
        std::string(r.op == IoOp::ZoneReport ? "zone report" : "zone management action") +
        " at byte " + std::to_string(r.offset_bytes) + " of namespace " + namespaces_[r.ns].name +
        "'s " + std::to_string(size) + " bytes");
  }
  if (r.length_bytes == 0 || r.length_bytes > size)
    throw InputError("request of " + std::to_string(r.length_bytes) + " bytes does not fit the " +
                     (namespaces_.size() == 1 ? std::string("drive's ")
                                              : "namespace " + namespaces_[r.ns].name + "'s ") +
                     std::to_string(size) + " bytes");
  if (r.offset_bytes + r.length_bytes <= size) return;
  ++stats_.wrapped;
  if (!namespace_stats_.empty()) ++namespace_stats_[r.ns].wrapped;
  r.offset_bytes %= size;
  if (r.offset_bytes + r.length_bytes > size)
    r.offset_bytes = (size - r.length_bytes) / kSectorBytes * kSectorBytes;
}

void Host::submit(TranslatedNamespace& t, const HostRequest& r, const sc_core::sc_time& start,
                  std::size_t flow) {
  if (t.submit(r, start, uint32_t(flow))) {  // a plan of no command: done at once
    if (flows_.size() > 1)
      flows_[flow].stats.record_request(to_command(r.op), r.length_bytes, start, sim_now(), true);
    return;
  }
  ++flows_[flow].outstanding;
  submitted_.notify();
}

void Host::translate(TranslatedNamespace& t) {
  while (!lost_) {
    std::optional<TranslatedNamespace::Next> n;
    // The single flow needs no queue check: the drive holds END_REQ back when its queue is full.
    while (!lost_ && may_send_ && (n = t.next())) {
      const uint32_t q = flows_[n->flow].queue;
      if (flows_.size() > 1 && queue_outstanding_[q] >= queue_depths_[q]) break;
      if (!zones_.may_issue(n->request)) break;
      t.issued(n->command);
      issue(n->request, sim_now(), n->flow, &t, n->command);
    }
    sc_core::wait(submitted_ | slot_freed_ | end_req_);
  }
}

void Host::issue(const HostRequest& r, const sc_core::sc_time& start, std::size_t flow,
                 TranslatedNamespace* translation, uint64_t command) {
  if (free_.empty()) {
    slots_.push_back(std::make_unique<Slot>());
    Slot& s = *slots_.back();
    s.ext = new model::HostCommandExt;
    s.set_extension(s.ext);  // the payload owns it
    free_.push_back(&s);
  }
  Slot& s = *free_.back();
  free_.pop_back();
  s.start = start;
  s.issued = sc_core::sc_time_stamp();
  s.op = r.op;
  s.flow = uint32_t(flow);
  s.translation = translation;
  s.command = command;
  s.ext->queue = uint16_t(flows_[flow].queue);
  s.ext->ns = r.ns;
  s.watches.clear();
  fw::HostCommand& cmd = s.ext->cmd;
  cmd.op = to_command(r.op);
  // The scoreboard keeps the drive's logical capacity: where the drive places the command.
  cmd.offset_bytes =
      r.op == IoOp::Flush ? r.offset_bytes : namespaces_[r.ns].first_byte + r.offset_bytes;
  cmd.length_bytes = r.length_bytes;
  const bool writes = r.op == IoOp::Write || r.op == IoOp::Append;
  cmd.fua = writes && r.fua;
  cmd.placement = r.op == IoOp::Write || r.op == IoOp::PlacementUpdate ? r.placement : 0;
  cmd.version = writes ? next_version_++ : 0;
  cmd.content = r.op == IoOp::Write ? content_id(r) : 0;
  cmd.compressible_percent = r.op == IoOp::Write ? r.compressible_percent : 0;
  cmd.zone_action = r.zone_action;
  cmd.select_all = r.select_all;
  cmd.report_filter = r.report_filter;
  cmd.partial_report = r.partial_report;
  s.set_command(r.op == IoOp::Read ? tlm::TLM_READ_COMMAND
                : writes           ? tlm::TLM_WRITE_COMMAND
                                   : tlm::TLM_IGNORE_COMMAND);
  s.set_address(r.offset_bytes);
  s.set_data_length(static_cast<unsigned>(std::min<uint64_t>(r.length_bytes, UINT32_MAX)));
  s.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);

  const uint64_t end = cmd.offset_bytes + cmd.length_bytes;
  if (content_checks_ && cmd.content != 0)
    scoreboard_.record_content(cmd.version, cmd.offset_bytes / page_bytes_,
                               (cmd.offset_bytes + page_bytes_ - 1) / page_bytes_,
                               end / page_bytes_, cmd.content);
  if (zones_.zoned(r.ns))
    zones_.issued(r, cmd, s.watches);
  else
    scoreboard_.command_issued(cmd, page_bytes_, s.watches);
  cmd.offset_bytes = r.offset_bytes;  // the drive takes it in its namespace

  ++outstanding_;
  if (!translation) ++flows_[flow].outstanding;  // a translated request counts until its end
  ++queue_outstanding_[flows_[flow].queue];
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum status = socket->nb_transport_fw(s, phase, delay);
  may_send_ = status == tlm::TLM_UPDATED && phase == tlm::END_REQ;
}

tlm::tlm_sync_enum Host::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                         sc_core::sc_time&) {
  if (phase == tlm::END_REQ) {
    may_send_ = true;
    end_req_.notify();
    return tlm::TLM_ACCEPTED;
  }
  complete(static_cast<Slot&>(gp));
  return tlm::TLM_COMPLETED;
}

void Host::lose_power_at(const sc_core::sc_time& at) {
  power_may_fail_ = true;
  sc_core::sc_spawn([this, at] { power_loss(at); }, "power_loss");
}

void Host::power_loss(sc_core::sc_time at) {
  sc_core::wait(at - sim_now());
  const bool ended = done();  // the workload ended first: the drive idled until the loss
  lost_ = true;
  stats_.unacknowledged = outstanding_;
  power_lost_.notify(sc_core::SC_ZERO_TIME);
  slot_freed_.notify(sc_core::SC_ZERO_TIME);
  end_req_.notify(sc_core::SC_ZERO_TIME);
  if (ended) return;
  if (on_done_) on_done_();
  show_progress(true);
}

void Host::complete(Slot& s) {
  const sc_core::sc_time now = sim_now();
  if (lost_) return;  // never reaches the host: the request stays unacknowledged
  const fw::HostCommand& cmd = s.ext->cmd;
  Flow& f = flows_[s.flow];
  // A mismatch names the flow when there are several.
  const std::string* named = flows_.size() > 1 ? &f.name : nullptr;
  if (zones_.zoned(s.ext->ns))
    zones_.completed(*s.ext, s.watches, named);
  else
    scoreboard_.command_completed(cmd, s.watches, s.ext->read_data, !s.ext->ok, named);
  model::LatencyBreakdown& b = s.ext->breakdown;
  b.close(s.start, s.issued, now);
  stats_.record(*s.ext, s.start, now);
  // A translated namespace's flow counts its host requests, not the layer's commands.
  if (flows_.size() > 1 && !s.translation) f.stats.record(*s.ext, s.start, now);
  if (!namespace_stats_.empty()) namespace_stats_[s.ext->ns].record(*s.ext, s.start, now);
  if (request_log_)
    request_log_->add(s.start, s.issued, now, s.op, cmd.offset_bytes, cmd.length_bytes, f.name,
                      s.ext->ok, s.ext->lost, s.ext->status, b);
  --outstanding_;
  --queue_outstanding_[f.queue];
  if (s.translation) {
    if (const auto ended = s.translation->completed(s.command, s.ext->ok, now)) {
      Flow& owner = flows_[ended->flow];
      --owner.outstanding;
      if (flows_.size() > 1)
        owner.stats.record_request(to_command(ended->op), ended->bytes, ended->start, now,
                                   ended->ok);
    }
  } else {
    --f.outstanding;
  }
  ++completed_;
  free_.push_back(&s);
  slot_freed_.notify();
  if (completed_ % kProgressEvery == 0) show_progress(false);
}

void Host::show_progress(bool last) {
  if (!progress_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!last && now - last_progress_ < std::chrono::milliseconds(500)) return;
  last_progress_ = now;
  const uint64_t total = source_.expected_count();
  std::fprintf(stderr, "\r  %llu", static_cast<unsigned long long>(completed_));
  if (total != 0)
    std::fprintf(stderr, "/%llu requests (%.0f %%)", static_cast<unsigned long long>(total),
                 100.0 * double(completed_) / double(total));
  else
    std::fprintf(stderr, " requests");
  std::fprintf(stderr, ", simulated %.3f s%s", sim_now().to_seconds(), last ? "\n" : "");
}

}  // namespace ssd::tb
