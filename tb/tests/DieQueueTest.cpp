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
// block_order "in_order", or with `nand` the NAND part's rules.
struct Rig {
  explicit Rig(bool nand = false) : q(kBlocks, kPages, nand, true) {}
  DieQueue q;
  std::deque<FlashCommandExt> exts;
  uint64_t seq = 0;
  // Queues `op` to (block, page), arriving at `arrival_us`, its data ready at `data_us`
  // (negative: not known yet).
  uint32_t push(FlashOp op, uint32_t block, uint32_t page, double arrival_us = 0,
                double data_us = 0, bool background = false) {
    FlashCommandExt& e = exts.emplace_back();
    e.op = op;
    e.background = background;
    e.ppa = fw::Ppa{0, block, page};
    e.data_ready_at = data_us < 0 ? sc_core::sc_max_time() : sc_time(data_us, SC_US);
    q.push(Cmd{nullptr, &e, seq++, sc_time(arrival_us, SC_US)}, sc_core::SC_ZERO_TIME);
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

// The earliest arrival among the commands still queued: a started (removed) one no longer counts.
TEST(DieQueue, OldestArrivalIsOfTheCommandsStillQueued) {
  Rig r;
  EXPECT_EQ(r.q.oldest_arrival(), sc_core::sc_max_time());
  const uint32_t a = r.push(FlashOp::Read, 0, 0, 5);
  r.push(FlashOp::Read, 1, 0, 9);
  r.push(FlashOp::Read, 2, 0, 7);
  EXPECT_EQ(r.q.oldest_arrival(), sc_time(5, SC_US));
  r.q.remove(a);
  EXPECT_EQ(r.q.oldest_arrival(), sc_time(7, SC_US));
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

TEST(DieQueue, InOrderAReadWaitsForEveryEarlierCommandToItsBlock) {
  Rig r;
  const uint32_t gc_read = r.push(FlashOp::Read, 2, 0, 0, 0, true);
  const uint32_t prog = r.push(FlashOp::Program, 2, 9);
  const uint32_t read = r.push(FlashOp::Read, 2, 3);
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{gc_read}));
  r.q.remove(gc_read);
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{prog}));
  r.q.remove(prog);
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{read}));
}

// block_order "nand": a read of a page programmed earlier passes the programs queued for its
// block, and a host read passes the background reads (a GC victim's copies) queued before it.
TEST(DieQueue, NandAReadOfAFinishedPagePassesProgramsAndCopiesOfItsBlock) {
  Rig r(true);
  const uint32_t p9 = r.push(FlashOp::Program, 2, 9);
  const uint32_t p10 = r.push(FlashOp::Program, 2, 10);
  const uint32_t copy = r.push(FlashOp::Read, 2, 0, 0, 0, true);
  const uint32_t copy2 = r.push(FlashOp::Read, 2, 1, 0, 0, true);
  const uint32_t host = r.push(FlashOp::Read, 2, 3);
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{p9, copy, host}));
  for (const uint32_t n : {p9, copy, host}) EXPECT_TRUE(r.q.ready(n, sc_core::SC_ZERO_TIME));
  r.q.remove(host);
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{p9, copy}));
  r.q.remove(copy);
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{p9, copy2}));
  r.q.remove(p9);
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{p10, copy2}));
}

// A read of a page whose program is still queued waits for that program only: not for the
// programs queued after it, nor for other blocks'.
TEST(DieQueue, NandAReadWaitsForItsOwnPagesProgramOnly) {
  Rig r(true);
  const uint32_t p4 = r.push(FlashOp::Program, 1, 4);
  const uint32_t other = r.push(FlashOp::Program, 2, 5);
  const uint32_t p5 = r.push(FlashOp::Program, 1, 5);
  const uint32_t p6 = r.push(FlashOp::Program, 1, 6);
  const uint32_t read5 = r.push(FlashOp::Read, 1, 5);
  const uint32_t read2 = r.push(FlashOp::Read, 1, 2);
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{p4, other, read2}));
  r.q.remove(p4);
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{other, p5, read2}));
  r.q.remove(p5);  // started: the die is busy with it until it ends
  // The read goes before the later read of its block, in issue order.
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{other, p6, read5}));
  r.q.remove(read5);
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{other, p6, read2}));
}

TEST(DieQueue, NandAnEraseWaitsForEarlierReadsOfItsBlockOnly) {
  Rig r(true);
  const uint32_t copy = r.push(FlashOp::Read, 3, 7, 0, 0, true);
  const uint32_t host = r.push(FlashOp::Read, 3, 1);
  const uint32_t erase = r.push(FlashOp::Erase, 3, 0);
  const uint32_t p0 = r.push(FlashOp::Program, 3, 0);
  const uint32_t reread = r.push(FlashOp::Read, 3, 0);  // of the block's new contents
  const sc_time now = sc_core::SC_ZERO_TIME;
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{copy, host, erase}));
  EXPECT_FALSE(r.q.ready(erase, now));
  r.q.remove(copy);
  EXPECT_FALSE(r.q.ready(erase, now));
  r.q.remove(host);
  EXPECT_TRUE(r.q.ready(erase, now));
  r.q.remove(erase);
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{p0}));
  r.q.remove(p0);
  EXPECT_EQ(r.eligible(), (std::vector<uint32_t>{reread}));
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
