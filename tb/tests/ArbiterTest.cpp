// Submission-queue arbitration alone: the fetch order from known queue contents.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/host/Arbiter.h"

namespace ssd {
namespace {

using model::host::Arbiter;
using model::host::Arbitration;
using model::host::QueuePriority;

// Takes every command from queues holding `waiting`, returning the queues in fetch order as
// a string of digits.
std::string drain(Arbiter& a, std::vector<uint32_t> waiting) {
  std::string order;
  for (int q; (q = a.next(waiting)) != Arbiter::kNone;) {
    order += char('0' + q);
    --waiting[std::size_t(q)];
  }
  return order;
}

std::vector<QueuePriority> all(std::size_t n, QueuePriority p = QueuePriority::Medium) {
  return std::vector<QueuePriority>(n, p);
}

TEST(Arbiter, RoundRobinTakesOneFromEachQueueInTurn) {
  Arbiter a(Arbitration::RoundRobin, all(3), 1, {1, 1, 1});
  EXPECT_EQ(drain(a, {3, 1, 2}), "012020");
}

TEST(Arbiter, RoundRobinBurstTakesUpToItFromAQueue) {
  Arbiter a(Arbitration::RoundRobin, all(3), 2, {1, 1, 1});
  EXPECT_EQ(drain(a, {5, 1, 3}), "001220020");
}

TEST(Arbiter, NoLimitEmptiesAQueueBeforeTheNext) {
  Arbiter a(Arbitration::RoundRobin, all(2), 0, {1, 1, 1});
  EXPECT_EQ(drain(a, {3, 2}), "00011");
}

// The queue that would come next keeps its turn across calls: commands arriving later.
TEST(Arbiter, RoundRobinResumesAfterTheQueueLastServed) {
  Arbiter a(Arbitration::RoundRobin, all(3), 1, {1, 1, 1});
  EXPECT_EQ(a.next({1, 1, 1}), 0);
  EXPECT_EQ(a.next({0, 1, 1}), 1);
  EXPECT_EQ(a.next({1, 0, 0}), 0);  // 2 has nothing now
  EXPECT_EQ(a.next({1, 0, 1}), 2);
  EXPECT_EQ(a.next({0, 0, 0}), Arbiter::kNone);
}

TEST(Arbiter, RoundRobinIgnoresPriorities) {
  Arbiter a(Arbitration::RoundRobin,
            {QueuePriority::Low, QueuePriority::Urgent, QueuePriority::High}, 1, {4, 2, 1});
  EXPECT_EQ(drain(a, {2, 2, 2}), "012012");
}

TEST(Arbiter, AnUrgentQueueIsServedFirst) {
  Arbiter a(Arbitration::WeightedRoundRobin,
            {QueuePriority::High, QueuePriority::Urgent, QueuePriority::Low}, 1, {1, 1, 1});
  EXPECT_EQ(a.next({3, 2, 3}), 1);
  EXPECT_EQ(a.next({3, 1, 3}), 1);
  EXPECT_EQ(drain(a, {2, 0, 2}), "0202");
  // An urgent command arriving later still goes before the others.
  EXPECT_EQ(a.next({1, 1, 1}), 1);
}

// Weights high 3, medium 2, low 1: a round is three high, two medium, one low commands.
TEST(Arbiter, WeightedRoundRobinGivesEachClassItsWeightPerRound) {
  Arbiter a(Arbitration::WeightedRoundRobin,
            {QueuePriority::Low, QueuePriority::Medium, QueuePriority::High}, 1, {3, 2, 1});
  EXPECT_EQ(drain(a, {4, 6, 8}),
            "222110"
            "222110"
            "22110"
            "0");
}

// Two queues in one class take turns, each a burst at a time, within the class's credits.
TEST(Arbiter, QueuesOfOneClassTakeTurnsWithinItsCredits) {
  Arbiter a(Arbitration::WeightedRoundRobin,
            {QueuePriority::High, QueuePriority::High, QueuePriority::Low}, 2, {4, 1, 1});
  EXPECT_EQ(drain(a, {4, 4, 2}),
            "0011"
            "2"
            "0011"
            "2");
}

}  // namespace
}  // namespace ssd
