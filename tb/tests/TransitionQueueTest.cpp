// The energy monitor's queue against the order it must reproduce: every entry before each
// horizon, by time, then component id, then report order, with one begin/end per time.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "model/power/TransitionQueue.h"

namespace ssd::model {
namespace {

struct Reported {
  uint64_t t_ps;
  uint32_t id;
  PowerState state;
  uint64_t seq;
};

// Pops everything before `horizon`, checking that the visits are grouped by time.
struct Collect {
  std::vector<Reported>& out;
  uint64_t open = TransitionQueue::kNever;
  void begin(uint64_t t) {
    EXPECT_EQ(open, TransitionQueue::kNever);
    if (!out.empty()) {
      EXPECT_GT(t, out.back().t_ps);
    }
    open = t;
  }
  void entry(const TransitionQueue::Entry& e) {
    ASSERT_NE(open, TransitionQueue::kNever);
    EXPECT_EQ(e.t_ps, open);
    out.push_back({open, e.id, e.state, uint64_t(e.power_nw)});
  }
  void end(uint64_t t) {
    EXPECT_EQ(t, open);
    open = TransitionQueue::kNever;
  }
};

// The entry's power carries its report's sequence number, to check report order.
TransitionQueue::Entry entry(uint64_t t_ps, uint32_t id, PowerState s, uint64_t seq = 0) {
  return TransitionQueue::Entry{t_ps, id, s, 0, 0, int64_t(seq), 0};
}

std::vector<Reported> pop(TransitionQueue& q, uint64_t horizon) {
  std::vector<Reported> out;
  q.pop_before(horizon, Collect{out});
  return out;
}

// Components report in time order each, at or after "now", up to `ahead_ps` ahead; time moves
// on in steps and the queue is popped.
void run_random(uint64_t seed, uint64_t ahead_ps, uint64_t step_ps) {
  std::mt19937_64 rng(seed);
  const uint32_t components = 40;
  std::vector<uint64_t> last(components, 0);
  std::vector<Reported> pending;
  TransitionQueue q;
  uint64_t now = 0, seq = 0, queued = 0;
  for (int round = 0; round < 4000; ++round) {
    const int reports = int(rng() % 6);
    for (int k = 0; k < reports; ++k) {
      const uint32_t id = uint32_t(rng() % components);
      // Often exactly at the component's last time (a state held for no time), or now;
      // near reports and far ones (both sides of the runs' limits).
      const uint64_t base = std::max(now, last[id]);
      const uint64_t t = rng() % 4 == 0 ? base : base + rng() % (rng() % 2 ? ahead_ps : 3'000'000);
      last[id] = t;
      const PowerState s = PowerState(rng() % 3);
      // Queued at "now", or later (a report held back), even after its own time.
      queued = std::max(queued, now) + (rng() % 3 == 0 ? rng() % (2 * step_ps) : 0);
      q.push(entry(t, id, s, seq), queued);
      pending.push_back({t, id, s, seq++});
    }
    now += rng() % step_ps;
    std::vector<Reported> due, rest;
    for (const Reported& r : pending) (r.t_ps < now ? due : rest).push_back(r);
    pending.swap(rest);
    std::sort(due.begin(), due.end(), [](const Reported& a, const Reported& b) {
      if (a.t_ps != b.t_ps) return a.t_ps < b.t_ps;
      return a.id != b.id ? a.id < b.id : a.seq < b.seq;
    });
    const std::vector<Reported> got = pop(q, now);
    ASSERT_EQ(got.size(), due.size()) << "round " << round;
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i].t_ps, due[i].t_ps) << "round " << round << " entry " << i;
      ASSERT_EQ(got[i].id, due[i].id);
      ASSERT_EQ(got[i].seq, due[i].seq);
      ASSERT_EQ(got[i].state, due[i].state);
    }
    uint64_t earliest = TransitionQueue::kNever;
    for (const Reported& r : pending) earliest = std::min(earliest, r.t_ps);
    ASSERT_EQ(q.earliest(), earliest);
  }
  EXPECT_EQ(pop(q, TransitionQueue::kNever).size(), pending.size());
  EXPECT_EQ(q.earliest(), TransitionQueue::kNever);
}

TEST(TransitionQueue, NearReportsInOrder) { run_random(1, 3'000'000, 2'000'000); }
TEST(TransitionQueue, FarReportsInOrder) { run_random(2, 20'000'000'000, 500'000'000); }
TEST(TransitionQueue, LongIdleGaps) { run_random(3, 50'000'000'000, 60'000'000'000); }
// Many reports queued at once: the runs grow and are popped a part at a time.
TEST(TransitionQueue, CrowdedRunsPopInParts) { run_random(4, 300'000, 150'000); }

TEST(TransitionQueue, EmptyPopsNothing) {
  TransitionQueue q;
  EXPECT_EQ(q.earliest(), TransitionQueue::kNever);
  EXPECT_TRUE(pop(q, 1'000'000'000).empty());
  q.push(entry(5'000'000'000, 1, PowerState::Idle), 0);  // far ahead
  EXPECT_EQ(q.earliest(), 5'000'000'000u);
  EXPECT_TRUE(pop(q, 5'000'000'000).empty());  // strictly before the horizon only
  const std::vector<Reported> got = pop(q, 5'000'000'001);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].id, 1u);
}

// Reports that come before an earlier one of their run wait beside it (Run's heap): among
// equal reports they still go in report order, before or after the ones that came in order.
TEST(TransitionQueue, LateReportsKeepReportOrderAmongEquals) {
  TransitionQueue q;
  const PowerState s = PowerState::Idle;
  q.push(entry(10, 1, s, 0), 0);  // in order
  q.push(entry(20, 1, s, 1), 0);  // in order
  q.push(entry(10, 1, s, 2), 0);  // late: after the first, reported after it
  q.push(entry(5, 1, s, 3), 0);   // late
  q.push(entry(5, 1, s, 4), 0);   // late, equal to the one before
  q.push(entry(20, 1, s, 5), 0);  // in order, equal to the last in order
  q.push(entry(10, 0, s, 6), 0);  // late, a lower component id at 10
  std::vector<uint64_t> order;
  for (const Reported& r : pop(q, TransitionQueue::kNever)) order.push_back(r.seq);
  EXPECT_EQ(order, (std::vector<uint64_t>{3, 4, 6, 0, 2, 1, 5}));
}

// A report before a few later ones of its run moves in among them (up to 8); one farther back
// waits in the heap, and a report equal to it, made after it, goes there too: among equal
// reports report order holds across the two.
TEST(TransitionQueue, NearlyInOrderReportsMoveInAmongTheLaterOnes) {
  TransitionQueue q;
  const PowerState s = PowerState::Idle;
  for (uint64_t i = 0; i < 10; ++i) q.push(entry(100 + i, 1, s, i), 0);  // 100..109 in order
  q.push(entry(108, 1, s, 10), 0);  // before one later entry: moved in, after the equal one
  q.push(entry(100, 1, s, 11), 0);  // before nine: to the heap, after the equal one in order
  q.push(entry(100, 1, s, 12), 0);  // the same: after it
  q.push(entry(109, 1, s, 13), 0);  // in order, equal to the last
  q.push(entry(104, 1, s, 14), 0);  // before seven: moved in, after the equal one
  std::vector<uint64_t> order;
  for (const Reported& r : pop(q, TransitionQueue::kNever)) order.push_back(r.seq);
  EXPECT_EQ(order, (std::vector<uint64_t>{0, 11, 12, 1, 2, 3, 4, 14, 5, 6, 7, 8, 10, 9, 13}));
}

}  // namespace
}  // namespace ssd::model
