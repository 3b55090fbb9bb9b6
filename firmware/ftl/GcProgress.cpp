#include "firmware/ftl/GcProgress.h"

#include <algorithm>

namespace ssd::fw {

GcProgress::GcProgress(uint32_t dies, uint32_t slots_per_block)
    : collecting(dies),
      hold(dies, kNoOp),
      bg_stuck(dies, false),
      bg_progress_(dies),
      slots_per_block_(slots_per_block) {}

void GcProgress::watch_background(uint32_t die, uint32_t free, uint32_t full, uint64_t host_pages) {
  // As a foreground run (collect_garbage), but over idle time without end: a die whose victims'
  // copies fill as much as they free would keep the drive busy forever. Since the last host page,
  // once as many victims as the die had full blocks have not raised its free blocks above their
  // best, it is left alone until the next host page.
  BgProgress& p = bg_progress_[die];
  if (p.since != host_pages || free > p.best_free) {
    p = BgProgress{host_pages, free, full, 0};
  } else if (++p.reclaims >= std::max(p.limit, 1u)) {
    stuck(die);
  }
}

void GcProgress::victims_state(StateArchive& a, uint32_t blocks_per_die) {
  for (Collecting& c : collecting) {
    a.flag(c.active);
    a.index(c.block, blocks_per_die, "block being collected");
    a.index(c.next_page, slots_per_block_ + 1, "page being collected");
    a.value(c.rate);
  }
  a.fixed(hold, "held erases");
}

void GcProgress::background_state(StateArchive& a) {
  const auto dies = uint32_t(collecting.size());
  a.index(bg_die, dies, "background GC die");
  a.flags(bg_stuck, dies, "background GC stuck");
  if (bg_stuck.size() != dies) StateArchive::invalid("background GC flags: not one per die");
  a.flag(any_bg_stuck);
}

}  // namespace ssd::fw
