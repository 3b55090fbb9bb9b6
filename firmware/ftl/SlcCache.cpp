#include "firmware/ftl/SlcCache.h"

#include <algorithm>

namespace ssd::fw {

SlcCache::SlcCache(const config::DriveConfig& cfg, uint32_t lanes)
    : region(cfg.slc_region()),
      on(cfg.ftl.slc_cache_blocks_per_plane != 0 || !cfg.ftl.slc_dynamic.empty()),
      dynamic(cfg.ftl.slc_dynamic, cfg.flash.dies(),
              cfg.flash.blocks_per_die() -
                  cfg.ftl.slc_cache_blocks_per_plane * cfg.flash.planes_per_die),
      fold_on_full(cfg.ftl.slc_fold == config::SlcFold::OnFull),
      streams(cfg.flash.dies(), Stream(lanes, true)),
      pool(cfg.flash.dies()),
      full(cfg.flash.dies()),
      fold_step_pages(cfg.flash.bits_per_cell() * lanes * cfg.units_per_page()),
      folding(cfg.flash.dies()),
      fold_end(cfg.flash.dies(), kNoOp),
      fold_issued(cfg.flash.dies(), 0) {
  for (auto& blocks : pool)
    for (uint32_t b = 0; b < cfg.flash.blocks_per_die(); ++b)
      if (region.contains(b)) blocks.push_back(b);
}

bool SlcCache::room(uint32_t die, const BlockManager& blocks, uint32_t keep) const {
  const Stream& s = streams[die];
  if (s.next_page != 0) return true;
  // At page offset 0 each lane still to come opens a block, static or dynamic.
  return pool[die].size() + dynamic.room(die, blocks.free_blocks(die), keep) >=
         s.blocks.size() - s.lane;
}

uint32_t SlcCache::open(uint32_t die, uint32_t plane, BlockManager& blocks, uint32_t keep) {
  auto& free = pool[die];
  auto it = std::find_if(free.begin(), free.end(), [&](uint32_t b) {
    return plane == BlockManager::kAnyPlane || blocks.plane_of(b) == plane;
  });
  // room() counted the dynamic room before GC ran for this page: an empty static pool takes a
  // free block even if that GC's copies used the room up.
  if (it == free.end() && (free.empty() || dynamic.room(die, blocks.free_blocks(die), keep) != 0)) {
    const uint32_t block = blocks.open_block(die, false, plane, BlockMode::Slc);
    dynamic.took(die);
    return block;
  }
  if (it == free.end()) it = free.begin();
  const uint32_t block = *it;
  free.erase(it);
  blocks.open_reserved(die, block);
  return block;
}

std::deque<uint32_t>::iterator SlcCache::oldest_dynamic(uint32_t die, const BlockManager& blocks) {
  auto& blocks_full = full[die];
  return std::find_if(blocks_full.begin(), blocks_full.end(),
                      [&](uint32_t b) { return !blocks.reserved(b); });
}

void SlcCache::folded(uint32_t die, uint32_t block, const BlockManager& blocks) {
  if (blocks.reserved(block)) {
    if (!blocks.retired(die, block)) pool[die].push_back(block);  // else the cache shrinks
  } else {
    dynamic.gave_back(die);  // erase_moved put it back in the free pool (or retired it)
  }
}

void SlcCache::forget(uint32_t die) {
  folding[die] = Folding{};
  full[die].clear();
  fold_end[die] = kNoOp;
}

void SlcCache::state(StateArchive& a, uint32_t blocks_per_die, uint32_t slots_per_block) {
  for (auto* pools : {&pool, &full})
    for (std::deque<uint32_t>& blocks : *pools)
      a.indexes(blocks, blocks_per_die, blocks_per_die, "SLC cache block");
  for (Folding& f : folding) {
    a.flag(f.active);
    a.index(f.block, blocks_per_die, "block being folded");
    a.index(f.next_page, slots_per_block + 1, "page being folded");
  }
  a.fixed(fold_end, "fold ends");
  dynamic.state(a);
}

}  // namespace ssd::fw
