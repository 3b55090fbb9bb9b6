// PageLevelFtl's read refresh (ftl.read_refresh, firmware/gc/ReadRefresh.h): scans, the blocks a
// rewrite may take, and the rewrite itself, one in flight at a time.
#include <optional>

#include "firmware/ftl/PageLevelFtl.h"

namespace ssd::fw {

void PageLevelFtl::register_refresh() {
  ReadRefresh& r = refresh_;
  statistics_.group("read_refresh")
      .counter("blocks_refreshed", StatUnit::Blocks,
               "Blocks rewritten because their estimated bit errors reached the threshold.",
               r.blocks_refreshed)
      .counter("units_moved", StatUnit::Units, "Valid mapping units the refreshes moved.",
               r.units_moved)
      .counter("queued_by_reads", StatUnit::Blocks,
               "Blocks queued for refresh as a read took their estimate past the threshold.",
               r.queued_by_reads)
      .counter("queued_by_scan", StatUnit::Blocks,
               "Blocks queued for refresh by a scan (their data's retention).", r.queued_by_scan)
      .counter("scans", StatUnit::None, "Scans of every full block's estimate.", r.scans)
      .counter("blocks_examined", StatUnit::Blocks, "Full blocks the scans examined.",
               r.blocks_examined)
      .counter("beyond_refresh", StatUnit::Blocks,
               "Blocks due whose wear alone reaches the threshold: not rewritten (it would not "
               "help), counted once per erase.",
               r.beyond_refresh);
}

bool PageLevelFtl::refresh_step(bool idle) {
  if (!refreshing()) return false;
  if (refresh_.scan_due(hal_.now())) scan_for_refresh();
  return refresh_one(idle);
}

void PageLevelFtl::scan_for_refresh() {
  Hal::Scope refresh(hal_, Work::Refresh);
  const sc_core::sc_time now = hal_.now();
  uint32_t examined = 0;
  for (uint32_t die = 0; die < dies_; ++die) {
    if (faults_.gone(die)) continue;
    for (const uint32_t block : blocks_.full_blocks(die)) {
      refresh_.examine(die, block, blocks_.erase_count(die, block), now);
      ++examined;
    }
  }
  // Each block: a firmware step and a DRAM access (its record), as a GC candidate costs.
  if (examined != 0) {
    hal_.compute(t_step_ * double(examined));
    hal_.dram_access(examined, false);
  }
  refresh_.scanned(now);
}

bool PageLevelFtl::refreshable(uint32_t die, uint32_t block) const {
  const GcProgress::Collecting& c = gc_.collecting[die];
  return blocks_.full(die, block) && !blocks_.modes().slc(die, block) && !blocks_.reserved(block) &&
         !(c.active && c.block == block);
}

bool PageLevelFtl::refresh_one(bool idle) {
  // One rewrite in flight: the flash, not the core, sets the pace (a block's copies take
  // milliseconds, a command's firmware microseconds).
  if (!hal_.ended_by_now(refresh_end_)) return false;
  for (uint32_t i = 0; i < dies_; ++i) {
    const uint32_t die = (refresh_die_ + i) % dies_;
    if (faults_.gone(die)) continue;
    std::optional<uint32_t> block;
    while ((block = refresh_.next(die)) && !refreshable(die, *block)) refresh_.take(die);
    // A block that does not fit the die's room waits for GC to make some.
    if (!block || !fits(die, *block)) continue;
    if (idle && refresh_.opened_since(die, *block, last_host_)) continue;
    refresh_.take(die);
    Hal::Scope refresh(hal_, Work::Refresh);
    refresh_end_ = reclaim(die, *block, refresh_.units_moved);
    ++refresh_.blocks_refreshed;
    refresh_die_ = (die + 1) % dies_;
    if (idle) hal_.pace_background(refresh_end_);
    return true;
  }
  return false;
}

}  // namespace ssd::fw
