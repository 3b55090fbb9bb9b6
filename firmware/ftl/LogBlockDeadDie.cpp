// LogBlockFtl with a die that stops answering (flash.faults.dead_die,
// docs/reliability.md#a-die-that-stops-answering): a logical block lives on its die, so the die's
// logical blocks are lost whole; the firmware fails the host's writes that reach them (a trim
// there unmaps) and serves the rest of the drive from the other dies.
#include <vector>

#include "firmware/ftl/LogBlockFtl.h"

namespace ssd::fw {

OpId LogBlockFtl::lose_on_dead_die(Lpn lpn) {
  // Only the write buffer's pages reach here (the host's writes to the die fail): acknowledged,
  // with no block of their logical block to go to.
  if (lost_later_.insert(lpn).second && !has_data(lpn)) dead_.lost_later(lpn);
  if (on_lost_) on_lost_({lpn}, UnitLoss::DeadDie);
  return kNoOp;
}

void LogBlockFtl::trim_lost(Lpn lpn) {
  Hal::Scope mapping(*hal_, Work::Mapping);
  hal_->dram_access(map_entries_, false);
  const bool held = lost_later_.erase(lpn) != 0;
  if (current(lpn).exists)
    supersede(lpn);
  else if (!held)
    return;
  hal_->dram_access(1, true);
}

bool LogBlockFtl::refuses(Lpn first, Lpn last) {
  check_dead_die();
  if (!dead_.known()) return false;
  const Lbn from = lbn_of(first), to = lbn_of(last);
  if (to - from + 1 >= dies()) return true;  // every die's
  for (Lbn lbn = from; lbn <= to; ++lbn)
    if (die_of(lbn) == dead_.die()) return true;
  return false;
}

void LogBlockFtl::die_died() {
  const double now_s = hal_->now().to_seconds();
  dead_.learned(now_s);  // once
  const uint32_t die = dead_.die();
  spare_->dead(die, now_s);
  // The firmware changes nothing in its tables: a logical block's die follows from its number.
  // A copy-on-update a request left open there is dropped with its data.
  hal_->compute(t_step_);
  if (update_.lbn != kNoLbn && die_of(update_.lbn) == die) update_ = Update{};
  std::vector<Lpn> lost;
  for (Lbn lbn = die; lbn < lbns_; lbn += dies())
    for (Lpn lpn = lbn * ppb_; lpn < (lbn + 1) * ppb_ && lpn < logical_pages_; ++lpn)
      if (has_data(lpn)) lost.push_back(lpn);
  dead_.lost(lost);
  if (on_lost_) on_lost_(lost, UnitLoss::DeadDie);
}

}  // namespace ssd::fw
