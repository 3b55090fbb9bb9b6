#pragma once
// The dynamic part of the SLC cache (ftl.slc_dynamic, docs/ftl.md#slc-cache): free native
// blocks a die writes in SLC mode while its free space allows, as consumer drives do beside
// their static cache. The curve gives, for the die's free fraction, the share of its native
// blocks (those outside the static region) the cache may hold; linear between its points, the
// end points' shares beyond them. The free fraction counts the blocks the cache holds as free:
// taking a block into the cache does not shrink the cache's own allowance, and folding gives
// the block back; only data written in native mode (folded data too) fills the die.
//
// This class decides and counts; the page-level FTL (and its bulk model) opens and folds the
// blocks. A die never gives the cache a block that would leave it below the free blocks garbage
// collection keeps, so the cache alone never starts GC.
#include <cstdint>
#include <vector>

#include "config/FtlConfig.h"
#include "firmware/StateArchive.h"

namespace ssd::fw {

class DynamicSlc {
 public:
  DynamicSlc(std::vector<config::SlcDynamicPoint> curve, uint32_t dies,
             uint32_t native_blocks_per_die);
  bool enabled() const { return !curve_.empty(); }
  // Blocks the die may take into the cache now: `free` its free native blocks, `keep` the free
  // blocks garbage collection keeps.
  uint32_t room(uint32_t die, uint32_t free, uint32_t keep) const;
  // The dynamic blocks the curve allows a die with `free_or_held` blocks free or in its cache.
  uint32_t limit(uint32_t free_or_held) const;
  uint32_t held(uint32_t die) const { return held_[die]; }
  void took(uint32_t die);
  void gave_back(uint32_t die);

  // Dynamic blocks in the cache over all dies: now, and the least and most since reset_range().
  uint64_t blocks() const { return total_; }
  uint64_t least_blocks() const { return least_; }
  uint64_t most_blocks() const { return most_; }
  void reset_range() { least_ = most_ = total_; }

  void state(StateArchive& a);

 private:
  std::vector<config::SlcDynamicPoint> curve_;
  uint32_t native_;             // blocks per die outside the static region
  std::vector<uint32_t> held_;  // per die
  uint64_t total_ = 0, least_ = 0, most_ = 0;
};

}  // namespace ssd::fw
