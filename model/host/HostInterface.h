#pragma once
// The drive's host interface (SATA/NVMe front end). Commands arrive in submission queues
// (host.queues; one of queue_depth when none are configured); a command beyond its queue's
// depth is not accepted (END_REQ is held back, per the TLM-2.0 base protocol) until one of
// that queue completes. The controller fetches from the queues, chosen by the arbiter
// (model/host/Arbiter.h), while it holds fewer than queue_depth commands: a fetch takes
// t_sq_fetch_ns, and the fetch engine starts one every sq_fetch_gap_ns. A completion
// reaches the host t_cq_post_ns + t_interrupt_ns after the controller is done (and, for a
// read, its data has crossed the link); the command's place in the drive is free at once.
// A write reaches the controller once its first flash page of data has
// crossed the host link; the rest streams in behind it, and the command carries when (its
// data_start / data_end) so each page's program waits only for its own data. Read data
// crosses the link after the controller is done.
//
// Ordering: a command reaches the controller no earlier than every command the host sent
// before it, still on its way, whose logical range it overlaps (a flush overlaps all). So
// the firmware applies writes, trims and reads of the same pages in the host's order (a
// trim, carrying no data, would otherwise overtake an earlier write still crossing the
// link); commands to other pages are not held up. The link moves
// link_mb_per_s; half duplex shares one timeline between directions, full duplex has one per
// direction (each its own power component).
//
// Namespaces (namespaces): a command addresses its namespace from byte 0; on arrival the host
// interface places it at the namespace's first byte in the drive's logical capacity, which the
// controller and firmware work in (a command past its namespace's end is the host's error).
//
// Link power management (host.link_states; docs/energy-model.md#low-power-states): once no
// command is outstanding, the link idles through its low-power states, deepest last: each
// is entered after idle_us in the one before and reached t_entry_us later (the earlier
// state's power holds meanwhile). A command that arrives in a low state (or on its way
// into one) waits until that state is reached, then t_exit_us at the idle power, before it
// crosses the link. In simulated time this is exact: an idle timer drives the transitions.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/TransferTime.h"
#include "config/DriveConfig.h"
#include "model/PayloadQueue.h"
#include "model/SsdExtensions.h"
#include "model/host/Arbiter.h"
#include "model/power/PowerStateMachine.h"

namespace ssd::model {

class HostInterface : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<HostInterface> host_socket;     // from the host
  tlm_utils::simple_initiator_socket<HostInterface> ctrl_socket;  // to the controller

  SC_HAS_PROCESS(HostInterface);
  HostInterface(sc_core::sc_module_name name, const config::HostConfig& cfg, uint32_t page_bytes,
                const std::vector<config::NamespaceRange>& namespaces, EnergyMonitor& monitor);

  // Commands submitted and not yet completed to the host.
  uint32_t outstanding() const { return outstanding_; }

  // Per submission queue: commands fetched, and their time waiting to be fetched.
  struct QueueUsage {
    uint64_t fetched = 0;
    sc_core::sc_time wait, max_wait;
  };
  const std::vector<QueueUsage>& queue_usage() const { return queue_usage_; }
  // Total time transfers waited for the link (for its mean queue length).
  const sc_core::sc_time& link_wait() const { return link_wait_; }

  // Per link state (host.link_states, in order): times entered, and commands that woke
  // the link from it; and the time commands waited for the link to wake.
  struct LinkPowerUsage {
    std::vector<uint64_t> entries;
    std::vector<uint64_t> wakes;
    sc_core::sc_time wake_wait;
  };
  const LinkPowerUsage& link_power() const { return link_power_; }
  // The power component(s) of the link, by name (one, or one per direction).
  std::vector<std::string> power_names() const;

 private:
  enum Direction { kToDevice = 0, kToHost = 1 };

