// PageLevelFtl with a die that stops answering (flash.faults.dead_die,
// docs/reliability.md#a-die-that-stops-answering): the firmware takes the die out of use, marks
// the units it held lost (a host read of one fails; a write or trim of it heals it) and serves
// the rest of the drive from the other dies.
#include <vector>

#include "firmware/ftl/PageLevelFtl.h"

namespace ssd::fw {

void PageLevelFtl::die_died() {
  const double now_s = hal_.now().to_seconds();
  faults_.dead.learned(now_s);  // once
  const uint32_t die = faults_.config().dead_die;
  // One-shot programming: the back end holds the pages of a word line until it is whole, so the
  // programs the firmware sent the die before it learned would never end. They are finished as
  // at a pause (their data is lost with the die).
  for (std::vector<Stream>* streams : all_streams())
    if (streams != &slc_.streams) seal(die, (*streams)[die]);
  faults_.spare()->dead(die, now_s);
  // Nothing of the die is worked on any more: its victims, its SLC cache's folding, its blocks
  // waiting to be retired, the erase its next host page would have waited for.
  gc_.forget(die);
  slc_.forget(die);
  faults_.forget_failed(die);
  // The firmware walks the die's block records (a step each) and marks each unit they hold lost
  // (a mapping-table write each where the FTL keeps its entry in DRAM).
  std::vector<Lpn> lost, mapping_pages;
  lost.reserve(blocks_.valid_on_die(die));
  uint32_t entries_written = 0;
  const uint32_t blocks = blocks_.blocks_per_die();
  for (uint32_t b = 0; b < blocks; ++b) {
    if (blocks_.valid_pages(die, b) == 0) continue;
    for (uint32_t s = 0; s < slots_per_block_; ++s) {
      const Ppa slot{die, b, s};
      const Lpn owner = blocks_.owner(slot);
      if (owner == BlockManager::kNoLpn) continue;
      blocks_.invalidate(slot, clock());
      if (is_mapping(owner)) {
        if (s % units_ == 0) mapping_pages.push_back(owner);  // a mapping page: its units alike
        continue;
      }
      entries_written += lose(owner);
      lost.push_back(owner);
    }
  }
  hal_.compute(t_step_ * double(blocks));
  {
    Hal::Scope mapping(hal_, Work::Mapping);
    if (entries_written > 0) hal_.dram_access(entries_written, true);
  }
  faults_.dead.lost(lost);
  if (on_lost_) on_lost_(lost, UnitLoss::DeadDie);
  rebuild_mapping(mapping_pages, die);
}

}  // namespace ssd::fw
