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

// What page `index` of a host write (counted from the first page it touches) holds, from the
// write's content fingerprint `content` (0: unknown): equal results mean equal data. The
// deduplication unit's hash stands for it; the scoreboard compares data by it.
inline uint64_t page_content(uint64_t content, uint64_t index) {
  if (content == 0) return 0;
  uint64_t x = content + 0x9e3779b97f4a7c15ULL * (index + 1);  // splitmix64 finaliser
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x == 0 ? 1 : x;
}

// Physical page address. Dies are numbered channel-major: die = channel + channels * slot,
// where slot = way * dies_per_way + die_in_way, so consecutive die numbers alternate channels.
struct Ppa {
  uint32_t die = 0;
  uint32_t block = 0;  // within the die; plane = block / blocks_per_plane
  uint32_t page = 0;   // within the block
};

}  // namespace ssd::fw
