#pragma once
// Where the page-level FTL's garbage collection is on each die (firmware/ftl/PageLevelGc.cpp):
// the victim incremental GC is collecting, the erase the next host page waits for (the hard
// watermark), and whether background GC still gains there.
//
// Garbage collection (docs/ftl.md#gc-modes), by ftl.gc_mode. "foreground": before a page is
// placed on a die with fewer than ftl.gc_threshold_blocks free blocks, GC reclaims victims
// chosen by ftl.gc_policy until it has enough again, copying their valid pages to the die's
// GC block. "incremental": below ftl.gc_soft_blocks each page placed on the die moves a
// bounded number of its victim's valid pages (gc_copies_per_write, or the victim's own rate)
// and erases the victim once it is empty; below gc_threshold_blocks, the hard watermark,
// collection runs at once, urgently (Hal::Urgent), until the die is back at it, and the host
// page waits for the erase that got it there (program_host). Each candidate the policy
// examines costs t_fw_per_page_us and one DRAM access; each copy one step, a reverse-map read
// and write, and the subclass's mapping update (moved()). Background GC (background_step) and
// static wear levelling reuse the same reclaim.
#include <cstdint>
#include <vector>

#include "firmware/Hal.h"
#include "firmware/StateArchive.h"

namespace ssd::fw {

class GcProgress {
 public:
  GcProgress(uint32_t dies, uint32_t slots_per_block);

  // Per die: the victim being collected incrementally, and the copies each page placed
  // brings (ceil(valid / invalid) when it was chosen).
  struct Collecting {
    bool active = false;
    uint32_t block = 0;
    uint32_t next_page = 0;
    uint32_t rate = 0;
  };
  // Valid pages an incremental victim with `valid` of them copies per host page placed: what
  // it copies over what it frees, rounded up (a dynamic SLC block frees a whole native block).
  uint32_t copy_rate(uint32_t valid) const {
    const uint32_t freed = slots_per_block_ - valid;
    return (valid + freed - 1) / freed;
  }
  // The erase the die's next host page waits for, once.
  OpId take_hold(uint32_t die) {
    const OpId after = hold[die];
    hold[die] = kNoOp;
    return after;
  }
  // Background GC finds nothing reclaimable on the die until the next host page, which may make
  // blocks reclaimable again (host_page).
  void stuck(uint32_t die) {
    bg_stuck[die] = true;
    any_bg_stuck = true;
  }
  void host_page() {
    if (!any_bg_stuck) return;
    bg_stuck.assign(bg_stuck.size(), false);
    any_bg_stuck = false;
  }
  // After a background victim on `die` (`free` free blocks and `full` full ones now,
  // `host_pages` host pages written so far): marks the die stuck when background GC there no
  // longer frees blocks.
  void watch_background(uint32_t die, uint32_t free, uint32_t full, uint64_t host_pages);
  // Nothing of the die is collected any more, nor waited for (it stopped answering).
  void forget(uint32_t die) {
    collecting[die] = Collecting{};
    hold[die] = kNoOp;
  }
  // For a state archive: the victims and held erases (`blocks_per_die`), and the background
  // cursor and stuck dies.
  void victims_state(StateArchive& a, uint32_t blocks_per_die);
  void background_state(StateArchive& a);

  std::vector<Collecting> collecting;
  std::vector<OpId> hold;      // per die: the erase the next host page waits for (hard watermark)
  uint32_t bg_die = 0;         // where background GC looks first
  std::vector<bool> bg_stuck;  // nothing reclaimable until the next host page
  bool any_bg_stuck = false;

 private:
  // Per die: background GC since host page `since` (its count), the best free-block count it
  // reached, the die's full blocks then, and the victims reclaimed since without passing it.
  struct BgProgress {
    uint64_t since = ~uint64_t(0);
    uint32_t best_free = 0, limit = 0, reclaims = 0;
  };
  std::vector<BgProgress> bg_progress_;
  uint32_t slots_per_block_;
};

}  // namespace ssd::fw
