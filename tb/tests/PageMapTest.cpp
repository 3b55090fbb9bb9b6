// PageMap (common/PageMap.h): the page table of the scoreboard and of the sparse mapping table.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

#include "common/PageMap.h"

namespace ssd {
namespace {

constexpr uint64_t kPages = 61098885;  // a 1 TB drive of 16 KiB pages: 26-bit page numbers

TEST(PageMap, KeepsEveryPageThroughGrowthAndAnswersAbsentForOthers) {
  PageMap m(7, kPages);
  std::map<uint64_t, uint64_t> want;
  // Runs of consecutive pages and scattered ones, well past several growths and past the
  // 2 MiB from which the table is a mapping of its own (huge pages).
  for (uint64_t i = 0; i < 400000; ++i) {
    const uint64_t page = i % 2 ? i : (i * 2654435761u) % kPages;
    EXPECT_EQ(m.set(page, i * 1000), want.count(page) ? want[page] : 7u);
    want[page] = i * 1000;
  }
  EXPECT_EQ(m.size(), want.size());
  for (const auto& [page, value] : want) EXPECT_EQ(m.get(page), value) << page;
  EXPECT_EQ(m.get(kPages - 1), 7u) << "never touched";
  std::size_t seen = 0;
  m.for_each([&](uint64_t page, uint64_t value) {
    EXPECT_EQ(want.at(page), value);
    ++seen;
  });
  EXPECT_EQ(seen, m.size());
}

TEST(PageMap, UpdateReadsAndWritesInOneProbe) {
  PageMap m(0, kPages);
  EXPECT_EQ(m.update(5, [](uint64_t old) { return old + 3; }), 0u);
  EXPECT_EQ(m.update(5, [](uint64_t old) { return old * 10; }), 3u);
  EXPECT_EQ(m.get(5), 30u);
  EXPECT_EQ(m.size(), 1u);
}

TEST(PageMap, StoresAbsentAndTheLargestValueBesideThePageNumber) {
  PageMap m(~uint64_t{0}, kPages);  // the mapping table's "unmapped"
  const uint64_t largest = m.value_limit() - 1;
  EXPECT_EQ(m.value_limit(), (uint64_t{1} << 38) - 1) << "64 - 26 bits";
  m.set(kPages - 1, largest);
  m.set(0, 1);
  EXPECT_EQ(m.get(kPages - 1), largest);
  EXPECT_EQ(m.set(0, ~uint64_t{0}), 1u) << "absent may be stored: a page unmapped again";
  EXPECT_EQ(m.get(0), ~uint64_t{0});
  EXPECT_THROW(m.set(3, largest + 1), std::overflow_error);
  EXPECT_EQ(m.get(3), ~uint64_t{0}) << "a refused value leaves the page out";
}

}  // namespace
}  // namespace ssd
