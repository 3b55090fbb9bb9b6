// The energy monitor's calendar queue against the order it must reproduce: every entry
// before each horizon, by time, then component id, then report order.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "model/TransitionWheel.h"

namespace ssd::model {
namespace {

using Entry = TransitionWheel::Entry;

struct Reported {
  Entry e;
  uint64_t seq;
};

// Pops everything before `horizon`, checking each call holds one time.
std::vector<Entry> pop(TransitionWheel& w, uint64_t horizon) {
  std::vector<Entry> out;
  w.pop_before(horizon, [&](const Entry* first, const Entry* last) {
    EXPECT_LT(first, last);
    for (const Entry* e = first; e != last; ++e) {
      EXPECT_EQ(e->t_ps, first->t_ps);
      out.push_back(*e);
    }
  });
  return out;
}

// Components report in time order each, at or after "now", up to `ahead_ps` ahead (beyond
// the ring's 1.1 ms: the far heap); time moves on in steps and the queue is popped.
void run_random(uint64_t seed, uint64_t ahead_ps, uint64_t step_ps) {
  std::mt19937_64 rng(seed);
  const uint32_t components = 40;
  std::vector<uint64_t> last(components, 0);
  std::vector<Reported> pending;
  TransitionWheel w;
  uint64_t now = 0, seq = 0;
  for (int round = 0; round < 4000; ++round) {
    const int reports = int(rng() % 6);
    for (int k = 0; k < reports; ++k) {
      const uint32_t id = uint32_t(rng() % components);
      // Often exactly at the component's last time (a state held for no time), or now.
      const uint64_t base = std::max(now, last[id]);
      const uint64_t t = rng() % 4 == 0 ? base : base + rng() % ahead_ps;
      last[id] = t;
      const Entry e{t, id, PowerState(rng() % 3)};
      w.push(e);
      pending.push_back({e, seq++});
    }
    now += rng() % step_ps;
    std::vector<Reported> due;
    std::vector<Reported> rest;
    for (const Reported& r : pending) (r.e.t_ps < now ? due : rest).push_back(r);
    pending.swap(rest);
    std::sort(due.begin(), due.end(), [](const Reported& a, const Reported& b) {
      if (a.e.t_ps != b.e.t_ps) return a.e.t_ps < b.e.t_ps;
      return a.e.id != b.e.id ? a.e.id < b.e.id : a.seq < b.seq;
    });
    const std::vector<Entry> got = pop(w, now);
    ASSERT_EQ(got.size(), due.size()) << "round " << round;
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i].t_ps, due[i].e.t_ps) << "round " << round << " entry " << i;
      ASSERT_EQ(got[i].id, due[i].e.id);
      ASSERT_EQ(got[i].state, due[i].e.state);
    }
    const uint64_t earliest =
        pending.empty() ? TransitionWheel::kNever
                        : std::min_element(pending.begin(), pending.end(),
                                           [](const Reported& a, const Reported& b) {
                                             return a.e.t_ps < b.e.t_ps;
                                           })->e.t_ps;
    ASSERT_EQ(w.earliest(), earliest);
  }
  EXPECT_EQ(pop(w, TransitionWheel::kNever).size(), pending.size());
  EXPECT_EQ(w.earliest(), TransitionWheel::kNever);
}

TEST(TransitionWheel, NearReportsInOrder) { run_random(1, 3'000'000, 2'000'000); }
TEST(TransitionWheel, FarReportsThroughTheHeap) { run_random(2, 20'000'000'000, 500'000'000); }
TEST(TransitionWheel, LongIdleGapsWrapTheRing) { run_random(3, 50'000'000'000, 60'000'000'000); }
// Many reports within a bucket's 1 us: buckets outgrow their in-place entries and are popped
// a part at a time.
TEST(TransitionWheel, CrowdedBucketsPopInParts) { run_random(4, 300'000, 150'000); }

TEST(TransitionWheel, EmptyPopsNothing) {
  TransitionWheel w;
  EXPECT_EQ(w.earliest(), TransitionWheel::kNever);
  EXPECT_TRUE(pop(w, 1'000'000'000).empty());
  w.push({5'000'000'000, 1, PowerState::Idle});  // beyond the ring from 0: far
  EXPECT_EQ(w.earliest(), 5'000'000'000u);
  EXPECT_TRUE(pop(w, 5'000'000'000).empty());  // strictly before the horizon only
  const std::vector<Entry> got = pop(w, 5'000'000'001);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].id, 1u);
}

}  // namespace
}  // namespace ssd::model
