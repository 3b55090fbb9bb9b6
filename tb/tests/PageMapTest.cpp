// PageMap (common/PageMap.h): the page table of the scoreboard and of the sparse mapping table.
#include <gtest/gtest.h>

#include <map>

#include "common/PageMap.h"

namespace ssd {
namespace {

TEST(PageMap, KeepsEveryPageThroughGrowthAndAnswersAbsentForOthers) {
  PageMap m(7);
  std::map<uint64_t, uint64_t> want;
  // Runs of consecutive pages and scattered ones, well past several doublings.
  for (uint64_t i = 0; i < 5000; ++i) {
    const uint64_t page = i % 2 ? i : (i * 2654435761u) % 61098885;
    m.at(page) = i;
    want[page] = i;
  }
  EXPECT_EQ(m.size(), want.size());
  for (const auto& [page, value] : want) EXPECT_EQ(m.get(page), value) << page;
  EXPECT_EQ(m.get(61098886), 7u) << "never touched";
  EXPECT_EQ(m.at(61098886), 7u) << "added as absent";
  EXPECT_EQ(m.size(), want.size() + 1);
  std::size_t seen = 0;
  m.for_each([&](uint64_t page, uint64_t value) {
    if (page != 61098886) {
      EXPECT_EQ(want.at(page), value);
    }
    ++seen;
  });
  EXPECT_EQ(seen, m.size());
}

}  // namespace
}  // namespace ssd
