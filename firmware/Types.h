#pragma once
// Addresses and data tokens the firmware works with.
#include <cstdint>

namespace ssd::fw {

using Lpn = uint64_t;  // logical page number (host address / page size)

// Stands in for a page's data: which logical page it holds and which host write produced it.
// The scoreboard checks reads against it; version 0 means "never written" (or trimmed).
struct PageToken {
  Lpn lpn = 0;
  uint64_t version = 0;
  bool operator==(const PageToken& o) const { return lpn == o.lpn && version == o.version; }
};

// Physical page address. Dies are numbered channel-major: die = channel + channels * slot,
// where slot = way * dies_per_way + die_in_way, so consecutive die numbers alternate channels.
struct Ppa {
  uint32_t die = 0;
  uint32_t block = 0;  // within the die; plane = block / blocks_per_plane
  uint32_t page = 0;   // within the block
};

}  // namespace ssd::fw
