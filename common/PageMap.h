#pragma once
// A map from page numbers to values that holds only the pages a run touches: open
// addressing in one flat array of 8-byte slots, each packing page + 1 (0: empty) in its top
// bits and the value below, at most 4/5 full and grown by half, so a look-up is a multiply
// and usually one or two cache lines and a page costs 10 to 15 bytes (a std::unordered_map costs
// about 60 and a heap block each). Not a flat array indexed by page: on a 1 TB drive (61
// million pages) random writes spread over the whole drive within a million requests, and
// zeroing an array for every page cost make bench more than hashing does.
//
// The split between page and value bits follows the largest page: a 1 TB drive of 16 KiB
// pages leaves 38 bits for values (page addresses, write versions). A value that does not
// fit is refused with an error naming the limit. Pages are never removed: a caller that
// forgets one stores a value that says so.
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>

#include <sys/mman.h>

#include "common/Prefetch.h"

namespace ssd {

class PageMap {
 public:
  // `absent`: the value of a page not in the map; pages are below `pages`.
  PageMap(uint64_t absent, uint64_t pages)
      : absent_(absent),
        page_bits_(pages == 0 ? 0 : unsigned(64 - __builtin_clzll(pages))),  // page + 1 <= pages
        value_mask_(page_bits_ >= 64 ? 0 : ~uint64_t{0} >> page_bits_) {
    if (page_bits_ > 48)
      throw std::length_error("PageMap: " + std::to_string(pages) +
                              " pages leave too few value bits");
    allocate(kInitialSlots);
  }

  uint64_t get(uint64_t page) const {
    const uint64_t key = (page + 1) << value_bits();
    for (std::size_t i = home(page);; i = next(i)) {
      const uint64_t s = slots_[i];
      if ((s & ~value_mask_) == key) return decode(s & value_mask_);
      if (s == 0) return absent_;
    }
  }

  // Stores f(old) as the page's value, where old is its value (`absent` for a page not in
  // the map), and returns old: one probe for a read-modify-write.
  template <typename F>
  uint64_t update(uint64_t page, F&& f) {
    const uint64_t key = (page + 1) << value_bits();
    std::size_t i = home(page);
    for (uint64_t s; (s = slots_[i]) != 0; i = next(i)) {
      if ((s & ~value_mask_) == key) {
        const uint64_t old = decode(s & value_mask_);
        slots_[i] = key | encode(f(old));
        return old;
      }
    }
    if (5 * (size_ + 1) > 4 * capacity_) {
      grow();
      return update(page, f);
    }
    slots_[i] = key | encode(f(absent_));
    ++size_;
    return absent_;
  }
  uint64_t set(uint64_t page, uint64_t value) {
    return update(page, [value](uint64_t) { return value; });
  }

  // Values below this can be stored (and `absent`).
  uint64_t value_limit() const { return value_mask_; }

  // Hints the page's slot into the cache ahead of a look-up.
  void prefetch(uint64_t page) const { ssd::prefetch(&slots_[home(page)]); }

  std::size_t size() const { return size_; }  // pages ever touched

  // Calls f(page, value) for every page in the map, in no particular order.
  template <typename F>
  void for_each(F&& f) const {
    for (std::size_t i = 0; i < capacity_; ++i)
      if (slots_[i] != 0) f((slots_[i] >> value_bits()) - 1, decode(slots_[i] & value_mask_));
  }

 private:
  static constexpr std::size_t kInitialSlots = 1024;
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;
  // A table of kHugePage or more is mapped on its own, aligned to kHugePage and advised to
  // use huge pages: its look-ups are random, and with 4 KiB pages nearly every one also
  // missed the TLB. The mapping's pages come zeroed; a smaller table is calloc'd.
  struct Free {
    std::size_t bytes;  // of the mapping; 0: calloc'd
    void operator()(uint64_t* p) const {
      if (bytes == 0) std::free(p);
      else munmap(p, bytes);
    }
  };
  unsigned value_bits() const { return 64 - page_bits_; }
  // The all-ones value stands for `absent`, so callers may store it.
  uint64_t encode(uint64_t value) const {
    if (value == absent_) return value_mask_;
    if (value >= value_mask_) too_large(value);
    return value;
  }
  [[noreturn, gnu::cold, gnu::noinline]] void too_large(uint64_t value) const {
    throw std::overflow_error("PageMap: value " + std::to_string(value) + " needs more than " +
                              std::to_string(value_bits()) + " bits beside " +
                              std::to_string(page_bits_) + "-bit page numbers");
  }
  uint64_t decode(uint64_t field) const { return field == value_mask_ ? absent_ : field; }

  // Fibonacci hashing scaled to any table size (multiply-shift onto [0, capacity)).
  std::size_t home(uint64_t page) const {
    const uint64_t h = page * 0x9E3779B97F4A7C15ull;
    return std::size_t((unsigned __int128)h * capacity_ >> 64);
  }
  std::size_t next(std::size_t i) const { return i + 1 == capacity_ ? 0 : i + 1; }

  void allocate(std::size_t slots) {
    const std::size_t bytes = slots * sizeof(uint64_t);
    if (bytes < kHugePage) {
      slots_ = Table(static_cast<uint64_t*>(std::calloc(slots, sizeof(uint64_t))), Free{0});
    } else {
      const std::size_t mapped = (bytes + kHugePage - 1) / kHugePage * kHugePage + kHugePage;
      void* m = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (m == MAP_FAILED) throw std::bad_alloc();
      // Keep the aligned part only.
      const auto base = reinterpret_cast<uintptr_t>(m);
      const uintptr_t aligned = (base + kHugePage - 1) / kHugePage * kHugePage;
      const std::size_t head = aligned - base;
      const std::size_t kept = mapped - kHugePage;
      if (head > 0) munmap(m, head);
      munmap(reinterpret_cast<void*>(aligned + kept), kHugePage - head);
      madvise(reinterpret_cast<void*>(aligned), kept, MADV_HUGEPAGE);
      slots_ = Table(reinterpret_cast<uint64_t*>(aligned), Free{kept});
    }
    if (!slots_) throw std::bad_alloc();
    capacity_ = slots;
  }
  void grow() {
    Table old = std::move(slots_);
    const std::size_t old_capacity = capacity_;
    allocate(old_capacity + old_capacity / 2);
    for (std::size_t j = 0; j < old_capacity; ++j) {
      const uint64_t s = old[j];
      if (s == 0) continue;
      std::size_t i = home((s >> value_bits()) - 1);
      while (slots_[i] != 0) i = next(i);
      slots_[i] = s;
    }
  }

  uint64_t absent_;
  unsigned page_bits_;
  uint64_t value_mask_;
  using Table = std::unique_ptr<uint64_t[], Free>;
  Table slots_;
  std::size_t capacity_ = 0;
  std::size_t size_ = 0;
};

}  // namespace ssd
