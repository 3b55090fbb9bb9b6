#include "firmware/ftl/FastFtl.h"

namespace ssd::fw {

FastFtl::FastFtl(const config::DriveConfig& cfg, Hal& hal)
    : LogBlockFtl(cfg, hal, "fast"), random_(dies()) {
  for (Area& a : random_) {
    for (uint32_t s = 1; s < log_blocks_per_die(); ++s) a.slots.push_back(s);
    a.victim = Victim::Fifo;
  }
}

OpId FastFtl::write_page(Lpn lpn, const PageToken& data, OpId data_from) {
  const Lbn lbn = lbn_of(lpn);
  const uint32_t die = die_of(lbn);
  const uint32_t off = offset_of(lpn);
  if (dedicated_slot(lbn) == kSequentialSlot && slot_next(die, kSequentialSlot) == off) {
    const OpId done = append(die, kSequentialSlot, lpn, data, data_from);
    if (slot_full(die, kSequentialSlot)) clean(die, kSequentialSlot);
    return done;
  }
  if (off == 0) {
    clean(die, kSequentialSlot);
    dedicate(die, kSequentialSlot, lbn);
    return append(die, kSequentialSlot, lpn, data, data_from);
  }
  return append_to_area(die, random_[die], lpn, data, data_from);
}

}  // namespace ssd::fw
