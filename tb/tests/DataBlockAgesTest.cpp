// DataBlockAges (firmware/ftl/DataBlockAges.h), BAST*'s order for the coldest data block:
// against the firmware's scan (of the data blocks erased fewer times than the bound, the one
// erased least recently; among blocks never erased, the one holding the oldest data) over
// random erases, mappings, rewrites and unmappings.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "firmware/ftl/DataBlockAges.h"

namespace ssd {
namespace {

TEST(DataBlockAges, FindsTheBlockTheScanFinds) {
  constexpr uint32_t kBlocks = 300;
  constexpr uint64_t kNoData = ~uint64_t{0};
  fw::DataBlockAges ages(1, kBlocks);
  std::vector<uint32_t> erases(kBlocks, 0);
  std::vector<uint64_t> stamp(kBlocks, 0), owner(kBlocks, kNoData), since(kBlocks, 0);
  uint64_t erase_seq = 0, write_seq = 0;
  std::mt19937_64 rng(3);
  const auto live = [&](uint64_t s, uint32_t b) { return stamp[b] == s; };
  for (int step = 0; step < 100000; ++step) {
    const auto b = uint32_t(rng() % kBlocks);
    switch (rng() % 4) {
      case 0:  // erased (a data block loses its data first)
        owner[b] = kNoData;
        ++erases[b];
        stamp[b] = ++erase_seq;
        ages.erased(0, stamp[b], b, erases[b], live);
        break;
      case 1:  // given data, or rewritten in place
      case 2:
        owner[b] = rng() % 1000;
        since[b] = ++write_seq;
        if (erases[b] == 0) ages.filled(0, since[b], b);
        break;
      default:  // its data moved away (it becomes a log or free block)
        owner[b] = kNoData;
    }
    const uint64_t below = rng() % 40;
    uint32_t want = fw::DataBlockAges::kNone;
    for (uint32_t c = 0; c < kBlocks; ++c) {
      if (owner[c] == kNoData || erases[c] >= below) continue;
      if (want == fw::DataBlockAges::kNone || stamp[c] < stamp[want] ||
          (stamp[c] == stamp[want] && since[c] < since[want]))
        want = c;
    }
    const uint32_t got = ages.coldest(
        0, below,
        [&](uint64_t s, uint32_t c) {
          return erases[c] == 0 && owner[c] != kNoData && since[c] == s;
        },
        live, [&](uint32_t c) { return owner[c] != kNoData; });
    ASSERT_EQ(got, want) << "step " << step << " below " << below;
  }
}

}  // namespace
}  // namespace ssd