  tlm::tlm_sync_enum host_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                             sc_core::sc_time& delay);
  tlm::tlm_sync_enum ctrl_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                             sc_core::sc_time& delay);
  // Turns the command's offset in namespace `ns` into the drive's logical offset.
  void place_in_namespace(uint32_t ns, fw::HostCommand& cmd) const;
  // Into its submission queue; fetched when the controller takes it.
  void submit(tlm::tlm_generic_payload& gp, HostCommandExt& ext);
  // Fetches while the drive has room and commands wait (the engine may make it wait).
  void fetch();
  void on_fetched();
  // The command is in the controller: over the link (write data) and on to the firmware.
  // The command was fetched at `fetched` (now, or later for a full-duplex link: see fetch()).
  void accept(tlm::tlm_generic_payload& gp, HostCommandExt& ext, const sc_core::sc_time& fetched);
  void on_controller_done();
  void on_data_delivered();
  // The drive is done with it: its completion goes to the host.
  void respond(tlm::tlm_generic_payload& gp);
  void on_posted();
  void deliver(tlm::tlm_generic_payload& gp);
  // Reserves the link for `bytes` in direction `dir` from `from`; returns the transfer's end.
  sc_core::sc_time move(Direction dir, uint64_t bytes, const sc_core::sc_time& from);
  // The idle timer: enters the next link state when it is due.
  void link_power_timer();
  // A command arrives: the link leaves its low state (if in one); sets link_ready_.
  void wake_link();
  void enter_all(PowerState s, const sc_core::sc_time& t);

  uint32_t queue_depth_;  // commands the drive works on at once
  uint32_t page_bytes_;
  std::vector<config::NamespaceRange> namespaces_;
  TransferTime transfer_time_;  // on the link
  bool full_duplex_;
  uint32_t outstanding_ = 0;                     // submitted, not completed to the host
  uint32_t in_drive_ = 0;                        // fetched, completion not yet posted
  tlm::tlm_generic_payload* waiting_ = nullptr;  // refused for a full queue
  // Per submission queue: its depth, its commands not yet completed to the host, and those
  // waiting to be fetched (oldest first, with their count for the arbiter).
  std::vector<uint32_t> sq_depth_, sq_outstanding_, sq_waiting_;
  struct Submitted {
    tlm::tlm_generic_payload* gp;
    HostCommandExt* ext;
    sc_core::sc_time at;
  };
  // A queue's waiting commands in a ring of its depth (it never holds more): the oldest at
  // head, sq_waiting_ of them.
  struct Ring {
    std::vector<Submitted> slots;
    uint32_t head = 0;
  };
  std::vector<Ring> sq_;
  uint32_t waiting_total_ = 0;  // in every queue
  std::vector<QueueUsage> queue_usage_;
  host::Arbiter arbiter_;
  sc_core::sc_time t_fetch_, fetch_gap_, t_complete_;
  bool instant_fetch_;  // one queue and free fetches: a command with room is fetched at once
  sc_core::sc_time fetch_free_;  // the fetch engine's next start
  sc_core::sc_event fetch_event_;
  // Commands accepted and not yet at the controller: [first, end) bytes, when they get there.
  struct InTransit {
    uint64_t first, end;
    sc_core::sc_time arrives;
  };
  std::vector<InTransit> in_transit_;
  sc_core::sc_time last_arrival_;  // the latest arrival in in_transit_ (or before)
  // in_transit_ is pruned of delivered commands when scanned, and at least when it reaches
  // this size (doubling with what stays), so it does not grow while no scan is needed.
  static constexpr std::size_t kPruneAt = 64;
  std::size_t prune_at_ = kPruneAt;
  std::array<sc_core::sc_time, 2> link_free_;
  sc_core::sc_time link_wait_;
  std::array<std::unique_ptr<PowerStateMachine>, 2> psm_;  // one shared when half duplex
  struct LinkState {
    PowerState state;
    sc_core::sc_time idle, entry, exit;
  };
  std::vector<LinkState> link_states_;
  std::size_t link_level_ = 0;     // 0: up; k: in (or entering) link_states_[k - 1]
  sc_core::sc_time link_reached_;  // when the link is (or was) in its level's state
  sc_core::sc_time link_ready_;    // the link carries data from here (after a wake)
  sc_core::sc_event link_timer_;
  LinkPowerUsage link_power_;
  PayloadQueue<tlm::tlm_generic_payload> done_;       // controller completions
  PayloadQueue<tlm::tlm_generic_payload> delivered_;  // read data at the host
  PayloadQueue<tlm::tlm_generic_payload> fetched_;    // on their way into the controller
  PayloadQueue<tlm::tlm_generic_payload> posted_;     // completions on their way to the host
};

}  // namespace ssd::model
