#pragma once
// Per-die block bookkeeping shared by page-level FTLs: the free pool (FIFO, so wear spreads),
// which logical page each physical page holds (reverse map, whose memory is taken as blocks
// are first written, so it grows with the blocks a run touches), valid counts, erase counts, and an
// index of full blocks by valid count that makes the greedy victim an O(pages_per_block) look-up,
// the list of full blocks (the candidates other victim policies scan), when each block last changed
// (cost-benefit age) and per-die erase-count extremes kept up to date in O(1) (wear levelling).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <vector>

#include "common/HugePages.h"
#include "firmware/BlockModes.h"
#include "firmware/StateArchive.h"
#include "firmware/Types.h"

namespace ssd::fw {

class BlockManager {
 public:
  static constexpr Lpn kNoLpn = ~Lpn{0};
  // open_block on a die whose free pool is empty.
  struct NoFreeBlock : std::logic_error {
    using std::logic_error::logic_error;
  };

  static constexpr uint32_t kAnyPlane = ~uint32_t{0};

  // Block b of a die lies on plane b / blocks_per_plane (as the flash back end counts them).
  // The first `reserved_per_plane` blocks of every plane are kept out of the free pool and
  // the erase-count extremes: a region the caller manages (the SLC cache) with
  // open_reserved() and release_block().
  BlockManager(uint32_t dies, uint32_t blocks_per_die, uint32_t pages_per_block,
               uint32_t blocks_per_plane = 0,  // 0: one plane
               uint32_t reserved_per_plane = 0);

  uint32_t free_blocks(uint32_t die) const { return uint32_t(free_[die].size()); }
  // Takes the oldest free block of the die for writing, or with `most_worn` the free block
  // erased most often (wear levelling puts cold data there). Given a `plane`, the choice is
  // among that plane's free blocks; if the plane has none, among all (a page-level FTL keeps
  // free blocks per die, not per plane). Throws NoFreeBlock when none is free.
  // `mode`: the block's (SLC: the dynamic SLC cache's).
  uint32_t open_block(uint32_t die, bool most_worn = false, uint32_t plane = kAnyPlane,
                      BlockMode mode = BlockMode::Native);
  uint32_t plane_of(uint32_t block) const { return block / blocks_per_plane_; }
  bool reserved(uint32_t block) const { return block % blocks_per_plane_ < reserved_per_plane_; }
  // Opens a reserved block for writing, in SLC mode; it never becomes a GC candidate.
  void open_reserved(uint32_t die, uint32_t block);
  // The mode each block was opened in, which its commands carry.
  const BlockModes& modes() const { return modes_; }
  // A block whose last page was written becomes a GC candidate. `stamp`: the caller's clock
  // (any monotonic unit), recorded as the block's last change.
  void close_block(uint32_t die, uint32_t block, uint64_t stamp = 0);
  // After erase: back to the free pool (a reserved block: back to its caller).
  void release_block(uint32_t die, uint32_t block) { erased(die, block, State::Free); }
  // After an erase that failed (flash.faults), or with no erase after a program that failed
  // (`erase_failed` false): the block is bad, out of every pool for good, a failed erase counted
  // (its wear), out of the erase-count minimum (wear levelling's).
  void retire_block(uint32_t die, uint32_t block, bool erase_failed = true) {
    erased(die, block, State::Retired, erase_failed);
  }
  bool retired(uint32_t die, uint32_t block) const {
    return state_[index(die, block)] == State::Retired;
  }
  // The die's retired blocks, outside the reserve or in it (counted on demand: reports, errors).
  uint32_t retired_blocks(uint32_t die, bool in_reserve) const;

  // Bulk preconditioning, on a fresh manager: a block's erase count and, given `owners` (one
  // per page, kNoLpn for a page invalid or not written), its contents: full (a GC candidate)
  // or open; without, the block is free. `mode`: the block's. Then preset_pool for every die.
  void preset_block(uint32_t die, uint32_t block, uint32_t erases, const std::vector<Lpn>* owners,
                    bool full, BlockMode mode);
  // Bulk preconditioning: the die's free pool, oldest first; recounts its erase extremes.
  void preset_pool(uint32_t die, std::deque<uint32_t> pool);

