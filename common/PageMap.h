#pragma once
// A map from logical page numbers to 64-bit values that holds only the pages a run touches:
// open addressing in one flat array of (page, value) pairs, at most half full, so a look-up
// is a multiply and usually one cache line, and an insert allocates nothing but the
// occasional doubling. 16 to 32 bytes per page touched; a std::unordered_map costs about 60
// and a heap block each. Not a flat array indexed by page: on a 1 TB drive (61 million
// pages) random writes spread one over the whole drive (489 MB at 8 bytes a page) within a
// million requests, and the OS zeroing that memory cost make bench more than hashing does.
// Pages are never removed: a caller that forgets one stores a value that says so.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ssd {

class PageMap {
 public:
  // `absent`: the value of a page not in the map.
  explicit PageMap(uint64_t absent) : absent_(absent), slots_(std::size_t{1} << bits_) {}

  uint64_t get(uint64_t page) const {
    for (std::size_t i = home(page);; i = (i + 1) & mask()) {
      if (slots_[i].page == page) return slots_[i].value;
      if (slots_[i].page == kEmpty) return absent_;
    }
  }

  // The page's value, added as `absent` if the page is not in the map. Valid until the next
  // call of `at` (which may move the table).
  uint64_t& at(uint64_t page) {
    std::size_t i = home(page);
    for (; slots_[i].page != kEmpty; i = (i + 1) & mask()) {
      if (slots_[i].page == page) return slots_[i].value;
    }
    if (2 * (size_ + 1) > slots_.size()) {
      grow();
      return at(page);
    }
    ++size_;
    slots_[i] = Slot{page, absent_};
    return slots_[i].value;
  }

  std::size_t size() const { return size_; }  // pages ever touched

  // Calls f(page, value) for every page in the map, in no particular order.
  template <typename F>
  void for_each(F&& f) const {
    for (const Slot& s : slots_)
      if (s.page != kEmpty) f(s.page, s.value);
  }

 private:
  static constexpr uint64_t kEmpty = ~uint64_t{0};  // no drive has that many pages
  struct Slot {
    uint64_t page = kEmpty;
    uint64_t value = 0;
  };

  std::size_t mask() const { return slots_.size() - 1; }
  // Fibonacci hashing: the top bits of page x 2^64/phi spread runs of consecutive pages.
  std::size_t home(uint64_t page) const {
    return std::size_t((page * 0x9E3779B97F4A7C15ull) >> (64 - bits_));
  }
  void grow() {
    std::vector<Slot> old(2 * slots_.size());
    old.swap(slots_);
    ++bits_;
    for (const Slot& s : old) {
      if (s.page == kEmpty) continue;
      std::size_t i = home(s.page);
      while (slots_[i].page != kEmpty) i = (i + 1) & mask();
      slots_[i] = s;
    }
  }

  uint64_t absent_;
  unsigned bits_ = 10;       // log2 of slots_.size()
  std::vector<Slot> slots_;
  std::size_t size_ = 0;
};

}  // namespace ssd
