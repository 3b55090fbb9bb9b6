// A die's record of its background work, alone: the time it gives for any span.
#include <gtest/gtest.h>

#include "model/flash/BackgroundTime.h"

namespace ssd {
namespace {

using model::flash::BackgroundTime;
using sc_core::sc_time;
using sc_core::SC_US;

sc_time us(double v) { return sc_time(v, SC_US); }

TEST(BackgroundTime, NothingRecordedIsNoTime) {
  const BackgroundTime b;
  EXPECT_EQ(b.between(us(0), us(100)), sc_core::SC_ZERO_TIME);
}

TEST(BackgroundTime, OverlapsOfASpanWithTheRecordedWork) {
  BackgroundTime b;
  b.add(us(10), us(30));
  b.add(us(50), us(60));
  b.add(us(60), us(65));  // back to back: 15 us from 50
  EXPECT_EQ(b.between(us(0), us(100)), us(35));
  EXPECT_EQ(b.between(us(20), us(55)), us(15));  // 10 of the first, 5 of the second
  EXPECT_EQ(b.between(us(30), us(50)), sc_core::SC_ZERO_TIME);
  EXPECT_EQ(b.between(us(62), us(62)), sc_core::SC_ZERO_TIME);
  EXPECT_EQ(b.between(us(55), us(40)), sc_core::SC_ZERO_TIME);  // no span
  EXPECT_EQ(b.between(us(61), us(64)), us(3));
  EXPECT_EQ(b.between(us(70), us(80)), sc_core::SC_ZERO_TIME);
}

// An operation recorded ahead, ending after the span asked about, counts up to the span's end.
TEST(BackgroundTime, WorkStillGoingCountsUpToTheSpansEnd) {
  BackgroundTime b;
  b.add(us(100), us(600));
  EXPECT_EQ(b.between(us(150), us(300)), us(150));
}

TEST(BackgroundTime, ForgettingKeepsTheAnswersAfterIt) {
  BackgroundTime b;
  for (int i = 0; i < 1000; ++i) b.add(us(10.0 * i), us(10.0 * i + 4));
  b.forget_before(us(9000));
  EXPECT_EQ(b.between(us(9000), us(9100)), us(40));
  EXPECT_EQ(b.between(us(9002), us(9012)), us(4));  // 2 + 2
  b.forget_before(us(1e9));                         // everything: starts afresh
  EXPECT_EQ(b.between(us(0), us(1e9)), sc_core::SC_ZERO_TIME);
  b.add(us(2e9), us(2e9 + 1));
  EXPECT_EQ(b.between(us(0), us(3e9)), us(1));
}

// Forgetting is asked for again only once the kept spans have doubled (at least 512), so a
// command queued for long, which holds every span after it, is not looked for on every call.
TEST(BackgroundTime, CrowdedOnceTheKeptSpansDoubled) {
  BackgroundTime b;
  for (int i = 0; i < 511; ++i) b.add(us(i), us(i + 0.5));
  EXPECT_FALSE(b.crowded());
  b.add(us(511), us(511.5));
  EXPECT_TRUE(b.crowded());
  b.forget_before(us(100));  // 412 kept: next at 824
  EXPECT_FALSE(b.crowded());
  for (int i = 512; i < 923; ++i) b.add(us(i), us(i + 0.5));
  EXPECT_FALSE(b.crowded());  // 823 kept
  b.add(us(923), us(923.5));
  EXPECT_TRUE(b.crowded());
  EXPECT_EQ(b.between(us(100), us(924)), us(412));
}

}  // namespace
}  // namespace ssd
