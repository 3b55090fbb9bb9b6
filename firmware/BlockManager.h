#pragma once
// Per-die block bookkeeping shared by page-level FTLs: the free pool (FIFO, so wear spreads),
// which logical page each physical page holds (reverse map, allocated per block on first use
// so memory grows with the blocks a run touches), valid counts, erase counts, and an index of
// full blocks by valid count that makes the greedy victim an O(pages_per_block) look-up.
#include <cstdint>
#include <deque>
#include <vector>

#include "firmware/Types.h"

namespace ssd::fw {

class BlockManager {
 public:
  static constexpr Lpn kNoLpn = ~Lpn{0};

  BlockManager(uint32_t dies, uint32_t blocks_per_die, uint32_t pages_per_block);

  uint32_t free_blocks(uint32_t die) const { return uint32_t(free_[die].size()); }
  // Takes the oldest free block of the die for writing. Throws std::logic_error when none.
  uint32_t open_block(uint32_t die);
  // A block whose last page was written becomes a GC candidate.
  void close_block(uint32_t die, uint32_t block);
  // After erase: back to the free pool.
  void release_block(uint32_t die, uint32_t block);

  void set_valid(const Ppa& ppa, Lpn lpn);
  void invalidate(const Ppa& ppa);
  Lpn owner(const Ppa& ppa) const;  // kNoLpn if the page holds no valid data
  uint32_t valid_pages(uint32_t die, uint32_t block) const { return valid_[index(die, block)]; }
  uint32_t erase_count(uint32_t die, uint32_t block) const { return erases_[index(die, block)]; }

  // The full block with the fewest valid pages; false if the die has no full block.
  bool greedy_victim(uint32_t die, uint32_t& block) const;

 private:
  enum class State : uint8_t { Free, Open, Full };
  static constexpr uint32_t kNil = ~uint32_t{0};

  uint32_t index(uint32_t die, uint32_t block) const { return die * blocks_per_die_ + block; }
  uint32_t& head(uint32_t die, uint32_t valid) { return heads_[die * (ppb_ + 1) + valid]; }
  void link(uint32_t die, uint32_t gb);
  void unlink(uint32_t die, uint32_t gb);

  uint32_t blocks_per_die_;
  uint32_t ppb_;
  std::vector<std::deque<uint32_t>> free_;
  std::vector<State> state_;
  std::vector<uint32_t> valid_;
  std::vector<uint32_t> erases_;
  std::vector<uint32_t> prev_, next_;  // doubly linked lists of full blocks per valid count
  std::vector<uint32_t> heads_;
  std::vector<std::vector<Lpn>> owners_;  // per block, sized on first open
};

}  // namespace ssd::fw
