#pragma once
// The host interface (host): its protocol, link, submission queues and their arbitration, command
// costs and the link's low-power states. The struct, its field table (keys, members, ranges: read,
// written and listed by config/json/) and its own rules; rules across sections are DriveConfig's.
// docs/config.md documents each key.
#include <cstdint>
#include <string>
#include <vector>

#include "config/Choices.h"
#include "config/json/Bounds.h"
#include "config/json/Problems.h"

namespace ssd::config {

// A low-power state of the host link (docs/energy-model.md#low-power-states): SATA partial,
// slumber or DevSleep, or an NVMe non-operational power state with its PCIe link state.
// The link enters it once it has idled idle_us in the state before it (NVMe APST's idle
// time prior to transition), taking t_entry_us (ENLAT) at the earlier state's power; a
// command arriving there waits t_exit_us (EXLAT) at the link's idle power.
struct LinkStateConfig {
  std::string name;
  double p_mw = 0.0;  // the host interface's power in the state
  double idle_us = 0.0;
  double t_entry_us = 0.0;
  double t_exit_us = 0.0;
  std::string source;
};

// An NVMe I/O submission queue and its completion queue (host.queues).
struct HostQueueConfig {
  uint32_t depth = 32;  // commands of the queue outstanding at once
  // Its class under weighted_round_robin (urgent: strict priority).
  QueuePriority priority = QueuePriority::Medium;
};

// The weighted round robin classes' weights (NVMe: commands per round, 1 to 256).
struct WrrWeightsConfig {
  uint32_t high = 1, medium = 1, low = 1;
};

struct HostConfig {
  HostProtocol interface = HostProtocol::Sata;  // SATA: one NCQ queue of up to 32
  double link_mb_per_s = 300.0;                 // host link payload bandwidth, MB = 1e6 bytes
  bool full_duplex = false;                     // PCIe: true (separate directions); SATA: false
  uint32_t queue_depth = 32;                    // commands the drive holds at once
  double voltage_v = 5.0;
  double i_transfer_ma = 0.0;  // while moving data over the link
  double i_idle_ma = 0.0;      // brief: host interface draws only while transferring
  // Low-power link states, deepest last; empty: the link never leaves idle.
  std::vector<LinkStateConfig> link_states;
  // Submission queues (docs/architecture.md#host-queues-and-arbitration); empty: one of
  // queue_depth. queue_depth stays the commands the drive works on at once.
  std::vector<HostQueueConfig> queues;
  Arbitration arbitration = Arbitration::RoundRobin;  // weighted: the NVMe base spec's
  uint32_t arbitration_burst = 1;  // commands a queue gives per turn; 0: no limit
  WrrWeightsConfig wrr_weights;
  // Command costs: doorbell (SATA: command FIS) to the command in the controller, the fetch
  // engine's gap between two commands, the completion entry's post (SATA: Set Device Bits
  // FIS) and the interrupt until the host sees it.
  double t_sq_fetch_ns = 0.0;
  double sq_fetch_gap_ns = 0.0;
  double t_cq_post_ns = 0.0;
  double t_interrupt_ns = 0.0;
};

// host.queues, or one queue of queue_depth when none is listed.
inline std::vector<HostQueueConfig> submission_queues(const HostConfig& h) {
  if (!h.queues.empty()) return h.queues;
  return {HostQueueConfig{h.queue_depth, QueuePriority::Medium}};
}

// The field table: the visitor (config/json/) is called once per key, in the order configs
// write them.
template <class State, class V>
void visit_link_state(State& s, V& v) {
  v("name", s.name, Presence::kRequired);  // a short identifier: validate()
  v("p_mw", s.p_mw, up_to(1e5), Presence::kRequired);
  v("idle_us", s.idle_us, kIdleTime, Presence::kRequired);  // positive: validate()
  v("t_entry_us", s.t_entry_us, kStepTime, Presence::kRequired);
  v("t_exit_us", s.t_exit_us, kStepTime, Presence::kRequired);
  v("source", s.source, Presence::kRequired);
}

template <class Host, class V>
void visit_host(Host& h, V& v) {
  v("interface", h.interface);
  v("link_mb_per_s", h.link_mb_per_s, positive_up_to(1e6));  // 1 TB/s
  v("full_duplex", h.full_duplex);
  v("queue_depth", h.queue_depth, Bounds{1, false, 65535, false});
  v("voltage_v", h.voltage_v, kVoltage);
  v("i_transfer_ma", h.i_transfer_ma, kCurrent);
  v("i_idle_ma", h.i_idle_ma, kCurrent);
  v.list("link_states", h.link_states, 0, [](auto& s, auto& sv) { visit_link_state(s, sv); });
  v.list("queues", h.queues, 0, [](auto& q, auto& qv) {
    qv("depth", q.depth, Bounds{1, false, 65536, false});
    qv("priority", q.priority);
  });
  v("arbitration", h.arbitration);
  v("arbitration_burst", h.arbitration_burst, between(0, 128));  // a power of two: validate()
  v.section("wrr_weights", h.wrr_weights, [](auto& w, auto& wv) {
    wv("high", w.high, between(1, 256));
    wv("medium", w.medium, between(1, 256));
    wv("low", w.low, between(1, 256));
  });
  v("t_sq_fetch_ns", h.t_sq_fetch_ns, up_to(1e9));
  v("sq_fetch_gap_ns", h.sq_fetch_gap_ns, up_to(1e9));
  v("t_cq_post_ns", h.t_cq_post_ns, up_to(1e9));
  v("t_interrupt_ns", h.t_interrupt_ns, up_to(1e9));
}

// The rules that involve more than one field of the section: each broken one is added to
// `problems`, naming its key.
void validate(const HostConfig& section, Problems& problems);

}  // namespace ssd::config