  void set_valid(const Ppa& ppa, Lpn lpn);
  void invalidate(const Ppa& ppa, uint64_t stamp = 0);
  Lpn owner(const Ppa& ppa) const;  // kNoLpn if the page holds no valid data
  uint32_t valid_pages(uint32_t die, uint32_t block) const { return valid_[index(die, block)]; }
  // The die's valid pages (units) in all its blocks.
  uint64_t valid_on_die(uint32_t die) const { return die_valid_[die]; }
  uint32_t erase_count(uint32_t die, uint32_t block) const { return erases_[index(die, block)]; }
  bool full(uint32_t die, uint32_t block) const { return state_[index(die, block)] == State::Full; }

  // When the block was closed or last had a page invalidated (the stamps passed in).
  uint64_t last_change(uint32_t die, uint32_t block) const { return stamp_[index(die, block)]; }
  uint32_t pages_per_block() const { return ppb_; }
  uint32_t blocks_per_die() const { return blocks_per_die_; }
  uint32_t dies() const { return uint32_t(free_.size()); }

  // The full block with the fewest valid pages; false if the die has no full block.
  bool greedy_victim(uint32_t die, uint32_t& block) const;
  // The die's full blocks, in no particular order (removal swaps the last one in).
  const std::vector<uint32_t>& full_blocks(uint32_t die) const { return full_[die]; }

  // Erase-count extremes over all blocks of a die.
  uint32_t min_erases(uint32_t die) const { return min_erases_[die]; }
  uint32_t max_erases(uint32_t die) const { return max_erases_[die]; }
  struct EraseSummary {
    uint32_t min = 0, max = 0;
    double mean = 0, std = 0;  // population standard deviation
    // Of `n` blocks whose erase counts `erases(i)` gives (all zero when n is 0): shared by the
    // FTLs whatever table they keep the counts in.
    template <class Erases>
    static EraseSummary of(std::size_t n, Erases erases) {
      EraseSummary s;
      if (n == 0) return s;
      s.min = ~0u;
      double sum = 0, sq = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const uint32_t e = erases(i);
        s.min = std::min(s.min, e);
        s.max = std::max(s.max, e);
        sum += e;
        sq += double(e) * e;
      }
      s.mean = sum / double(n);
      s.std = std::sqrt(std::max(0.0, sq / double(n) - s.mean * s.mean));
      return s;
    }
  };
  EraseSummary erase_summary() const;

  // Saves or loads every table (a saved aged drive, docs/state.md); page owners are checked
  // against `owner_bound`.
  void state(StateArchive& a, uint64_t owner_bound);

 private:
  enum class State : uint8_t { Free, Open, Full, Retired };
  static constexpr uint32_t kNil = ~uint32_t{0};

  uint32_t index(uint32_t die, uint32_t block) const { return die * blocks_per_die_ + block; }
  void start_writing(uint32_t gb);
  // An erased block leaves the full blocks (if it was one) for state `to`; `counted`: its erase
  // (none for a block retired after a failed program).
  void erased(uint32_t die, uint32_t block, State to, bool counted = true);
  // Recounts the die's least erase count and its blocks, over the blocks outside the reserve.
  void recount_min(uint32_t die);
  uint32_t& head(uint32_t die, uint32_t valid) { return heads_[die * (ppb_ + 1) + valid]; }
  void link(uint32_t die, uint32_t gb);
  void unlink(uint32_t die, uint32_t gb);

  uint32_t blocks_per_die_;
  uint32_t blocks_per_plane_;
  uint32_t reserved_per_plane_;
  uint32_t ppb_;
  std::vector<std::deque<uint32_t>> free_;
  std::vector<State> state_;
  std::vector<uint32_t> valid_;
  std::vector<uint64_t> die_valid_;  // valid_ summed per die
  std::vector<uint32_t> erases_;
  std::vector<uint32_t> prev_, next_;  // doubly linked lists of full blocks per valid count
  std::vector<uint32_t> heads_;
  // Per block, a row of 32 bits a page (a validated drive has fewer than 2^32 - 1 pages), all
  // ones for none, written from the block's first open on (mapped_). Invalidation looks one up
  // at random across the drive: huge pages once the drive is known to fill (preset or loaded).
  static constexpr uint32_t kNoOwner = ~uint32_t{0};
  uint32_t* owners_of(uint32_t gb) { return &owners_[std::size_t(gb) * ppb_]; }
  LazyTable<uint32_t> owners_;
  std::vector<uint8_t> mapped_;
  std::vector<uint64_t> stamp_;
  std::vector<std::vector<uint32_t>> full_;                 // per die
  std::vector<uint32_t> full_pos_;                          // index of a full block in full_[die]
  std::vector<uint32_t> min_erases_, at_min_, max_erases_;  // per die; at_min_: blocks at min
  BlockModes modes_;
};

}  // namespace ssd::fw
