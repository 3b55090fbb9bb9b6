#pragma once
// What the host saw of the commands it sent: their counts, bytes and latency samples, how long
// they waited for garbage collection and where their time went. The testbench host and the
// embedded drive's block target record their commands here alike, so report.json's figures
// are the same code for both.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <systemc>

#include "model/SsdExtensions.h"
#include "report/BreakdownStats.h"
#include "report/LatencyStats.h"
#include "report/TranslationStats.h"
#include "report/WaitStats.h"

namespace ssd::report {

struct HostStats {
  uint64_t reads = 0, writes = 0, trims = 0, flushes = 0;
  uint64_t fua_writes = 0;
  // Zoned namespaces: zone appends (among the writes above, their bytes and latencies too) and
  // zone management actions and Report Zones served.
  uint64_t appends = 0, zone_actions = 0, zone_reports = 0;
  // Flexible data placement: Reclaim Unit Handle Updates served (ftl.fdp).
  uint64_t placement_updates = 0;
  uint64_t read_bytes = 0, write_bytes = 0;
  uint64_t wrapped = 0;  // requests beyond the drive's capacity, wrapped into it
  LatencyStats read_latency, write_latency, trim_latency, flush_latency;
  LatencyStats zone_action_latency;  // zoned namespaces' management actions
  LatencyStats zone_report_latency;
  LatencyStats placement_update_latency;
  WaitStats read_gc_wait, write_gc_wait;            // how long they waited for garbage collection
  WaitStats read_refresh_wait, write_refresh_wait;  // ... of it, behind read refresh
  // Where their time went (model/LatencyBreakdown.h), by kind(): read, write (appends too),
  // trim, flush, zone action, placement update and zone report.
  std::array<BreakdownStats, 7> breakdown;
  static std::size_t kind(fw::CommandOp op);
  sc_core::sc_time last_completion;
  uint64_t timed_requests = 0;    // requests issued at their arrival time (open loop)
  sc_core::sc_time last_arrival;  // of the last of them
  uint64_t unacknowledged = 0;    // requests outstanding when the supply failed (power.hold_up)
  // Writes and trims a read-only drive failed (flash.faults): out of the counts, bytes and
  // latencies above, which are of the commands the drive served.
  uint64_t failed_read_only = 0;
  // Reads that failed because a unit they cover was lost with a die that stopped answering
  // (flash.faults.dead_die): out of the figures above as well (served at once, with no flash
  // read, they would flatter the read latency).
  uint64_t failed_lost = 0;
  // Writes that failed with NVMe's Write Fault because their logical blocks were lost with a die
  // that stopped answering (a block-mapped FTL's): out of the figures above as well.
  uint64_t failed_write_fault = 0;
  // Commands the drive refused with an NVMe status (a zone state machine's refusal, a zone
  // command to a conventional namespace, a placement update without FDP or with an identifier
  // naming no handle): out of the figures above.
  uint64_t failed_status = 0;

  // The requests served: report.json's requests.count.
  uint64_t count() const {
    return reads + writes + trims + flushes + zone_actions + placement_updates + zone_reports;
  }
  // A command completed at `now` that started at `start`; its breakdown already closed.
  void record(const model::HostCommandExt& ext, const sc_core::sc_time& start,
              const sc_core::sc_time& now);
  // A host request the host's zone translation layer served (a read, write or trim of `bytes`),
  // ended with the last of its zone commands; one that failed counts in failed_status.
  void record_request(fw::CommandOp op, uint64_t bytes, const sc_core::sc_time& start,
                      const sc_core::sc_time& now, bool ok);

 private:
  void count(fw::CommandOp op, uint64_t bytes, const sc_core::sc_time& latency);
};

// One flow's name, submission queue and requests (report.json's `flows`).
struct FlowStats {
  std::string name;
  uint32_t queue;
  const HostStats* stats;
  // A namespace the host's zone translation layer serves: its host requests and what the layer
  // sent the drive for them.
  std::optional<TranslationStats> translation = std::nullopt;
};

// The scoreboard's verdict (ip::Scoreboard): page reads checked, mismatches, the first messages.
struct ScoreboardFigures {
  uint64_t pages_checked = 0, mismatches = 0;
  uint64_t reported = 0;  // pages of reads the drive failed with an error (aging NAND)
  uint64_t refused = 0;   // pages of writes and trims a read-only drive failed (flash.faults)
  std::vector<std::string> messages;
  // Units the host was told were written that never reached flash: a loss of the supply with
  // too little hold-up energy (power.hold_up).
  uint64_t lost_by_power_loss = 0;
  // Units holding data the host was told was written, lost with a die that stopped answering
  // (flash.faults.dead_die).
  uint64_t lost_by_dead_die = 0;
  // Units holding such data whose data no die had room for (flash.faults: blocks lost faster
  // than GC frees them).
  uint64_t lost_by_no_room = 0;
};

}  // namespace ssd::report
