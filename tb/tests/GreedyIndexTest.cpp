// GreedyIndex (firmware/ftl/GreedyIndex.h), the bulk model's greedy victim: against a brute
// force over random inserts, key decrements and removals on blocks spanning several summary
// words, the smallest key and, among equals, the lowest block, on every die.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "firmware/ftl/GreedyIndex.h"

namespace ssd {
namespace {

TEST(GreedyIndex, ChoosesTheSmallestKeyThenTheLowestBlockAsAScanWould) {
  constexpr uint32_t kDies = 3, kBlocks = 9000, kMaxKey = 64, kNotFull = ~0u;
  fw::GreedyIndex index(kDies, kBlocks, kMaxKey);
  std::vector<std::vector<uint32_t>> keys(kDies, std::vector<uint32_t>(kBlocks, kNotFull));
  std::mt19937_64 rng(7);
  for (int step = 0; step < 200000; ++step) {
    const auto die = uint32_t(rng() % kDies);
    const auto block = uint32_t(rng() % kBlocks);
    uint32_t& key = keys[die][block];
    switch (rng() % 3) {
      case 0:  // fills
        if (key == kNotFull) {
          key = uint32_t(rng() % (kMaxKey + 1));
          index.insert(die, block, key);
        }
        break;
      case 1:  // a page dies
        if (key != kNotFull && key != 0) index.decrement(die, block, key--);
        break;
      default:  // erased
        if (key != kNotFull) {
          index.erase(die, block, key);
          key = kNotFull;
        }
    }
    if (step % 97 != 0) continue;
    for (uint32_t d = 0; d < kDies; ++d) {
      uint32_t want = fw::GreedyIndex::kNone, want_key = kNotFull;
      for (uint32_t b = 0; b < kBlocks; ++b)
        if (keys[d][b] < want_key) {
          want_key = keys[d][b];
          want = b;
        }
      uint32_t got_key = kNotFull;
      ASSERT_EQ(index.min(d, got_key), want) << "step " << step << " die " << d;
      if (want != fw::GreedyIndex::kNone) {
        EXPECT_EQ(got_key, want_key);
      }
    }
  }
}

}  // namespace
}  // namespace ssd
