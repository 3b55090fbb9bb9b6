#pragma once
// The energy monitor's queue of reported, not yet committed power-state transitions: a
// calendar queue ("timing wheel") of buckets of 2^20 ps (about 1 us) covering the next
// 1024 buckets (about 1 ms: a program's end is in it), with a heap for the rarer transition
// reported further ahead (an erase's end). Components
// report a transition at most a few milliseconds ahead of simulation time and nearly in time
// order, so a push is an append to a short sorted bucket and a pop takes a bucket's prefix:
// the queue costs O(1) per transition where a heap of components costs a sift through log n levels
// of unpredictable branches (it was the simulator's hottest loop).
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "model/PowerState.h"

namespace ssd::model {

class TransitionWheel {
 public:
  static constexpr uint64_t kNever = UINT64_MAX;

  struct Entry {
    uint64_t t_ps;
    uint32_t id;
    PowerState state;
  };

  // `e.t_ps` must be at or after the last horizon popped.
  void push(const Entry& e) {
    const uint64_t bucket = e.t_ps >> kShift;
    if (bucket < base_ + kBuckets) {
      insert(bucket & kMask, e);
    } else {
      far_.push_back(Far{e, far_seq_++});
      std::push_heap(far_.begin(), far_.end(), later);
    }
    earliest_ = std::min(earliest_, e.t_ps);
  }

  // The time of the earliest entry, kNever if none.
  uint64_t earliest() const { return earliest_; }

  // Removes every entry before `horizon`, in time order, calling f(first, last) once per
  // distinct time with that time's entries: by component id, in report order within one.
  template <typename F>
  void pop_before(uint64_t horizon, F&& f) {
    while (earliest_ < horizon) {
      advance_to(earliest_ >> kShift);
      Bucket& b = ring_[base_ & kMask];
      Entry* const d = b.data;
      uint32_t i = b.head;
      while (i < b.size && d[i].t_ps < horizon) {
        uint32_t j = i + 1;
        while (j < b.size && d[j].t_ps == d[i].t_ps) ++j;
        f(d + i, d + j);
        i = j;
      }
      ring_size_ -= i - b.head;
      b.head = i;
      if (b.head == b.size) {
        b.clear();
        occupied_[(base_ & kMask) / 64] &= ~(uint64_t{1} << (base_ & kMask) % 64);
      }
      earliest_ = find_earliest();
    }
    // Later pushes lie at or after the horizon: the ring may start at its bucket.
    advance_to(horizon >> kShift);
  }

 private:
  static constexpr unsigned kShift = 20;
  static constexpr std::size_t kBuckets = 1024;
  static constexpr uint64_t kMask = kBuckets - 1;

  // A far entry keeps its report order among equal times, which the heap would lose.
  struct Far {
    Entry e;
    uint64_t seq;
  };
  static bool later(const Far& a, const Far& b) {
    return a.e.t_ps != b.e.t_ps ? a.e.t_ps > b.e.t_ps : a.seq > b.seq;
  }
  static bool before(const Entry& a, const Entry& b) {
    return a.t_ps != b.t_ps ? a.t_ps < b.t_ps : a.id < b.id;
  }
  // Buckets are kept sorted: an entry goes after those before it or equal to it (a
  // component's reports at one time keep their order). Reports arrive nearly in time order,
  // so the walk back from the end is short.
  void insert(std::size_t slot, const Entry& e) {
    Bucket& b = ring_[slot];
    if (b.size == b.head) occupied_[slot / 64] |= uint64_t{1} << (slot % 64);
    Entry* const d = b.grow();
    uint32_t j = b.size - 1;
    for (; j > b.head && before(e, d[j - 1]); --j) d[j] = d[j - 1];
    d[j] = e;
    ++ring_size_;
  }

  // Moves the ring's start to `bucket` (if later), taking in the far entries it now covers.
  // The ring holds nothing before `bucket`.
  void advance_to(uint64_t bucket) {
    if (bucket <= base_) return;
    base_ = bucket;
    while (!far_.empty() && (far_.front().e.t_ps >> kShift) < base_ + kBuckets) {
      std::pop_heap(far_.begin(), far_.end(), later);
      const Entry e = far_.back().e;
      far_.pop_back();
      insert((e.t_ps >> kShift) & kMask, e);
    }
  }

  // The earliest entry's time: the first of the first occupied bucket from the ring's start.
  uint64_t find_earliest() {
    if (ring_size_ == 0) return far_.empty() ? kNever : far_.front().e.t_ps;
    const std::size_t start = base_ & kMask;
    for (std::size_t k = 0; k <= kWords; ++k) {
      const std::size_t w = (start / 64 + k) % kWords;
      uint64_t bits = occupied_[w];
      if (k == 0) bits &= ~uint64_t{0} << (start % 64);              // from the start on
      else if (k == kWords) bits &= ~(~uint64_t{0} << (start % 64));  // wrapped round
      if (bits == 0) continue;
      const Bucket& b = ring_[w * 64 + std::size_t(__builtin_ctzll(bits))];
      return b.data[b.head].t_ps;
    }
    return kNever;  // unreachable: ring_size_ > 0
  }

  static constexpr std::size_t kWords = kBuckets / 64;
  // A bucket holds its first few entries in place, so the ring is one block of memory that
  // stays in the cache (a vector per bucket put every bucket's entries in a block of its own,
  // and most reports missed the cache); a crowded bucket moves them to the heap.
  struct Bucket {
    static constexpr uint32_t kInPlace = 4;
    Entry* data = in_place.data();  // in_place, or spilled's storage
    uint32_t head = 0;              // entries before it are popped
    uint32_t size = 0;
    uint32_t capacity = kInPlace;
    std::array<Entry, kInPlace> in_place;
    std::vector<Entry> spilled;  // kept for the next crowding once the bucket empties
    // Makes room for one more entry at the end; returns the entries.
    Entry* grow() {
      if (size == capacity) {
        capacity *= 2;
        if (data == in_place.data()) {
          if (spilled.size() < capacity) spilled.resize(capacity);
          std::copy(in_place.begin(), in_place.end(), spilled.begin());
        } else {
          spilled.resize(capacity);  // keeps the entries
        }
        data = spilled.data();
      }
      ++size;
      return data;
    }
    void clear() {
      head = size = 0;
      data = in_place.data();
      capacity = kInPlace;
    }
    Bucket() = default;
    Bucket(const Bucket&) = delete;  // data may point into the bucket itself
    Bucket& operator=(const Bucket&) = delete;
  };
  std::array<Bucket, kBuckets> ring_;
  std::array<uint64_t, kWords> occupied_{};  // bit per non-empty bucket
  uint64_t base_ = 0;  // bucket number of the ring's first bucket
  std::size_t ring_size_ = 0;
  uint64_t earliest_ = kNever;
  std::vector<Far> far_;  // min-heap by time: entries beyond the ring
  uint64_t far_seq_ = 0;
};

}  // namespace ssd::model
