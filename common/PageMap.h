#pragma once
// A map from page numbers to values that holds only the pages a run touches: open
// addressing in one flat array of 8-byte slots, each packing page + 1 (0: empty) in its top
// bits and the value below, at most 4/5 full and grown by half in place, so a look-up is a
// multiply and usually one or two cache lines and a page costs 10 to 15 bytes (a
// std::unordered_map costs about 60 and a heap block each). Not a flat array indexed by page:
// on a 1 TB drive (61 million pages) random writes spread over the whole drive within a
// million requests, and zeroing an array for every page cost make bench more than hashing
// does.
//
// The split between page and value bits follows the largest page: a 1 TB drive of 16 KiB
// pages leaves 38 bits for values (page addresses, write versions). A value that does not
// fit is refused with an error naming the limit. erase() removes a page (the probe run after
// it closes up: no tombstones), for a map whose pages come and go (the write buffer's index);
// the table keeps its size.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/mman.h>

#include "common/Prefetch.h"

namespace ssd {

class PageMap {
 public:
  // `absent`: the value of a page not in the map; pages are below `pages`, and at most
  // `held` of them are in the map at once (address space is reserved for that many).
  PageMap(uint64_t absent, uint64_t pages, uint64_t held)
      : absent_(absent),
        page_bits_(pages == 0 ? 0 : unsigned(64 - __builtin_clzll(pages))),  // page + 1 <= pages
        value_mask_(page_bits_ >= 64 ? 0 : ~uint64_t{0} >> page_bits_) {
    if (page_bits_ > 48)
      throw std::length_error("PageMap: " + std::to_string(pages) +
                              " pages leave too few value bits");
    reserve(held);
  }
  PageMap(uint64_t absent, uint64_t pages) : PageMap(absent, pages, pages) {}

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

  // Removes the page; returns its value (`absent` if it was not in the map). The entries of
  // the probe run after it move back into the gap where their probes would pass it, so every
  // look-up still ends at the first empty slot.
  uint64_t erase(uint64_t page) {
    const uint64_t key = (page + 1) << value_bits();
    std::size_t gap = home(page);
    for (; (slots_[gap] & ~value_mask_) != key; gap = next(gap))
      if (slots_[gap] == 0) return absent_;
    const uint64_t old = decode(slots_[gap] & value_mask_);
    for (std::size_t i = next(gap); slots_[i] != 0; i = next(i)) {
      const std::size_t h = home((slots_[i] >> value_bits()) - 1);
      // An entry whose home lies cyclically in (gap, i] stays: in the gap it would sit before
      // its home, where a probe for it does not look.
      const bool stays = gap <= i ? gap < h && h <= i : gap < h || h <= i;
      if (stays) continue;
      slots_[gap] = slots_[i];
      gap = i;
    }
    slots_[gap] = 0;
    --size_;
    return old;
  }

  // Values below this can be stored (and `absent`).
  uint64_t value_limit() const { return value_mask_; }

  // Hints the page's slot into the cache ahead of a look-up.
  void prefetch(uint64_t page) const { ssd::prefetch(&slots_[home(page)]); }

  std::size_t size() const { return size_; }  // pages in the map

  // Calls f(page, value) for every page in the map, in no particular order.
  template <typename F>
  void for_each(F&& f) const {
    for (std::size_t i = 0; i < capacity_; ++i)
      if (slots_[i] != 0) f((slots_[i] >> value_bits()) - 1, decode(slots_[i] & value_mask_));
  }

 private:
  static constexpr std::size_t kInitialSlots = 1024;
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;
  // Address space reserved for one table at most: 1 TiB, 2^37 slots, far beyond any machine's
  // memory (a drive of more pages reserves this and refuses to grow past it).
  static constexpr std::size_t kMaxReserve = std::size_t{1} << 40;
  // The table grows in place inside one reservation of address space (MAP_NORESERVE: only the
  // pages it touches take memory), aligned to kHugePage; from kHugePage on it is advised to
  // use huge pages: its look-ups are random, and with 4 KiB pages nearly every one also missed
  // the TLB. Growing in place touches each page once (copying into a new table at each
  // growth has the kernel zero about three times the final table, and holds both at once).
  struct Unmap {
    std::size_t bytes;
    void operator()(uint64_t* p) const { munmap(p, bytes); }
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

