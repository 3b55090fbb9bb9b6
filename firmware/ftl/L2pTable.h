#pragma once
// A logical-to-physical page table that is sparse while few pages are touched and dense once
// many are. The sparse form (common/PageMap.h) costs 10 to 15 bytes per page touched, a
// dense array 4 bytes per logical page: the table starts sparse (a short run on a 1 TB drive
// touches a few MB) and turns into the array when a tenth of the logical space is touched (a
// full or preconditioned 1 TB drive of 16 KiB pages: 244 MB instead of 1 to 2 GB).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "common/HugePages.h"
#include "common/PageMap.h"
#include "common/Prefetch.h"
#include "firmware/StateArchive.h"
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
    return sparse_.get(lpn);
  }

  void prefetch(Lpn lpn) const {
    if (dense_)
      ssd::prefetch(&dense_table_[lpn]);
    else
      sparse_.prefetch(lpn);
  }

  // Maps `lpn` to `ppn`; returns the previous ppn or kUnmapped.
  uint64_t set(Lpn lpn, uint64_t ppn) {
    if (dense_) return std::exchange(dense_table_[lpn], uint32_t(ppn + 1)) - uint64_t{1};
    const uint64_t old = sparse_.set(lpn, ppn);
    if (sparse_.size() >= densify_at_) densify();
    return old;
  }

  // Unmaps `lpn`; returns the previous ppn or kUnmapped.
  uint64_t erase(Lpn lpn) {
    if (dense_) return std::exchange(dense_table_[lpn], 0u) - uint64_t{1};
    if (sparse_.get(lpn) == kUnmapped) return kUnmapped;  // adds no page to the map
    return sparse_.set(lpn, kUnmapped);
  }

  bool dense() const { return dense_; }

  // Saves or loads the mapping (a saved aged drive): the dense array, or the mapped pages.
  void state(StateArchive& a, uint64_t physical_pages) {
    a.section("mapping table");
    bool dense = dense_;
    a.flag(dense);
    if (dense) {
      if (a.loading() && !dense_) {
        dense_table_ = LazyTable<uint32_t>(logical_pages_);  // mapped from the file
        sparse_ = PageMap(kUnmapped, logical_pages_);
        dense_ = true;
      }
      a.table(dense_table_, logical_pages_, "mapped page", physical_pages + 1);  // ppn + 1
      return;
    }
    std::vector<uint64_t> lpns, ppns;
    sparse_.for_each([&](Lpn lpn, uint64_t ppn) {
      if (ppn == kUnmapped) return;
      lpns.push_back(lpn);
      ppns.push_back(ppn);
    });
    a.indexes(lpns, logical_pages_, logical_pages_, "mapped logical page");
    ppns.resize(lpns.size());
    a.fixed_indexes(ppns, physical_pages, "mapped page");
    if (a.loading())
      for (std::size_t i = 0; i < lpns.size(); ++i) set(lpns[i], ppns[i]);
  }

 private:
  void densify() {
    dense_table_ = LazyTable<uint32_t>(logical_pages_);
    dense_table_.advise_huge();  // filled whole from here on
    sparse_.for_each([&](Lpn lpn, uint64_t ppn) { dense_table_[lpn] = uint32_t(ppn + 1); });
    sparse_ = PageMap(kUnmapped, logical_pages_);  // give the memory back
    dense_ = true;
  }

  uint64_t logical_pages_;
  uint64_t densify_at_;
  bool dense_ = false;
  PageMap sparse_{kUnmapped, logical_pages_};
  LazyTable<uint32_t> dense_table_{0};  // looked up at random across the drive
};

}  // namespace ssd::fw
