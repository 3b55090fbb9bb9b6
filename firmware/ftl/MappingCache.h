#pragma once
// DFTL's cached mapping table (firmware/ftl/Dftl.h): up to `capacity` entries in LRU order,
// each clean or dirty, the dirty ones linked per translation page so that writing a
// translation page cleans them in O(their number). Flat arrays and an open-addressing index:
// no allocation per look-up, which bulk preconditioning does twice per host page (about 480
// million on the 460 GB case-study drive). Storage grows with the entries in use, not with
// the capacity a config allows.
#include <cstdint>
#include <vector>

#include "firmware/Hal.h"
#include "firmware/StateArchive.h"
#include "firmware/Types.h"

namespace ssd::fw {

class MappingCache {
 public:
  static constexpr uint32_t kNone = ~0u;

  MappingCache(uint64_t capacity, uint64_t translation_pages, uint32_t entries_per_tp);

  uint64_t size() const { return size_; }
  bool full() const { return size_ >= capacity_; }
  // The entry's slot, kNone if it is not cached.
  uint32_t find(Lpn lpn) const;
  // The entry becomes the most recently used.
  void touch(uint32_t slot);
  // Caches `lpn` (not cached, cache not full) as the most recently used, clean; `loading`:
  // the translation-page read that brings it in.
  void insert(Lpn lpn, OpId loading);
  // The least recently used entry leaves (cache not empty); whether it was dirty.
  struct Evicted {
    Lpn lpn;
    bool dirty;
  };
  Evicted evict();
  // Whether evict() would take a dirty entry (cache not empty).
  bool oldest_dirty() const { return slots_[oldest_].dirty; }
  OpId loading(uint32_t slot) const { return slots_[slot].loading; }
  void mark_dirty(uint32_t slot);
  // Translation page `tvpn` was written: its dirty cached entries are clean. Returns how many.
  uint32_t clean(uint64_t tvpn);
  // Saves or loads the entries, their LRU order and dirty lists (a saved aged drive); the
  // index is rebuilt. Entries are logical pages below `lpn_bound`.
  void state(StateArchive& a, uint64_t lpn_bound);

 private:
  struct Slot {
    Lpn lpn;
    OpId loading;
    uint32_t newer, older;            // LRU neighbours
    uint32_t next_dirty, prev_dirty;  // the translation page's dirty list
    bool dirty;
    uint8_t unused[7] = {};  // the padding, zero: slots are saved as bytes
  };
  size_t home(Lpn lpn) const;
  void unlink_lru(uint32_t slot);
  void unlink_dirty(uint32_t slot);
  void index_insert(uint32_t slot);
  void index_erase(Lpn lpn);

  uint64_t capacity_;
  uint32_t entries_per_tp_;
  uint64_t size_ = 0;
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_;  // slots of evicted entries, reused first
  uint32_t newest_ = kNone, oldest_ = kNone;
  std::vector<uint32_t> dirty_head_;  // per translation page
  std::vector<uint32_t> index_;       // open addressing (linear probing): slot or kNone
  uint32_t shift_;                    // 64 - log2(index_.size())
};

}  // namespace ssd::fw
