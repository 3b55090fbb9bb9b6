#pragma once
// timeline.csv (--timeline, docs/report.md#timelinecsv): a row per interval of simulated time
// with what the host saw (requests, bytes, latency), what the drive held (outstanding requests,
// write buffer, free blocks, the dynamic SLC cache's blocks), what garbage collection did, how busy
// the dies, the channels and the controller were, the drive's energy and, on aging NAND, the
// reads' retry steps, so a stretch of a run can be explained.
//
// The run steps the kernel from boundary to boundary (sc_start to each) instead of running
// it in one go; at each boundary, with every event before it done and none at or after it, a
// row is the change of the counters their modules own since the last one (or, for levels,
// their value then), and the energy monitor's exact integral. Nothing is sampled inside the
// model and nothing is kept per request; the kernel pausing changes nothing it does. Whole
// intervals in which the kernel has nothing to do become one row (a trace may idle for days).
//
// With a VCD, the rates, latencies, levels, GC figures, busy fractions and power of each row
// are also probes there ("timeline.read_iops", ...: vcd_probes()), so GTKWave shows them under
// the currents they explain. A probe steps at its interval's end to the interval's figure, as a
// meter that averages over an interval shows it; the last, partial row is in the CSV only.
//
// timeline_dies.csv beside it has the same rows with each die's busy fraction, for the die
// heat map (ssdtlm-plot timeline): which dies the work went to, not only how much of it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <systemc>

#include "common/AtomicFile.h"
#include "model/Ssd.h"
#include "model/power/EnergyMonitor.h"
#include "tb/host/Host.h"

namespace ssd::tb {

class Timeline {
 public:
  // The probes a row sets, for EnergyMonitor::Options::vcd_probes: the CSV's columns of the
  // same names, with "timeline." before them.
  static std::vector<std::string> vcd_probes();
  // Writes timeline.csv (and timeline_dies.csv, when the drive has dies) into `dir`. `monitor`
  // must have been built with Options::group_busy, and with vcd_probes() if it has a VCD.
  Timeline(const std::string& dir, const sc_core::sc_time& interval, const Host& host,
           const model::Ssd& ssd, model::EnergyMonitor& monitor);

  // Runs the simulation until nothing is left to do, as sc_start() does, a row per boundary.
  void run();
  // The last row, up to `end` (the energy span's end: after monitor.finish(end)), and the file.
  void finish(const sc_core::sc_time& end);

 private:
  // The cumulative counters a row is the difference of.
  struct Counters {
    uint64_t reads = 0, writes = 0, trims = 0, flushes = 0;
    uint64_t read_bytes = 0, write_bytes = 0;
    uint64_t gc_victims = 0, gc_pages_copied = 0, gc_waited = 0, slc_pages_folded = 0;
    // Aging NAND: unit reads decided, the retry steps they took, retry array reads, unit reads
    // no step corrected.
    uint64_t unit_reads = 0, retry_steps = 0, retry_reads = 0, uncorrectable_reads = 0;
    uint64_t zones_reset = 0;  // zoned namespaces
    model::EnergyMonitor::Totals drive;
  };
  void read(uint64_t t_ps, Counters& out);
  // `probe`: also set the VCD's probes at end_ps.
  void row(uint64_t end_ps, bool probe);

  AtomicFile file_;
  std::optional<AtomicFile> dies_file_;
  std::vector<uint32_t> dies_;  // the dies' indices among the monitor's components
  uint64_t interval_ps_;
  const Host& host_;
  const model::Ssd& ssd_;
  model::EnergyMonitor& monitor_;
  // The groups whose busy fraction is a column, as indices into monitor.groups() (-1: the
  // drive has none), and how many components each has.
  struct BusyGroup {
    int index = -1;
    uint32_t components = 0;
  };
  std::vector<BusyGroup> busy_;
  bool aging_;             // flash.reliability: the retry columns
  bool zoned_;             // zoned namespaces: the open zones and resets
  uint64_t start_ps_ = 0;  // of the row being gathered
  Counters last_, now_;
  std::vector<uint64_t> scratch_;
};

}  // namespace ssd::tb
