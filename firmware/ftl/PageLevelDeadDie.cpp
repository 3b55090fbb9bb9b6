// PageLevelFtl with a die that stops answering (flash.faults.dead_die,
// docs/reliability.md#a-die-that-stops-answering): the firmware takes the die out of use, marks
// the units it held lost (a host read of one fails; a write or trim of it heals it) and serves
// the rest of the drive from the other dies.
#include <algorithm>
#include <vector>

#include "firmware/ftl/PageLevelFtl.h"

namespace ssd::fw {

void PageLevelFtl::die_died() {
  dead_die_pending_ = false;  // learned once
  const uint32_t die = faults_.dead_die;
  const double now_s = hal_.now().to_seconds();
  died_at_s_ = now_s;
  // One-shot programming: the back end holds the pages of a word line until it is whole, so the
  // programs the firmware sent the die before it learned would never end. They are finished as
  // at a pause (their data is lost with the die).
  for (std::vector<Stream>* streams : {&host_streams_, &gc_streams_, &map_streams_})
    seal(die, (*streams)[die]);
  spare_->dead(die, now_s);
  // Nothing of the die is worked on any more: its victims, its SLC cache's folding, its blocks
  // waiting to be retired, the erase its next host page would have waited for.
  collecting_[die] = Collecting{};
  folding_[die] = Folding{};
  slc_full_[die].clear();
  failed_[die].clear();
  hold_[die] = kNoOp;
  fold_end_[die] = kNoOp;
  // The firmware walks the die's block records (a step each) and unmaps each unit they hold (a
  // mapping-table write each).
  std::vector<Lpn> lost;
  lost.reserve(blocks_.valid_on_die(die));
  const uint32_t blocks = blocks_.blocks_per_die();
  for (uint32_t b = 0; b < blocks; ++b) {
    if (blocks_.valid_pages(die, b) == 0) continue;
    for (uint32_t s = 0; s < slots_per_block_; ++s) {
      const Ppa slot{die, b, s};
      const Lpn owner = blocks_.owner(slot);
      if (owner == BlockManager::kNoLpn) continue;
      blocks_.invalidate(slot, clock());
      lose(owner);
      lost.push_back(owner);
    }
  }
  hal_.compute(t_step_ * double(blocks));
  {
    Hal::Scope mapping(hal_, Work::Mapping);
    if (!lost.empty()) hal_.dram_access(uint32_t(lost.size()), true);
  }
  units_lost_ = lost.size();
  std::sort(lost.begin(), lost.end());
  for (const Lpn lpn : lost) {
    if (!lost_ranges_.empty() && lost_ranges_.back().first + lost_ranges_.back().count == lpn)
      ++lost_ranges_.back().count;
    else
      lost_ranges_.push_back(LostRange{lpn, 1});
  }
  if (on_lost_) on_lost_(lost, UnitLoss::DeadDie);
}

void PageLevelFtl::register_dead_die() {
  statistics_.group("faults")
      .derived("dead_die", StatUnit::None, "The die that stops answering (flash.faults.dead_die).",
               [die = faults_.dead_die] { return double(die); })
      .derived(
          "dead_die_at_s", StatUnit::Seconds,
          "When the firmware learned that die flash.faults.dead_die had stopped answering (its "
          "first step from flash.faults.dead_die_at_ms on); null: it did not in the run.",
          [this] { return died_at_s_; })
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
               reads_lost_);
}

}  // namespace ssd::fw
