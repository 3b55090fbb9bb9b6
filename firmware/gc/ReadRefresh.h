#pragma once
// Read refresh (reclaim) on aging NAND (ftl.read_refresh, docs/reliability.md#read-refresh): the
// page-level FTLs' record of what ages each block's data, and the blocks due for a rewrite.
//
// The firmware estimates a block's raw bit errors per codeword as the NAND's characterisation
// gives them (flash.reliability's formula, config::raw_rate, at the page type that errs most):
// its erase count (the block manager's, plus the drive's pe_cycles), its data's age (the time since
// the block was opened in the run; data from before the run, retention_days at its start; the run's
// time at the die's temperature as its sensor integrates it, with run_temperature "die") and its
// reads since erase. A block is checked as it is read (its read-disturb term grew) and at every
// scan (the retention term grows with time); one whose estimate reaches errors_per_codeword is
// queued on its die, once. The FTL rewrites queued blocks, one at a time, units_per_step valid
// units a step (PageLevelFtl::refresh_one; the rewrite below). What the
// record counts is the run's: before it (preconditioning, a restart) nothing is recorded, as the
// NAND counts no read then either.
//
// Plain C++: tb/tests/ReadRefreshTest.cpp.
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include <systemc>

#include "config/DriveConfig.h"
#include "firmware/Hal.h"

namespace ssd::fw {

class ReadRefresh {
 public:
  // `sensors`: the Hal whose dies' temperature sensors age the data with run_temperature "die".
  ReadRefresh(const config::DriveConfig& cfg, Hal& sensors);

  bool on() const { return on_; }
  // The block was opened for writing at `now`; erased (its record starts over, its queue entry
  // is void).
  void opened(uint32_t die, uint32_t block, const sc_core::sc_time& now) {
    opened_at_[index(die, block)] = now;
    in_run_[index(die, block)] = 1;
    if (sensors_) opened_s_[index(die, block)] = sensors_->die_retention_s(die);
  }
  void erased(uint32_t die, uint32_t block);
  // A read of the block, of `erases` erases: counted and, with `checked` (not a copy read of a
  // block being emptied), the block queued once its estimate reaches the threshold.
  void read(uint32_t die, uint32_t block, uint32_t erases, const sc_core::sc_time& now,
            bool checked = true) {
    ++reads_[index(die, block)];
    if (checked) check(die, block, erases, now, queued_by_reads);
  }
  // The estimated raw bit errors per codeword of the block now.
  double estimate(uint32_t die, uint32_t block, uint32_t erases, const sc_core::sc_time& now) const;
  // Scans: whether one is due by `now`; a full block examined (queued if due); the scan done.
  bool scan_due(const sc_core::sc_time& now) const { return scans_on_ && now >= next_scan_; }
  void examine(uint32_t die, uint32_t block, uint32_t erases, const sc_core::sc_time& now) {
    ++blocks_examined;
    check(die, block, erases, now, queued_by_scan);
  }
  void scanned(const sc_core::sc_time& now);
  // The die's oldest queued block still due (entries erased since are dropped); take() removes it.
  std::optional<uint32_t> next(uint32_t die);
  void take(uint32_t die);
  uint64_t reads(uint32_t die, uint32_t block) const { return reads_[index(die, block)]; }
  // ftl.read_refresh.units_per_step: the valid units a rewrite step moves (0: the whole block).
  uint32_t units_per_step() const { return units_per_step_; }
  // The block being rewritten, from unit slot `next` on. Its erase by other work (GC, wear
  // levelling took it, part rewritten) ends it (counted in rewrites_taken_over).
  struct Rewrite {
    bool active = false;
    uint32_t die = 0, block = 0, next = 0;
  };
  Rewrite rewrite;
  // The scan under way: at full block `pos` of `die` (a step examines units_per_step blocks).
  struct Scan {
    bool active = false;
    uint32_t die = 0;
    std::size_t pos = 0;
  };
  Scan scan;
  // Whether the block was opened in the run at `t` or later.
  bool opened_since(uint32_t die, uint32_t block, const sc_core::sc_time& t) const {
    return in_run_[index(die, block)] && opened_at_[index(die, block)] >= t;
  }

  // Figures (report.json read_refresh, registered by the FTL).
  uint64_t blocks_refreshed = 0;
  uint64_t units_moved = 0;
  uint64_t queued_by_reads = 0;  // blocks queued as a read crossed the threshold
  uint64_t queued_by_scan = 0;   // blocks queued by a scan (retention)
  uint64_t scans = 0;
  uint64_t blocks_examined = 0;  // by scans
  // Blocks due whose wear alone (fresh data on them) reaches the threshold: not queued, as a
  // rewrite would leave them due (counted once per erase).
  uint64_t beyond_refresh = 0;
  uint64_t rewrites_taken_over = 0;  // rewrites other work took over (its victim, its erase)
  double host_core_s = 0;            // core time of steps run before host commands' own work

 private:
  std::size_t index(uint32_t die, uint32_t block) const {
    return std::size_t(die) * blocks_per_die_ + block;
  }
  void check(uint32_t die, uint32_t block, uint32_t erases, const sc_core::sc_time& now,
             uint64_t& queued_count);
  // The age of the block's data now, in days at the reference temperature.
  double reference_days(uint32_t die, std::size_t i, const sc_core::sc_time& now) const;
  // Errors per codeword at the worst page type of data `reference_days` old (accelerated),
  // read `reads` times, on a block of `erases` erases; and of fresh data.
  double errors(uint32_t erases, double reference_days, double reads) const;
  double fresh_estimate(uint32_t erases) const { return errors(erases, 0, 0); }
  // A block's place: not queued, queued, or due beyond what a rewrite helps (until its erase).
  enum : uint8_t { kNo, kQueued, kBeyond };

  bool on_;
  config::ReliabilityConfig rel_;
  double threshold_;      // errors per codeword
  double codeword_bits_;  // flash.reliability.codeword_bytes x 8
  double worst_type_;     // the largest page-type factor
  double acceleration_;   // Arrhenius: retention_days, and the run's time at temperature_c
  Hal* sensors_;          // run_temperature "die": the dies' sensors; else null
  bool scans_on_;
  uint32_t units_per_step_;
  sc_core::sc_time interval_, next_scan_;
  uint32_t blocks_per_die_;
  std::vector<sc_core::sc_time> opened_at_;  // by die and block
  std::vector<uint8_t> in_run_;              // opened in the run (else: data from before it)
  std::vector<double> opened_s_;             // with sensors_: their reading at the opening
  std::vector<uint64_t> reads_;              // since erase
  std::vector<uint8_t> queued_;
  std::vector<std::deque<uint32_t>> queue_;  // per die, oldest first
};

}  // namespace ssd::fw
