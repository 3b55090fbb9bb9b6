// A die's command queue and its ordering rules, alone: plain C++, no SystemC process runs.
#include <gtest/gtest.h>

#include <deque>

#include "model/flash/DieQueue.h"

namespace ssd {
namespace {

using model::FlashCommandExt;
using model::FlashOp;
using model::flash::Cmd;
using model::flash::DieQueue;
using sc_core::sc_time;
using sc_core::SC_US;

constexpr uint32_t kBlocks = 8, kPages = 16;

// Commands as a channel would queue them: each with its own extension, in issue order.
struct Rig {
  DieQueue q{kBlocks, kPages, true};
  std::deque<FlashCommandExt> exts;
  uint64_t seq = 0;
  // Queues `op` to (block, page), arriving at `arrival_us`, its data ready at `data_us`
  // (negative: not known yet).
  uint32_t push(FlashOp op, uint32_t block, uint32_t page, double arrival_us = 0,
                double data_us = 0, const sc_time& now = sc_core::SC_ZERO_TIME) {
    FlashCommandExt& e = exts.emplace_back();
    e.op = op;
    e.ppa = fw::Ppa{0, block, page};
    e.data_ready_at = data_us < 0 ? sc_core::sc_max_time() : sc_time(data_us, SC_US);
    q.push(Cmd{nullptr, &e, seq++, sc_time(arrival_us, SC_US)}, now);
    return e.queue_node;
  }
  std::vector<uint32_t> eligible() const { return q.eligible(); }
};

TEST(DieQueue, CommandsToOtherBlocksAreEligibleInIssueOrder) {
  Rig r;
  const uint32_t a = r.push(FlashOp::Program, 0, 0);
  const uint32_t b = r.push(FlashOp::Read, 1, 3);
  const uint32_t c = r.push(FlashOp::Erase, 2, 0);
  EXPECT_EQ(r.q.size(), 3u);
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{a, b, c}));
}

TEST(DieQueue, ProgramsToOneBlockGoInIssueOrder) {
  Rig r;
  const uint32_t p0 = r.push(FlashOp::Program, 4, 0);
  const uint32_t p1 = r.push(FlashOp::Program, 4, 1);
  const uint32_t other = r.push(FlashOp::Program, 5, 0);
  const uint32_t p2 = r.push(FlashOp::Program, 4, 2);
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{p0, other}));
  r.q.remove(p0);
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{p1, other}));
  r.q.remove(other);
  r.q.remove(p1);
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{p2}));
  r.q.remove(p2);
  EXPECT_EQ(r.q.size(), 0u);
}

TEST(DieQueue, AnEraseWaitsForEveryEarlierCommandToItsBlock) {
  Rig r;
  const uint32_t read = r.push(FlashOp::Read, 3, 5);
  const uint32_t erase = r.push(FlashOp::Erase, 3, 0);
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{read}));
  r.q.remove(read);
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{erase}));
}

TEST(DieQueue, ReadyOnceArrivedAndItsDataIsInTheBuffer) {
  Rig r;
  const uint32_t late = r.push(FlashOp::Read, 0, 0, 10);
  const uint32_t no_data = r.push(FlashOp::Program, 1, 0, 0, 25);
  EXPECT_FALSE(r.q.ready(late, sc_time(9.999, SC_US)));
  EXPECT_TRUE(r.q.ready(late, sc_time(10, SC_US)));
  EXPECT_FALSE(r.q.ready(no_data, sc_time(24, SC_US)));
  EXPECT_TRUE(r.q.ready(no_data, sc_time(25, SC_US)));
  // The wake-ups: each time once, past ones dropped.
  EXPECT_EQ(r.q.next_ready(sc_core::SC_ZERO_TIME), sc_time(10, SC_US));
  EXPECT_EQ(r.q.next_ready(sc_time(10, SC_US)), sc_time(25, SC_US));
  EXPECT_EQ(r.q.next_ready(sc_time(25, SC_US)), sc_core::sc_max_time());
}

TEST(DieQueue, DataTimeLearntLaterAndStartedCommandsWakeNothing) {
  Rig r;
  // The read bringing its data is in flight: when it is in the buffer is learnt later.
  const uint32_t p = r.push(FlashOp::Program, 0, 0, 1, -1);
  const uint32_t q = r.push(FlashOp::Program, 1, 0, 0, 1e9);
  EXPECT_EQ(r.q.next_ready(sc_core::SC_ZERO_TIME), sc_time(1, SC_US));
  r.exts[0].data_ready_at = sc_time(40, SC_US);
  r.q.data_ready(p, sc_time(2, SC_US));
  EXPECT_EQ(r.q.next_ready(sc_time(2, SC_US)), sc_time(40, SC_US));
  r.q.remove(p);
  EXPECT_EQ(r.q.next_ready(sc_time(2, SC_US)), sc_time(1e9, SC_US));
  r.q.remove(q);
  EXPECT_EQ(r.q.next_ready(sc_time(2, SC_US)), sc_core::sc_max_time());
}

TEST(DieQueue, ProgramsListedByPageOffsetForTheMultiPlaneWait) {
  Rig r;
  const uint32_t a = r.push(FlashOp::Program, 0, 7);
  r.push(FlashOp::Read, 1, 7);
  const uint32_t b = r.push(FlashOp::Program, kBlocks / 2, 7);
  EXPECT_EQ(r.q.programs_at_page(7), (std::vector<uint32_t>{a, b}));
  r.q.remove(a);
  EXPECT_EQ(r.q.programs_at_page(7), (std::vector<uint32_t>{b}));
}

TEST(DieQueue, NodesAreReusedAndHeldByTheirPayload) {
  Rig r;
  const uint32_t a = r.push(FlashOp::Read, 0, 0);
  EXPECT_TRUE(r.q.holds(a, nullptr));
  r.q.remove(a);
  EXPECT_FALSE(r.q.holds(a, nullptr));
  EXPECT_EQ(r.push(FlashOp::Read, 0, 1), a);
  EXPECT_FALSE(r.q.holds(a + 1, nullptr));
}

}  // namespace
}  // namespace ssd
