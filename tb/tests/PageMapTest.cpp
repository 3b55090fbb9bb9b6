// PageMap (common/PageMap.h): the page table of the scoreboard and of the sparse mapping table,
// and the write buffer's index.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <stdexcept>
#include <vector>

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

// The table grows in place, taking slots from the top down: pages homed near the start
// (whose probes cross slots not yet taken) and pages whose probes wrap past the end (hashes at
// the top of the range) are the ones placed after the pass. Twice the density at both ends,
// every page looked up between each growth and the next, up to a million slots.
TEST(PageMap, GrowsInPlaceWithPagesAtBothEndsOfTheTable) {
  std::vector<uint64_t> pages;
  uint64_t top = 0, bottom = 0;
  for (uint64_t page = 0; page < 4'000'000; ++page) {
    const uint64_t h = page * 0x9E3779B97F4A7C15ull;  // the map's hash
    const bool at_top = h >= ~uint64_t{0} - (~uint64_t{0} >> 8);
    const bool at_bottom = h <= (~uint64_t{0} >> 8);
    if (page % 8 != 0 && !((at_top || at_bottom) && page % 8 == 1)) continue;
    top += at_top;
    bottom += at_bottom;
    pages.push_back(page);
  }
  ASSERT_GT(top, 3000u);
  ASSERT_GT(bottom, 3000u);
  PageMap m(0, kPages);
  std::size_t check_at = 100;
  for (std::size_t n = 0; n < pages.size(); ++n) {
    ASSERT_EQ(m.set(pages[n], pages[n] + 1), 0u);
    if (n + 1 < check_at && n + 1 < pages.size()) continue;
    check_at += check_at / 10;  // growths are 1.5x apart: one check or more between two
    for (std::size_t k = 0; k <= n; ++k) ASSERT_EQ(m.get(pages[k]), pages[k] + 1) << n;
  }
  EXPECT_EQ(m.size(), pages.size());
  for (uint64_t page = 2; page < 4'000'000; page += 8) ASSERT_EQ(m.get(page), 0u) << page;
  std::size_t seen = 0;
  m.for_each([&](uint64_t page, uint64_t value) {
    EXPECT_EQ(value, page + 1);
    ++seen;
  });
  EXPECT_EQ(seen, pages.size());
}

// Under a limit on address space the table reserves less, and a growth past what it got is
// refused with a message (not a crash). Not under AddressSanitizer, whose own mappings need
// the address space the limit takes away.
TEST(PageMapDeathTest, RefusesToGrowPastTheAddressSpaceItGot) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer needs unlimited address space";
#else
  const auto limited = [] {
    std::ifstream statm("/proc/self/statm");
    uint64_t pages = 0;
    statm >> pages;  // the address space in use, in pages
    const rlim_t bytes = pages * uint64_t(sysconf(_SC_PAGESIZE)) + (uint64_t{64} << 20);
    const rlimit limit{bytes, bytes};
    if (setrlimit(RLIMIT_AS, &limit) != 0) std::_Exit(2);
    try {
      PageMap m(0, kPages);  // wants about 1 GB of address space; gets a few MiB
      for (uint64_t page = 0; page < kPages; ++page) m.set(page, 1);
    } catch (const std::length_error& e) {
      std::fprintf(stderr, "%s\n", e.what());
      std::_Exit(3);
    }
    std::_Exit(0);
  };
  EXPECT_EXIT(limited(), testing::ExitedWithCode(3), "pages touched: beyond the address space");
#endif
}

// Pages that come and go (the write buffer's index): erase closes up the probe run behind
// the page. A small key range, so runs are long and wrap past the end of the table, checked
// against std::map after every step.
TEST(PageMap, EraseKeepsEveryOtherPageFindable) {
  PageMap m(99, 1 << 20, 1000);
  std::map<uint64_t, uint64_t> want;
  uint64_t x = 12345;
  for (int step = 0; step < 200000; ++step) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const uint64_t page = (x >> 33) % 1500;
    if ((x >> 20) % 3 == 0) {
      const auto it = want.find(page);
      ASSERT_EQ(m.erase(page), it == want.end() ? 99u : it->second) << step;
      if (it != want.end()) want.erase(it);
    } else if (want.size() < 800) {
      m.set(page, step);
      want[page] = uint64_t(step);
    }
    ASSERT_EQ(m.size(), want.size());
    if (step % 997 != 0) continue;
    for (uint64_t p = 0; p < 1500; ++p)
      ASSERT_EQ(m.get(p), want.count(p) ? want[p] : 99u) << "page " << p << " step " << step;
  }
  for (const auto& [page, value] : want) EXPECT_EQ(m.erase(page), value);
  EXPECT_EQ(m.size(), 0u);
  for (uint64_t p = 0; p < 1500; ++p) EXPECT_EQ(m.get(p), 99u);
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
