#include "firmware/ftl/MappingCache.h"

#include <algorithm>

namespace ssd::fw {

MappingCache::MappingCache(uint64_t capacity, uint64_t translation_pages, uint32_t entries_per_tp)
    : capacity_(capacity),
      entries_per_tp_(entries_per_tp),
      dirty_head_(translation_pages, kNone),
      index_(16, kNone),
      shift_(64 - 4) {}

size_t MappingCache::home(Lpn lpn) const {
  return size_t((lpn * 0x9e3779b97f4a7c15ull) >> shift_);  // Fibonacci hashing
}

uint32_t MappingCache::find(Lpn lpn) const {
  const size_t mask = index_.size() - 1;
  for (size_t i = home(lpn);; i = (i + 1) & mask) {
    const uint32_t s = index_[i];
    if (s == kNone || slots_[s].lpn == lpn) return s;
  }
}

void MappingCache::index_insert(uint32_t slot) {
  const size_t mask = index_.size() - 1;
  size_t i = home(slots_[slot].lpn);
  while (index_[i] != kNone) i = (i + 1) & mask;
  index_[i] = slot;
}

// Linear probing's deletion by backward shift: later entries of the probe run move up, so a
// look-up never stops at a hole before its entry.
void MappingCache::index_erase(Lpn lpn) {
  const size_t mask = index_.size() - 1;
  size_t i = home(lpn);
  while (slots_[index_[i]].lpn != lpn) i = (i + 1) & mask;
  for (size_t j = (i + 1) & mask; index_[j] != kNone; j = (j + 1) & mask) {
    const size_t h = home(slots_[index_[j]].lpn);
    // Entry j may fill hole i unless its home lies cyclically in (i, j].
    if (((j - h) & mask) >= ((j - i) & mask)) {
      index_[i] = index_[j];
      i = j;
    }
  }
  index_[i] = kNone;
}

void MappingCache::unlink_lru(uint32_t slot) {
  Slot& s = slots_[slot];
  (s.newer == kNone ? newest_ : slots_[s.newer].older) = s.older;
  (s.older == kNone ? oldest_ : slots_[s.older].newer) = s.newer;
}

void MappingCache::touch(uint32_t slot) {
  if (slot == newest_) return;
  unlink_lru(slot);
  Slot& s = slots_[slot];
  s.newer = kNone;
  s.older = newest_;
  slots_[newest_].newer = slot;
  newest_ = slot;
}

void MappingCache::insert(Lpn lpn, OpId loading) {
  if ((size_ + 1) * 2 > index_.size()) {  // at most half full: short probe runs
    index_.assign(index_.size() * 2, kNone);
    --shift_;
    for (uint32_t s = newest_; s != kNone; s = slots_[s].older) index_insert(s);
  }
  uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
  } else {
    slot = uint32_t(slots_.size());
    slots_.emplace_back();
  }
  slots_[slot] = Slot{lpn, loading, kNone, newest_, kNone, kNone, false};
  if (newest_ != kNone) slots_[newest_].newer = slot;
  newest_ = slot;
  if (oldest_ == kNone) oldest_ = slot;
  index_insert(slot);
  ++size_;
}

MappingCache::Evicted MappingCache::evict() {
  const uint32_t slot = oldest_;
  const Slot& s = slots_[slot];
  const Evicted out{s.lpn, s.dirty};
  if (s.dirty) unlink_dirty(slot);
  index_erase(s.lpn);
  unlink_lru(slot);
  free_.push_back(slot);
  --size_;
  return out;
}

void MappingCache::mark_dirty(uint32_t slot) {
  Slot& s = slots_[slot];
  if (s.dirty) return;
  s.dirty = true;
  uint32_t& head = dirty_head_[s.lpn / entries_per_tp_];
  s.prev_dirty = kNone;
  s.next_dirty = head;
  if (head != kNone) slots_[head].prev_dirty = slot;
  head = slot;
}

void MappingCache::unlink_dirty(uint32_t slot) {
  Slot& s = slots_[slot];
  if (s.prev_dirty == kNone)
    dirty_head_[s.lpn / entries_per_tp_] = s.next_dirty;
  else
    slots_[s.prev_dirty].next_dirty = s.next_dirty;
  if (s.next_dirty != kNone) slots_[s.next_dirty].prev_dirty = s.prev_dirty;
  s.dirty = false;
}

uint32_t MappingCache::clean(uint64_t tvpn) {
  uint32_t cleaned = 0;
  for (uint32_t s = dirty_head_[tvpn]; s != kNone; s = slots_[s].next_dirty) {
    slots_[s].dirty = false;
    ++cleaned;
  }
  dirty_head_[tvpn] = kNone;
  return cleaned;
}

}  // namespace ssd::fw

namespace ssd::fw {

void MappingCache::state(StateArchive& a, uint64_t lpn_bound) {
  a.section("cached mapping table");
  a.count(size_, capacity_, "cached entries");
  a.array(slots_, capacity_, "cache slots");
  const uint64_t n = slots_.size();
  a.indexes(free_, n, n, "free cache slot");
  a.index(newest_, n, "newest cached entry", kNone);
  a.index(oldest_, n, "oldest cached entry", kNone);
  a.fixed_indexes(dirty_head_, n, "dirty cached entry", kNone);
  uint64_t index_size = index_.size();
  a.count(index_size, 4 * capacity_ + 16, "cache index");
  if (!a.loading()) return;
  if (index_size < 16 || (index_size & (index_size - 1)) != 0 || size_ * 2 > index_size)
    StateArchive::invalid("cache index: not a power of two, at least 16, at most half full");
  if (size_ + free_.size() != n)
    StateArchive::invalid("cache slots: in use and free do not add up");
  for (const Slot& s : slots_)
    if (s.lpn >= lpn_bound || (s.newer != kNone && s.newer >= n) ||
        (s.older != kNone && s.older >= n) || (s.next_dirty != kNone && s.next_dirty >= n) ||
        (s.prev_dirty != kNone && s.prev_dirty >= n) || !StateArchive::valid_flag(s.dirty))
      StateArchive::invalid("cache slot: an entry or link out of range");
  // The index, as a rehash builds it: by walking the LRU list, which must hold size_ entries.
  index_.assign(index_size, kNone);
  shift_ = 64 - uint32_t(__builtin_ctzll(index_size));
  uint64_t walked = 0;
  for (uint32_t s = newest_; s != kNone; s = slots_[s].older) {
    if (++walked > size_) StateArchive::invalid("cache LRU list longer than the cache");
    index_insert(s);
  }
  if (walked != size_) StateArchive::invalid("cache LRU list shorter than the cache");
  uint64_t dirty = 0;
  for (const uint32_t head : dirty_head_)
    for (uint32_t s = head; s != kNone; s = slots_[s].next_dirty)
      if (++dirty > n) StateArchive::invalid("cache dirty lists longer than the cache");
}

}  // namespace ssd::fw
