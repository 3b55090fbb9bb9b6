#pragma once
// The DRAM holding the mapping table and the write buffer. A mapping-table access moves
// access_bytes and takes t_access_ns; a transaction of N x access_bytes is N back-to-back
// accesses. Page data for the write buffer (a transaction with a DramBurstExt) moves in one
// burst at burst_mb_per_s. The DRAM is active while it serves one and idles between (it stays
// powered to keep its contents).
// Ports: each initiator (a controller core, the read engine) comes through its own port
// (DramPortExt; none: port 0), whose transactions are served one after another in the order
// made. Each initiator runs ahead of simulated time by its own amount, so the ports' accesses
// share the DRAM by time (AccessTimeline): one takes the first idle gap between accesses
// reserved already that it fits in, else it waits for them all. With one port, accesses come
// in time order and their power states are reported as they are placed; with more, when the
// energy monitor commits (EnergyMonitor::Deferred).
// Self-refresh (dram.self_refresh; docs/energy-model.md#low-power-states): after idle_us
// without an access the DRAM takes t_entry_us to enter self-refresh; an access arriving
// there (or on the way in) waits until it is in, then t_exit_us, before it is served.
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "common/TransferTime.h"
#include "config/DriveConfig.h"
#include "model/BlockingTarget.h"
#include "model/SsdExtensions.h"
#include "model/dram/AccessTimeline.h"
#include "model/power/PowerStateMachine.h"

namespace ssd::model {

class Dram : public sc_core::sc_module, private BlockingTarget, private EnergyMonitor::Deferred {
 public:
  tlm::tlm_target_socket<> socket;

  Dram(sc_core::sc_module_name name, const config::DramConfig& cfg, EnergyMonitor& monitor,
       uint32_t ports = 1);

  uint64_t accesses() const { return accesses_; }
  // Self-refresh: times entered, and the time accesses waited for the DRAM to leave it.
  uint64_t self_refresh_entries() const { return sr_entries_; }
  const sc_core::sc_time& self_refresh_wait() const { return sr_wait_; }
  uint64_t burst_bytes() const { return burst_bytes_; }

  // The DRAM a drive is built with (docs/energy-model.md): `cfg.dram` as configured, or with
  // ftl.size_dram_from_table the smallest part of dram.parts that holds `table_bytes` plus
  // the write buffer (the first listed among equals), whose size, currents and access time
  // replace the configured ones. `part` names it (empty: as configured). Throws ConfigError
  // when no part is large enough.
  struct Sizing {
    config::DramConfig cfg;
    std::string part;
  };
  static Sizing effective(const config::DriveConfig& cfg, uint64_t table_bytes);
  // A problem naming dram.parts when they are to size the DRAM and none is large enough.
  static void check(const config::DriveConfig& cfg, uint64_t table_bytes,
                    config::Problems& problems);

 private:
  SC_HAS_PROCESS(Dram);
  static std::vector<StateCurrent> states(const config::DramConfig& cfg);
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) override;
  // The idle timer: enters self-refresh once the DRAM has idled idle_us.
  void self_refresh_timer();
  void enter_self_refresh(const sc_core::sc_time& at);
  // An access that would start at `start`: returns when it can (after a self-refresh exit).
  sc_core::sc_time leave_self_refresh(sc_core::sc_time start);
  // Reserves an access of `length` from `start` (a port's turn): in a gap before the reserved
  // work if one holds it, else after it (out of self-refresh first); returns its start.
  sc_core::sc_time place(sc_core::sc_time start, const sc_core::sc_time& length);
  // A change of power state at `t`, after every access placed (self-refresh).
  void change(const sc_core::sc_time& t, PowerState s);
  // EnergyMonitor::Deferred: the timeline's changes, to the power-state machine.
  void report_before(uint64_t horizon_ps) override;

  uint32_t access_bytes_;
  sc_core::sc_time t_access_;
  // The last access length served, its accesses and their time: the firmware's are nearly all
  // one entry, and the division and the sc_time x double (a round trip through a volatile
  // double) were a third of the access's cost.
  uint32_t last_bytes_ = 0;
  uint64_t last_accesses_ = 0;
  sc_core::sc_time last_time_;
  TransferTime burst_time_;  // of a burst
  uint64_t burst_bytes_ = 0;
  sc_core::sc_time free_;                // the end of the last access reserved
  std::vector<sc_core::sc_time> ports_;  // each port's last access's end
  AccessTimeline timeline_;
  uint64_t accesses_ = 0;
  bool sr_enabled_;
  sc_core::sc_time sr_idle_, sr_entry_, sr_exit_;
  bool in_sr_ = false;  // in self-refresh, or on the way in
  sc_core::sc_time sr_reached_;
  uint64_t sr_entries_ = 0;
  sc_core::sc_time sr_wait_;
  sc_core::sc_event sr_timer_;
  PowerStateMachine psm_;
};

}  // namespace ssd::model
