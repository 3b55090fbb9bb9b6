#pragma once
// The page-level FTL's SLC cache (ftl.slc_cache_blocks_per_plane, ftl.slc_dynamic,
// docs/ftl.md#slc-cache): its streams, its pools of free and full blocks, and where folding
// is on each die. Host pages go to the die's SLC stream (blocks of the reserved region, written
// in SLC mode, as many lanes as the host stream) while the die has room there (with
// ftl.slc_dynamic also free native blocks taken in SLC mode while the die's free space allows,
// firmware/ftl/DynamicSlc.h); else, with slc_fold "on_full", the die's oldest full SLC block is
// folded first; else the page goes to the main region. Folding copies a block's valid pages to
// the die's GC stream and erases it; idle time folds every full SLC block (background_step),
// oldest first, one main-region word line per plane lane at a time on every die, each step paced
// by the flash. GC folds the die's full dynamic SLC blocks before it takes a main-region victim:
// a filling drive takes its blocks back. PageLevelFtl places, folds and erases
// (firmware/ftl/PageLevelSlc.cpp); this class keeps the cache's state and answers what needs
// only it and the block manager.
#include <cstdint>
#include <deque>
#include <vector>

#include "config/DriveConfig.h"
#include "firmware/BlockManager.h"
#include "firmware/Hal.h"
#include "firmware/StateArchive.h"
#include "firmware/ftl/DynamicSlc.h"
#include "firmware/ftl/Streams.h"

namespace ssd::fw {

class SlcCache {
 public:
  // `lanes`: the host stream's, as many as each SLC stream has.
  SlcCache(const config::DriveConfig& cfg, uint32_t lanes);

  // Whether the die's SLC stream can take its next page (`keep`: the free blocks GC keeps).
  bool room(uint32_t die, const BlockManager& blocks, uint32_t keep) const;
  // A free SLC block of the die, opened: a static one on `plane`, else a free native block the
  // dynamic cache takes (on `plane` if it can), else any static one.
  uint32_t open(uint32_t die, uint32_t plane, BlockManager& blocks, uint32_t keep);
  // The die's oldest full dynamic SLC block in `full` (its end: none).
  std::deque<uint32_t>::iterator oldest_dynamic(uint32_t die, const BlockManager& blocks);
  // A block of the dynamic SLC cache: a native block written in SLC mode.
  static bool dynamic_block(const BlockManager& blocks, uint32_t die, uint32_t block) {
    return !blocks.reserved(block) && blocks.modes().slc(die, block);
  }
  // Whether the die has an SLC block being folded or full.
  bool fold_pending(uint32_t die) const { return folding[die].active || !full[die].empty(); }
  // A block whose valid pages all moved was erased (or retired): back in its pool (static or
  // free).
  void folded(uint32_t die, uint32_t block, const BlockManager& blocks);
  // Nothing of the die is folded any more (it stopped answering).
  void forget(uint32_t die);
  // The pools, the folding cursors and the dynamic cache, for a state archive (the streams are
  // the FTL's to list).
  void state(StateArchive& a, uint32_t blocks_per_die, uint32_t slots_per_block);

  config::SlcRegion region;
  bool on;  // a static or a dynamic SLC cache
  DynamicSlc dynamic;
  bool fold_on_full;
  std::vector<Stream> streams;
  std::vector<std::deque<uint32_t>> pool, full;  // per die: free static blocks; full: oldest first
  uint32_t fold_step_pages;                      // a main-region word line per host lane
  struct Folding {
    bool active = false;
    uint32_t block = 0;
    uint32_t next_page = 0;
  };
  std::vector<Folding> folding;  // per die: the SLC block being folded
  std::vector<OpId> fold_end;    // per die: the last command of its latest background step
  // Per die: that step's place in issue order (this run's: the ids it orders are not saved).
  std::vector<uint64_t> fold_issued;
  uint64_t fold_steps = 0;
};

}  // namespace ssd::fw
