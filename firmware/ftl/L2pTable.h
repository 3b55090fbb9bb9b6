#pragma once
// A logical-to-physical page table that is sparse while few pages are mapped and dense once
// many are. A hash map costs about 42 bytes per mapped page (measured), a dense array 4 bytes
// per logical page: the table starts as a hash map (a short run on a 1 TB drive touches a
// few MB) and turns into the array when a tenth of the logical space is mapped (a full or
// preconditioned 1 TB drive of 16 KiB pages: 244 MB instead of about 2.6 GB, no hashing).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "firmware/Types.h"

namespace ssd::fw {

class L2pTable {
 public:
  static constexpr uint64_t kUnmapped = ~uint64_t{0};

  // `physical_pages` bounds the values; the dense form stores ppn + 1 in 32 bits, so drives
  // with 2^32 - 1 pages or more stay sparse.
  L2pTable(uint64_t logical_pages, uint64_t physical_pages)
      : logical_pages_(logical_pages),
        densify_at_(physical_pages < std::numeric_limits<uint32_t>::max()
                        ? std::max<uint64_t>(1, logical_pages / 10)
                        : std::numeric_limits<uint64_t>::max()) {}

  uint64_t get(Lpn lpn) const {
    if (dense_) return uint64_t(dense_table_[lpn]) - 1;  // 0 - 1 wraps to kUnmapped
    const auto it = sparse_.find(lpn);
    return it == sparse_.end() ? kUnmapped : it->second;
  }

  // Maps `lpn` to `ppn`; returns the previous ppn or kUnmapped.
  uint64_t set(Lpn lpn, uint64_t ppn) {
    if (dense_) return std::exchange(dense_table_[lpn], uint32_t(ppn + 1)) - uint64_t{1};
    auto [it, fresh] = sparse_.try_emplace(lpn, ppn);
    if (!fresh) return std::exchange(it->second, ppn);
    if (sparse_.size() >= densify_at_) densify();
    return kUnmapped;
  }

  // Unmaps `lpn`; returns the previous ppn or kUnmapped.
  uint64_t erase(Lpn lpn) {
    if (dense_) return std::exchange(dense_table_[lpn], 0u) - uint64_t{1};
    const auto it = sparse_.find(lpn);
    if (it == sparse_.end()) return kUnmapped;
    const uint64_t old = it->second;
    sparse_.erase(it);
    return old;
  }

  bool dense() const { return dense_; }

 private:
  void densify() {
    dense_table_.assign(logical_pages_, 0);
    for (const auto& [lpn, ppn] : sparse_) dense_table_[lpn] = uint32_t(ppn + 1);
    std::unordered_map<Lpn, uint64_t>().swap(sparse_);  // give the memory back
    dense_ = true;
  }

  uint64_t logical_pages_;
  uint64_t densify_at_;
  bool dense_ = false;
  std::unordered_map<Lpn, uint64_t> sparse_;
  std::vector<uint32_t> dense_table_;
};

}  // namespace ssd::fw
