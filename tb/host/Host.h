#pragma once
// The host: plays a RequestSource's flows into the drive over a TLM-2.0 AT socket, each flow
// in its own process on its own submission queue. Timed flows issue each request at its
// arrival time (or as soon as the drive accepts it, if its queue is full: the drive holds
// END_REQ back); closed-loop flows keep host_queue_depth() requests outstanding. With more
// than one flow the host, as an NVMe driver does, never submits to a full queue, so one
// flow's full queue does not hold back the others. Every write carries a fresh data version; every
// read is checked by the scoreboard. Latency runs from arrival (timed) or issue (closed loop) to
// completion. A request addresses its namespace (HostRequest::ns); the scoreboard keeps the
// drive's logical capacity, where the drive places the namespaces (config::NamespaceRange). A
// zoned namespace with namespaces[].host_translation takes the host's reads, writes and trims
// through its zone translation layer (TranslatedNamespace): a request counts against its flow's
// qd until its plan's last zone command completes; the commands are the drive's (requests,
// latency and the scoreboard's checks are theirs), and the translated requests' own figures are
// the namespace's (namespace_results()).
#include <array>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "config/NamespaceConfig.h"
#include "ip/Scoreboard.h"
#include "model/SsdExtensions.h"
#include "report/HostStats.h"
#include "tb/host/HostRequest.h"
#include "tb/host/HostZones.h"
#include "tb/host/RequestLog.h"
#include "tb/host/TranslatedNamespace.h"

namespace ssd::tb {

using report::FlowStats;
using report::HostStats;

class Host : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Host> socket;

  SC_HAS_PROCESS(Host);
  // `queue_depths`: each submission queue's (host.queues); `namespaces`: the drive's. Throws
  // ssd::InputError when a flow names a queue the drive does not have.
  Host(sc_core::sc_module_name name, RequestSource& source, std::vector<uint32_t> queue_depths,
       ip::Scoreboard& scoreboard, uint64_t page_bytes,
       std::vector<config::NamespaceRange> namespaces, bool progress);

  // All requests.
  const HostStats& stats() const { return stats_; }
  // Each flow's (source.flows() order): its name, queue and requests.
  std::vector<FlowStats> flow_results() const;
  // Each namespace's requests (config order), as flows with no queue of their own; a translated
  // one's host requests too.
  std::vector<FlowStats> namespace_results() const;
  // What makes the run's figures other than asked, one sentence each (report.json
  // "warnings"): a flow whose qd is more than its submission queue holds.
  std::vector<std::string> warnings() const;
  uint64_t completed() const { return completed_; }
  // Requests sent to the drive and not completed.
  uint64_t outstanding() const { return outstanding_; }
  // Whether every flow has played its last request and seen it complete.
  bool done() const { return flows_done_ == flows_.size(); }
  // An error the request source raised (the run stops at once); null if none.
  std::exception_ptr error() const { return error_; }
  // Every completed request also goes to `log` (null: none).
  void set_request_log(RequestLog* log) { request_log_ = log; }
  // Called at the simulated time the last request completes (the end of the host phase).
  void on_done(std::function<void()> f) { on_done_ = std::move(f); }
  // The drive's supply fails at `at` (power.hold_up): from then on the host sends nothing and
  // no completion reaches it; the host phase ends there.
  void lose_power_at(const sc_core::sc_time& at);
  bool power_lost() const { return lost_; }
  // The drive deduplicates: the scoreboard learns each write's content.
  void set_content_checks(bool on) { content_checks_ = on; }

 private:
  struct Slot : tlm::tlm_generic_payload {
    model::HostCommandExt* ext = nullptr;
    sc_core::sc_time start;   // arrival (open loop) or issue (closed loop): latency's origin
    sc_core::sc_time issued;  // sent to the drive
    IoOp op = IoOp::Read;
    uint32_t flow = 0;
    std::vector<ip::Scoreboard::Watch> watches;
    TranslatedNamespace* translation = nullptr;  // a zone command of its plans, and its id
    uint64_t command = 0;
  };
  struct Flow {
    RequestSource* source;
    std::string name;
    uint32_t queue;
    uint64_t outstanding = 0;
    HostStats stats;  // kept when there is more than one flow
  };

  void run(std::size_t flow);
  void play(std::size_t flow);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void issue(const HostRequest& r, const sc_core::sc_time& start, std::size_t flow,
             TranslatedNamespace* translation = nullptr, uint64_t command = 0);
  // A request of a translated namespace: its plan queued (the flow counts it until it ends).
  void submit(TranslatedNamespace& t, const HostRequest& r, const sc_core::sc_time& start,
              std::size_t flow);
  // Issues the translated namespace's commands as they may go (a process of its own).
  void translate(TranslatedNamespace& t);
  void complete(Slot& s);
  void prefetch(const HostRequest& r) const;
  // Wraps a request past its namespace's end into it (counted); throws ssd::InputError for one
  // that cannot fit.
  void fit_to_namespace(HostRequest& r);
  void show_progress(bool last);
  void power_loss(sc_core::sc_time at);

  RequestSource& source_;
  std::vector<Flow> flows_;
  std::vector<uint32_t> queue_depths_;
  std::vector<uint32_t> queue_outstanding_;
  std::size_t flows_done_ = 0;
  ip::Scoreboard& scoreboard_;
  uint64_t page_bytes_;
  std::vector<config::NamespaceRange> namespaces_;
  HostZones zones_;
  std::vector<std::unique_ptr<TranslatedNamespace>> translated_;  // by namespace; null: none
  sc_core::sc_event submitted_;                                   // to a translated namespace
  std::vector<HostStats> namespace_stats_;  // kept when there is more than one namespace
  bool progress_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<Slot*> free_;
  uint64_t outstanding_ = 0;
  uint64_t completed_ = 0;
  uint64_t next_version_ = 1;
  bool may_send_ = true;  // END_REQ of the last request received
  sc_core::sc_event end_req_, slot_freed_, power_lost_;
  bool lost_ = false;
  bool power_may_fail_ = false;  // lose_power_at() was called
  HostStats stats_;
  std::chrono::steady_clock::time_point last_progress_;
  std::exception_ptr error_;
  RequestLog* request_log_ = nullptr;
  std::function<void()> on_done_;
  bool content_checks_ = false;
};

}  // namespace ssd::tb
