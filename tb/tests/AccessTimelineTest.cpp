// The DRAM's timeline of reserved accesses: gaps between accesses taken by later requests,
// touching accesses merged, self-refresh never a gap, changes handed out in time order.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "model/dram/AccessTimeline.h"

namespace ssd {
namespace {

using model::AccessTimeline;
using model::PowerState;
using sc_core::SC_NS;
using sc_core::sc_time;

sc_time ns(double v) { return sc_time(v, SC_NS); }

std::vector<std::pair<sc_time, PowerState>> take(AccessTimeline& t, const sc_time& horizon) {
  std::vector<std::pair<sc_time, PowerState>> out;
  t.take_before(horizon, [&](const sc_time& at, PowerState s) { out.emplace_back(at, s); });
  return out;
}

using Changes = std::vector<std::pair<sc_time, PowerState>>;
constexpr PowerState kA = PowerState::Active, kI = PowerState::Idle, kS = PowerState::SelfRefresh;

TEST(AccessTimeline, ALaterRequestTakesTheFirstGapItFitsIn) {
  AccessTimeline t;
  t.reserve(ns(10), ns(20));
  t.reserve(ns(50), ns(60));
  sc_time start;
  ASSERT_TRUE(t.fit(ns(0), ns(5), start));  // before the first access: idle since time 0
  EXPECT_EQ(start, ns(0));
  ASSERT_TRUE(t.fit(ns(0), ns(25), start));  // [0, 10) is too short: after the first access
  EXPECT_EQ(start, ns(20));
  ASSERT_TRUE(t.fit(ns(15), ns(30), start));  // exactly [20, 50)
  EXPECT_EQ(start, ns(20));
  EXPECT_FALSE(t.fit(ns(15), ns(31), start));  // no gap holds it: after all (the DRAM's call)
  EXPECT_FALSE(t.fit(ns(55), ns(1), start));
}

TEST(AccessTimeline, TouchingAccessesMerge) {
  AccessTimeline t;
  t.reserve(ns(10), ns(20));
  t.reserve(ns(50), ns(60));
  t.reserve(ns(20), ns(30));  // joins the first
  t.reserve(ns(40), ns(50));  // joins the second
  EXPECT_EQ(take(t, ns(1000)), (Changes{{ns(10), kA}, {ns(30), kI}, {ns(40), kA}, {ns(60), kI}}));
  AccessTimeline u;
  u.reserve(ns(10), ns(20));
  u.reserve(ns(30), ns(40));
  u.reserve(ns(20), ns(30));  // fills the gap: one access
  u.reserve(ns(40), ns(45));  // appended to its end
  EXPECT_EQ(take(u, ns(1000)), (Changes{{ns(10), kA}, {ns(45), kI}}));
  AccessTimeline v;
  v.reserve(ns(10), ns(20));
  v.reserve(ns(30), ns(40));
  v.reserve(ns(22), ns(25));  // inside the gap, touching neither
  EXPECT_EQ(
      take(v, ns(1000)),
      (Changes{
          {ns(10), kA}, {ns(20), kI}, {ns(22), kA}, {ns(25), kI}, {ns(30), kA}, {ns(40), kI}}));
}

TEST(AccessTimeline, SelfRefreshIsNoGap) {
  AccessTimeline t;
  t.reserve(ns(10), ns(20));
  t.change(ns(100), kS);  // entered (reached) after the idle time
  t.change(ns(200), kI);  // woken by the next access, which waits for the exit
  t.reserve(ns(210), ns(220));
  sc_time start;
  EXPECT_FALSE(t.fit(ns(30), ns(5), start));   // idle, on the way into self-refresh
  EXPECT_FALSE(t.fit(ns(150), ns(5), start));  // in it
  EXPECT_FALSE(t.fit(ns(200), ns(5), start));  // leaving it
  ASSERT_TRUE(t.fit(ns(0), ns(5), start));     // before the first access, awake
  EXPECT_EQ(start, ns(0));
  // An exit of no time: the access starts where the DRAM wakes; self-refresh does not run on.
  AccessTimeline u;
  u.change(ns(100), kS);
  u.change(ns(200), kI);
  u.reserve(ns(200), ns(210));
  EXPECT_EQ(take(u, ns(1000)),
            (Changes{{ns(100), kS}, {ns(200), kI}, {ns(200), kA}, {ns(210), kI}}));
}

TEST(AccessTimeline, ChangesAreHandedOutBeforeTheHorizonOnly) {
  AccessTimeline t;
  t.reserve(ns(10), ns(20));
  t.reserve(ns(30), ns(40));
  EXPECT_EQ(take(t, ns(10)), Changes{});
  EXPECT_EQ(take(t, ns(25)), (Changes{{ns(10), kA}, {ns(20), kI}}));
  // The reported access is fixed: nothing is placed before its end any more.
  sc_time start;
  ASSERT_TRUE(t.fit(ns(25), ns(5), start));
  EXPECT_EQ(start, ns(25));
  EXPECT_EQ(take(t, ns(35)), (Changes{{ns(30), kA}}));
  EXPECT_FALSE(t.fit(ns(35), ns(1), start));  // inside the access being served
  EXPECT_FALSE(t.empty());
  EXPECT_EQ(take(t, ns(1000)), (Changes{{ns(40), kI}}));
  EXPECT_TRUE(t.empty());
  EXPECT_FALSE(t.fit(ns(45), ns(1), start));  // after everything: the DRAM's own call
}

}  // namespace
}  // namespace ssd
