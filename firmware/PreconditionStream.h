#pragma once
// The logical pages preconditioning overwrites at random (docs/ftl.md#preconditioning):
// xorshift64 from a fixed seed, so runs repeat. The simulated path writes them through the
// firmware; an FTL whose bulk fill replays its own decisions (the block-mapped ones) draws
// the same pages, so both leave the same state.
#include <cstdint>

#include "firmware/Types.h"

namespace ssd::fw {

class PreconditionStream {
 public:
  explicit PreconditionStream(uint64_t logical_pages) : pages_(logical_pages) {}
  Lpn next() {
    x_ ^= x_ << 13;
    x_ ^= x_ >> 7;
    x_ ^= x_ << 17;
    return x_ % pages_;
  }

 private:
  uint64_t pages_;
  uint64_t x_ = 0x9e3779b97f4a7c15ull;
};

}  // namespace ssd::fw
