// DFTL's cached mapping table (firmware/ftl/MappingCache.h): LRU order, dirty entries per
// translation page, and its open-addressing index, against a plain list model.
#include <gtest/gtest.h>

#include <algorithm>
#include <list>
#include <random>

#include "firmware/ftl/MappingCache.h"

namespace ssd::fw {
namespace {

TEST(MappingCache, EvictsLeastRecentlyUsedAndReportsDirty) {
  MappingCache c(3, 4, 10);  // 3 entries; 4 translation pages of 10 entries
  c.insert(5, 7);
  c.insert(15, 0);
  c.insert(25, 0);
  EXPECT_TRUE(c.full());
  EXPECT_EQ(c.loading(c.find(5)), 7u);
  c.touch(c.find(5));  // 15 is now the oldest
  c.mark_dirty(c.find(15));
  const MappingCache::Evicted e = c.evict();
  EXPECT_EQ(e.lpn, 15u);
  EXPECT_TRUE(e.dirty);
  EXPECT_EQ(c.find(15), MappingCache::kNone);
  EXPECT_EQ(c.clean(1), 0u) << "an evicted entry is no longer a dirty cached one";
  EXPECT_EQ(c.evict().lpn, 25u);
  EXPECT_FALSE(c.evict().dirty);
  EXPECT_EQ(c.size(), 0u);
}

TEST(MappingCache, CleaningATranslationPageCleansOnlyItsDirtyEntries) {
  MappingCache c(8, 3, 4);
  for (Lpn lpn : {0, 1, 2, 4, 5, 9}) c.insert(lpn, 0);
  for (Lpn lpn : {0, 2, 4, 5, 9}) c.mark_dirty(c.find(lpn));
  c.mark_dirty(c.find(2));    // twice: still one dirty entry
  EXPECT_EQ(c.clean(0), 2u);  // 0 and 2; 1 was clean
  EXPECT_EQ(c.clean(0), 0u);
  EXPECT_EQ(c.clean(1), 2u);
  c.mark_dirty(c.find(4));  // dirty again after its page was written
  EXPECT_EQ(c.clean(1), 1u);
  EXPECT_EQ(c.clean(2), 1u);
}

// Random operations on a small index (many collisions, deletions inside probe runs) agree
// with a list kept in LRU order.
TEST(MappingCache, AgreesWithAListModel) {
  constexpr uint64_t kCapacity = 37, kPages = 5000, kPerTp = 16;
  MappingCache c(kCapacity, kPages / kPerTp + 1, kPerTp);
  struct Ref {
    Lpn lpn;
    bool dirty;
  };
  std::list<Ref> ref;  // front: most recent
  std::mt19937_64 rng(3);
  for (int step = 0; step < 200000; ++step) {
    const Lpn lpn = rng() % (rng() % 2 ? 64 : kPages);  // a hot set and the rest
    auto it = std::find_if(ref.begin(), ref.end(), [&](const Ref& r) { return r.lpn == lpn; });
    const uint32_t slot = c.find(lpn);
    ASSERT_EQ(slot == MappingCache::kNone, it == ref.end()) << "step " << step;
    switch (rng() % 3) {
      case 0:  // look-up: hit or fill
        if (it != ref.end()) {
          c.touch(slot);
          ref.splice(ref.begin(), ref, it);
          break;
        }
        if (c.full()) {
          const MappingCache::Evicted e = c.evict();
          ASSERT_EQ(e.lpn, ref.back().lpn);
          ASSERT_EQ(e.dirty, ref.back().dirty);
          ref.pop_back();
        }
        c.insert(lpn, 0);
        ref.push_front(Ref{lpn, false});
        break;
      case 1:
        if (it != ref.end()) {
          c.mark_dirty(slot);
          it->dirty = true;
        }
        break;
      default: {
        const uint64_t tp = lpn / kPerTp;
        uint32_t dirty = 0;
        for (Ref& r : ref)
          if (r.lpn / kPerTp == tp && r.dirty) {
            r.dirty = false;
            ++dirty;
          }
        ASSERT_EQ(c.clean(tp), dirty);
      }
    }
    ASSERT_EQ(c.size(), ref.size());
  }
}

}  // namespace
}  // namespace ssd::fw