  // Fibonacci hashing scaled to any table size (multiply-shift onto [0, capacity)): the home
  // grows with the hash, for any capacity, which the growth in place relies on.
  std::size_t home(uint64_t page) const {
    const uint64_t h = page * 0x9E3779B97F4A7C15ull;
    return std::size_t((unsigned __int128)h * capacity_ >> 64);
  }
  std::size_t next(std::size_t i) const { return i + 1 == capacity_ ? 0 : i + 1; }

  // The largest capacity the growth rule reaches with `pages` pages (it grows from c only for
  // more than 4c/5 of them).
  static std::size_t largest_capacity(uint64_t pages) {
    std::size_t c = kInitialSlots;
    while (4 * uint64_t(c) < 5 * pages && c < kMaxReserve / sizeof(uint64_t)) c += c / 2;
    return c;
  }
  void reserve(uint64_t pages) {
    std::size_t bytes = std::min(kMaxReserve, largest_capacity(pages) * sizeof(uint64_t));
    bytes = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* m = MAP_FAILED;
    // Under a limit on address space, less: growing past it is refused with a message.
    for (; bytes >= kHugePage; bytes = bytes / 2 / kHugePage * kHugePage) {
      m = mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (m != MAP_FAILED) break;
    }
    if (m == MAP_FAILED) throw std::bad_alloc();
    // Keep the aligned part only.
    const auto base = reinterpret_cast<uintptr_t>(m);
    const uintptr_t aligned = (base + kHugePage - 1) / kHugePage * kHugePage;
    const std::size_t head = aligned - base;
    if (head > 0) munmap(m, head);
    munmap(reinterpret_cast<void*>(aligned + bytes), kHugePage - head);
    slots_ = Table(reinterpret_cast<uint64_t*>(aligned), Unmap{bytes});
    reserved_slots_ = bytes / sizeof(uint64_t);
    capacity_ = kInitialSlots;
  }
  // Capacity x 1.5 in place. Homes only move up as the capacity grows, so the slots are
  // taken from the top down, and an entry goes where a probe from its new home finds room in
  // the part already done. Two kinds wait until the pass is over: one whose new home is below
  // its old slot (its probe would cross slots not yet taken, which may be emptied later) and
  // one whose probe runs past the end (a cluster that wrapped). Any other probe crosses only
  // slots of the part done, which stay full.
  void grow() {
    const std::size_t old = capacity_;
    const std::size_t grown = old + old / 2;
    if (grown > reserved_slots_) too_many();
    if (grown * sizeof(uint64_t) >= kHugePage && old * sizeof(uint64_t) < kHugePage)
      madvise(slots_.get(), reserved_slots_ * sizeof(uint64_t), MADV_HUGEPAGE);
    capacity_ = grown;  // slots [old, grown) were never written: empty
    std::vector<uint64_t> after;
    for (std::size_t p = old; p-- > 0;) {
      const uint64_t s = slots_[p];
      if (s == 0) continue;
      slots_[p] = 0;
      std::size_t i = home((s >> value_bits()) - 1);
      while (i >= p && i < grown && slots_[i] != 0) ++i;
      if (i >= p && i < grown) {
        slots_[i] = s;
      } else {
        after.push_back(s);
      }
    }
    for (const uint64_t s : after) {
      std::size_t i = home((s >> value_bits()) - 1);
      while (slots_[i] != 0) i = next(i);
      slots_[i] = s;
    }
  }
  [[noreturn, gnu::cold, gnu::noinline]] void too_many() const {
    throw std::length_error("PageMap: more than " + std::to_string(size_) +
                            " pages touched: beyond the address space reserved for them");
  }

  uint64_t absent_;
  unsigned page_bits_;
  uint64_t value_mask_;
  using Table = std::unique_ptr<uint64_t[], Unmap>;
  Table slots_;
  std::size_t reserved_slots_ = 0;
  std::size_t capacity_ = 0;
  std::size_t size_ = 0;
};

}  // namespace ssd
