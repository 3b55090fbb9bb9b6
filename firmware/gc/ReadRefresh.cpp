#include "firmware/gc/ReadRefresh.h"

#include <algorithm>

namespace ssd::fw {

ReadRefresh::ReadRefresh(const config::DriveConfig& cfg, Hal& sensors)
    : on_(cfg.ftl.read_refresh.enabled),
      rel_(cfg.flash.reliability),
      threshold_(cfg.ftl.read_refresh.errors_per_codeword),
      codeword_bits_(8.0 * rel_.codeword_bytes),
      worst_type_(rel_.rber_by_page_type.empty() ? 1.0
                                                 : *std::max_element(rel_.rber_by_page_type.begin(),
                                                                     rel_.rber_by_page_type.end())),
      acceleration_(config::retention_acceleration(rel_)),
      sensors_(rel_.run_temperature == config::RunTemperature::Die ? &sensors : nullptr),
      scans_on_(on_ && cfg.ftl.read_refresh.scan_interval_ms > 0),
      units_per_step_(cfg.ftl.read_refresh.units_per_step),
      interval_(cfg.ftl.read_refresh.scan_interval_ms, sc_core::SC_MS),
      next_scan_(interval_),
      blocks_per_die_(cfg.flash.blocks_per_die()) {
  if (!on_) return;  // no tables: the drive refreshes nothing
  const std::size_t blocks = std::size_t(cfg.flash.dies()) * blocks_per_die_;
  opened_at_.assign(blocks, sc_core::SC_ZERO_TIME);
  in_run_.assign(blocks, 0);
  if (sensors_) opened_s_.assign(blocks, 0);
  reads_.assign(blocks, 0);
  queued_.assign(blocks, kNo);
  queue_.resize(cfg.flash.dies());
}

void ReadRefresh::erased(uint32_t die, uint32_t block) {
  const std::size_t i = index(die, block);
  reads_[i] = 0;
  queued_[i] = kNo;
  if (rewrite.active && rewrite.die == die && rewrite.block == block) {
    rewrite.active = false;
    ++rewrites_taken_over;
  }
}

double ReadRefresh::estimate(uint32_t die, uint32_t block, uint32_t erases,
                             const sc_core::sc_time& now) const {
  const std::size_t i = index(die, block);
  return errors(erases, reference_days(die, i, now), double(reads_[i]));
}

double ReadRefresh::reference_days(uint32_t die, std::size_t i, const sc_core::sc_time& now) const {
  constexpr double kSecondsPerDay = 86400.0;
  if (!sensors_) {
    const double age_days = in_run_[i] ? (now - opened_at_[i]).to_seconds() / kSecondsPerDay
                                       : rel_.retention_days + now.to_seconds() / kSecondsPerDay;
    return age_days * acceleration_;
  }
  // The run's time at the die's temperature; before it, at the storage temperature.
  const double run_s = sensors_->die_retention_s(die);
  return in_run_[i] ? (run_s - opened_s_[i]) / kSecondsPerDay
                    : rel_.retention_days * acceleration_ + run_s / kSecondsPerDay;
}

double ReadRefresh::errors(uint32_t erases, double reference_days, double reads) const {
  const double rate =
      config::raw_rate(rel_, double(erases) + rel_.pe_cycles, reference_days, reads);
  return std::min(1.0, rate * worst_type_) * codeword_bits_;
}

void ReadRefresh::check(uint32_t die, uint32_t block, uint32_t erases, const sc_core::sc_time& now,
                        uint64_t& queued_count) {
  const std::size_t i = index(die, block);
  if (queued_[i] != kNo || estimate(die, block, erases, now) < threshold_) return;
  // A rewrite helps only where fresh data (unread, no age) on such a block is below the threshold:
  // where wear alone reaches it, rewriting would not end, and the block is counted instead.
  if (fresh_estimate(erases) >= threshold_) {
    queued_[i] = kBeyond;
    ++beyond_refresh;
    return;
  }
  queued_[i] = kQueued;
  queue_[die].push_back(block);
  ++queued_count;
}

void ReadRefresh::scanned(const sc_core::sc_time& now) {
  ++scans;
  // The next scan one interval on from the last one due (a late scan does not shift the grid).
  while (next_scan_ <= now) next_scan_ += interval_;
}

std::optional<uint32_t> ReadRefresh::next(uint32_t die) {
  std::deque<uint32_t>& q = queue_[die];
  while (!q.empty() && queued_[index(die, q.front())] != kQueued) q.pop_front();
  if (q.empty()) return std::nullopt;
  return q.front();
}

void ReadRefresh::take(uint32_t die) {
  const uint32_t block = queue_[die].front();
  queue_[die].pop_front();
  queued_[index(die, block)] = kNo;
}

}  // namespace ssd::fw
