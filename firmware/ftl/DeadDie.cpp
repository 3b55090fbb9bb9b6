#include "firmware/ftl/DeadDie.h"

#include <algorithm>
#include <iterator>

namespace ssd::fw {

DeadDie::DeadDie(const config::FaultConfig& cfg)
    : die_(cfg.dead_die),
      pending_(cfg.dead_die_at_ms > 0),
      at_(cfg.dead_die_at_ms > 0 ? sc_core::sc_time(cfg.dead_die_at_ms, sc_core::SC_MS)
                                 : sc_core::SC_ZERO_TIME) {}

void DeadDie::lost(std::vector<Lpn>& lost) {
  units_lost_ = lost.size();
  std::sort(lost.begin(), lost.end());
  for (const Lpn lpn : lost) {
    if (!lost_ranges_.empty() && lost_ranges_.back().first + lost_ranges_.back().count == lpn)
      ++lost_ranges_.back().count;
    else
      lost_ranges_.push_back(Ftl::LostRange{lpn, 1});
  }
}

void DeadDie::lost_later(Lpn lpn) {
  ++units_lost_;
  // The first range after it, and the one before (if any): joined where they touch.
  auto next = std::upper_bound(lost_ranges_.begin(), lost_ranges_.end(), lpn,
                               [](Lpn l, const Ftl::LostRange& r) { return l < r.first; });
  if (next != lost_ranges_.begin()) {
    Ftl::LostRange& before = *std::prev(next);
    if (lpn < before.first + before.count) {  // already lost: not counted twice
      --units_lost_;
      return;
    }
    if (before.first + before.count == lpn) {
      ++before.count;
      if (next != lost_ranges_.end() && next->first == lpn + 1) {
        before.count += next->count;
        lost_ranges_.erase(next);
      }
      return;
    }
  }
  if (next != lost_ranges_.end() && next->first == lpn + 1) {
    --next->first;
    ++next->count;
    return;
  }
  lost_ranges_.insert(next, Ftl::LostRange{lpn, 1});
}

void DeadDie::register_figures(Statistics& statistics) {
  statistics.group("faults")
      .derived("dead_die", StatUnit::None, "The die that stops answering (flash.faults.dead_die).",
               [die = die_] { return double(die); })
      .derived(
          "dead_die_at_s", StatUnit::Seconds,
          "When the firmware learned that die flash.faults.dead_die had stopped answering (its "
          "first step from flash.faults.dead_die_at_ms on); null: it did not in the run.",
          [this] { return learned_at_s_; })
      .counter("units_lost", StatUnit::Units,
               "Logical units (ftl.mapping_unit_bytes) the dead die held: their data is lost until "
               "the host writes them again.",
               units_lost_)
      .derived("lost_ranges", StatUnit::None,
               "Runs of consecutive logical units among them (the stripe over the dies scatters "
               "a die's data over the logical space).",
               [this] { return double(lost_ranges_.size()); })
      .counter("reads_lost", StatUnit::Units,
               "Unit reads that found their unit lost with the die: a host read's, failing its "
               "command with an unrecovered read error, or a partial write's old data (the write "
               "goes on and heals the unit).",
               reads_lost);
}

}  // namespace ssd::fw
