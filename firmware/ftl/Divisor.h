#pragma once
// Division by a number fixed at construction: a shift and a mask when it is a power of two
// (pages per block and dies usually are), else the division. The block-mapped FTLs divide
// page numbers several times per page written; a 64-bit division costs tens of cycles.
#include <cstdint>

namespace ssd::fw {

class Divisor {
 public:
  explicit Divisor(uint64_t d)
      : d_(d),
        pow2_(d != 0 && (d & (d - 1)) == 0),
        shift_(pow2_ ? unsigned(__builtin_ctzll(d)) : 0) {}
  uint64_t quot(uint64_t x) const { return pow2_ ? x >> shift_ : x / d_; }
  uint64_t rem(uint64_t x) const { return pow2_ ? x & (d_ - 1) : x % d_; }
  uint64_t value() const { return d_; }

 private:
  uint64_t d_;
  bool pow2_;
  unsigned shift_;
};

}  // namespace ssd::fw
