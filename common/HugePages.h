#pragma once
// Memory for tables looked up at random across a large drive (the dense mapping table, 1 GB
// on the 1 TB drive; the dies' page contents; the reverse map), mapped on its own, aligned to
// 2 MiB and advised to use huge pages: with 4 KiB pages nearly every look-up also missed the
// TLB, a page-table walk on top of the cache miss. A huge page takes its 2 MiB of memory at
// the first touch of any byte in it, so the advice goes only to tables filled whole.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#include <sys/mman.h>

namespace ssd {

namespace huge_pages {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

inline std::size_t rounded(std::size_t bytes) {
  return (bytes + kHugePage - 1) / kHugePage * kHugePage;
}

// `bytes` (a multiple of kHugePage) of zeroed memory aligned to kHugePage; pages take memory
// as they are first touched.
inline void* map(std::size_t bytes, int flags = 0) {
  void* m = mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  // Keep the aligned part only.
  const auto base = reinterpret_cast<uintptr_t>(m);
  const uintptr_t aligned = (base + kHugePage - 1) / kHugePage * kHugePage;
  if (aligned > base) munmap(m, aligned - base);
  munmap(reinterpret_cast<void*>(aligned + bytes), kHugePage - (aligned - base));
  return reinterpret_cast<void*>(aligned);
}

}  // namespace huge_pages

// A table of `n` elements, zero at first, that takes memory as its 4 KiB pages are first
// written (a part per block, written when the block is, costs what a heap block per part
// allocated on first use did), in one mapping: advise_huge() turns the pages not yet touched
// into huge pages, for a table about to be filled whole (an aged drive). A saved drive's
// loading maps its file over the table instead (fw::StateArchive::table).
template <class T>
class LazyTable {
 public:
  explicit LazyTable(std::size_t n)
      : bytes_(huge_pages::rounded(n * sizeof(T))),
        data_(bytes_ == 0 ? nullptr : static_cast<T*>(huge_pages::map(bytes_, MAP_NORESERVE)),
              Unmap{bytes_}) {}

  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

  void advise_huge() {
    if (advised_ || bytes_ == 0) return;
    madvise(data_.get(), bytes_, MADV_HUGEPAGE);
    advised_ = true;
  }

 private:
  struct Unmap {
    std::size_t bytes;
    void operator()(T* p) const { munmap(p, bytes); }
  };
  std::size_t bytes_;
  std::unique_ptr<T[], Unmap> data_;
  bool advised_ = false;
};

}  // namespace ssd
