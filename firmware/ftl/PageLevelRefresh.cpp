// PageLevelFtl's read refresh (ftl.read_refresh, firmware/gc/ReadRefresh.h): scans, the blocks a
// rewrite may take, and the rewrite itself, a block at a time, in steps of units_per_step.
#include <optional>
#include <vector>

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
               r.beyond_refresh)
      .counter("rewrites_taken_over", StatUnit::Blocks,
               "Blocks whose rewrite, under way a step at a time (units_per_step), GC or wear "
               "levelling took over (incremental GC's victim, or erased): not in "
               "blocks_refreshed.",
               r.rewrites_taken_over)
      .total("host_core_s", StatUnit::Seconds,
             "Core time the scans and rewrite steps took before host commands' own FTL work: the "
             "commands waited for it, and those queued behind them for the core.",
             r.host_core_s);
}

bool PageLevelFtl::refresh_step(bool idle) {
  if (!refreshing()) return false;
  ReadRefresh::Scan& scan = refresh_.scan;
  if (!scan.active && refresh_.scan_due(hal_.now())) scan = ReadRefresh::Scan{true, 0, 0};
  if (scan.active) scan_for_refresh();
  // Idle time goes on with a scan under way.
  return refresh_one(idle) || (idle && scan.active);
}

void PageLevelFtl::scan_for_refresh() {
  Hal::Scope refresh(hal_, Work::Refresh);
  const sc_core::sc_time now = hal_.now();
  ReadRefresh::Scan& scan = refresh_.scan;
  const uint32_t step = refresh_.units_per_step();
  const uint32_t budget = step == 0 ? ~0u : step;
  uint32_t examined = 0;
  while (scan.die < dies_ && examined < budget) {
    if (!faults_.gone(scan.die)) {
      const std::vector<uint32_t>& full = blocks_.full_blocks(scan.die);
      for (; scan.pos < full.size() && examined < budget; ++scan.pos, ++examined)
        refresh_.examine(scan.die, full[scan.pos], blocks_.erase_count(scan.die, full[scan.pos]),
                         now);
      if (scan.pos < full.size()) break;
    }
    ++scan.die;
    scan.pos = 0;
  }
  // Each block: a firmware step and a DRAM access (its record), as a GC candidate costs.
  if (examined != 0) {
    hal_.compute(t_step_ * double(examined));
    hal_.dram_access(examined, false);
  }
  if (scan.die < dies_) return;
  scan.active = false;
  refresh_.scanned(now);
}

bool PageLevelFtl::refreshable(uint32_t die, uint32_t block) const {
  const GcProgress::Collecting& c = gc_.collecting[die];
  return blocks_.full(die, block) && !blocks_.modes().slc(die, block) && !blocks_.reserved(block) &&
         !(c.active && c.block == block);
}

bool PageLevelFtl::refresh_one(bool idle) {
  // One rewrite step in flight: the flash, not the core, sets the pace (a block's copies take
  // milliseconds, a command's firmware microseconds).
  if (!hal_.ended_by_now(refresh_end_)) {
    // Idle time waits for it, then looks again: work may be left (a host command's step, not
    // paced, began it).
    if (idle) hal_.pace_background(refresh_end_);
    return idle;
  }
  ReadRefresh::Rewrite& r = refresh_.rewrite;
  // A rewrite under way ends where its die stopped answering, or where incremental GC took its
  // block as its victim (GC finishes it: taken over); a step waits while the rest does not fit
  // the die's room.
  if (r.active && faults_.gone(r.die)) r.active = false;
  if (r.active && !refreshable(r.die, r.block)) {
    r.active = false;
    ++refresh_.rewrites_taken_over;
  }
  if (!r.active && !begin_rewrite(idle)) return false;
  if (!fits(r.die, r.block)) return false;
  Hal::Scope refresh(hal_, Work::Refresh);
  const uint32_t step = refresh_.units_per_step();
  refresh_end_ = move_valid(r.die, r.block, slots_per_block_, r.next, step == 0 ? ~0u : step,
                            refresh_.units_moved);
  // Erased as soon as nothing valid is left, not a step later.
  while (r.next < slots_per_block_ &&
         blocks_.owner(Ppa{r.die, r.block, r.next}) == BlockManager::kNoLpn)
    ++r.next;
  if (r.next == slots_per_block_) {
    r.active = false;  // before the erase, which would count it taken over
    refresh_end_ = erase_moved(r.die, r.block);
    ++refresh_.blocks_refreshed;
  }
  if (idle) hal_.pace_background(refresh_end_);
  return true;
}

bool PageLevelFtl::begin_rewrite(bool idle) {
  for (uint32_t i = 0; i < dies_; ++i) {
    const uint32_t die = (refresh_die_ + i) % dies_;
    if (faults_.gone(die)) continue;
    std::optional<uint32_t> block;
    while ((block = refresh_.next(die)) && !refreshable(die, *block)) refresh_.take(die);
    // A block that does not fit the die's room waits for GC to make some.
    if (!block || !fits(die, *block)) continue;
    if (idle && refresh_.opened_since(die, *block, last_host_)) continue;
    refresh_.take(die);
    refresh_.rewrite = ReadRefresh::Rewrite{true, die, *block, 0};
    refresh_die_ = (die + 1) % dies_;
    return true;
  }
  return false;
}

}  // namespace ssd::fw
