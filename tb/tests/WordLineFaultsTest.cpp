// Injected program failures under one-shot programming (flash.program_unit word_line,
// docs/reliability.md#injected-faults): a word line's program fails whole, by the draw of its
// first page, its status known at its last; the page-level FTLs write every page of it again
// (the controller still holds their data), end the word lines that data went to, and retire the
// block once its other data has moved; nothing is lost.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "tb/tests/FaultyRig.h"
#include "tb/tests/NandRig.h"

namespace ssd {
namespace {

using model::FlashOp;
using test::Probe;

// One-shot MLC: a word line of two pages, one program.
void one_shot(config::DriveConfig& c) {
  c.flash.cell_type = config::CellType::Mlc;
  c.flash.program_unit = config::ProgramUnit::WordLine;
  c.dram.write_buffer_mb = 1;
  c.controller.block_order = config::BlockOrder::Nand;
  c.controller.issue_order = config::IssueOrder::PerDieQueues;
  c.ftl.overprovisioning = 0.3;  // spare blocks for the retired ones
}

class FailingWordLines : public test::NandRig {
 protected:
  void SetUp() override {
    NandRig::SetUp();
    one_shot(drive);
    drive.flash.faults.program_fail_probability = 0.5;
  }
  // The first block whose word line 0 draws `first` (its page 0) and whose page 1 draws `second`.
  uint32_t block_drawing(bool first, bool second) const {
    const config::FaultConfig& f = drive.flash.faults;
    uint32_t block = 0;
    while (config::program_fails(f, 0, block, 0, 0) != first ||
           config::program_fails(f, 0, block, 1, 0) != second)
      ++block;
    return block;
  }
  // Programs word line 0 of `block` (pages 0 and 1), then reads page `page`: the model's error.
  std::string program_then_read(uint32_t block, uint32_t page) {
    return run([&](Probe& p) {
      p.send(FlashOp::Program, 0, block, 0);
      p.finish(p.send(FlashOp::Program, 0, block, 1));
      p.finish(p.send(FlashOp::Read, 0, block, page));
    });
  }
};

// Word line 0's draw (its first page's) fails it: both of its pages, the first too.
TEST_F(FailingWordLines, AWordLineFailsWhole) {
  const uint32_t block = block_drawing(true, false);
  const std::string msg = program_then_read(block, 0);
  EXPECT_NE(msg.find("read of a page whose program failed (flash.faults)"), std::string::npos)
      << msg;
}

// A draw of a page that begins no word line decides nothing: the word line programs.
TEST_F(FailingWordLines, OnlyTheFirstPagesDrawCounts) {
  const uint32_t block = block_drawing(false, true);
  EXPECT_EQ(program_then_read(block, 1), "");
  EXPECT_EQ(probe->sent[2].cmd->data.version, 0u);  // what Probe programs
}

// The page FTL and DFTL on one-shot MLC, word lines failing one in three hundred: after a failed
// word line's last program, its pages' data is programmed again, in order, on the same die, each
// once that program's status is in; the blocks are retired unerased and every page reads back.
class FailedWordLines : public ::testing::TestWithParam<test::Faulty::Shape> {};

void dftl_one_shot(config::DriveConfig& c) {
  one_shot(c);
  c.ftl.type = config::FtlType::Dftl;
  c.ftl.map_cache_bytes = 4096;
}

INSTANTIATE_TEST_SUITE_P(PageLevelFtls, FailedWordLines,
                         ::testing::Values(&one_shot, &dftl_one_shot),
                         [](const auto& info) { return info.index == 0 ? "page" : "dftl"; });

TEST_P(FailedWordLines, AreWrittenAgainWhole) {
  test::Faulty d(0, 0.003, GetParam());
  const std::size_t first_op = d.hal.ops().size();
  d.overwrite(8000);
  const auto& ops = d.hal.ops();
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> erases;
  // Since its erase, each block's programs (by op index); each logical page's last program.
  std::map<std::pair<uint32_t, uint32_t>, std::vector<std::size_t>> written;
  std::map<fw::Lpn, std::size_t> last;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> failed;  // the failed word line's first page
  uint64_t word_lines = 0;
  for (std::size_t i = first_op; i < ops.size(); ++i) {
    const auto& op = ops[i];
    const std::pair<uint32_t, uint32_t> block{op.ppa.die, op.ppa.block};
    if (const auto f = failed.find(block); f != failed.end()) {
      EXPECT_EQ(op.kind, test::FakeHal::OpKind::kRead) << "block " << op.ppa.block;
      EXPECT_LT(op.ppa.page, f->second) << "a read of the failed word line, block " << block.second;
      continue;
    }
    if (op.kind == test::FakeHal::OpKind::kErase) {
      ++erases[block];
      written[block].clear();
    }
    if (op.kind != test::FakeHal::OpKind::kProgram) continue;
    written[block].push_back(i);
    last[op.token.lpn] = i;
    if (op.ppa.page % 2 != 1 ||
        !config::program_fails(d.cfg.flash.faults, block.first, block.second, op.ppa.page - 1,
                               erases[block]))
      continue;
    failed[block] = op.ppa.page - 1;
    ++word_lines;
    // The data of the two pages not overwritten since (a DFTL translation page often is), again,
    // in order, on the die, after the failed program's status.
    const std::vector<std::size_t>& pages = written[block];
    ASSERT_GE(pages.size(), 2u);
    std::vector<fw::PageToken> current;
    for (std::size_t k = pages.size() - 2; k < pages.size(); ++k)
      if (last[ops[pages[k]].token.lpn] == pages[k]) current.push_back(ops[pages[k]].token);
    std::vector<fw::PageToken> again;
    for (std::size_t j = i + 1; j < ops.size() && again.size() < current.size(); ++j) {
      const auto& next = ops[j];
      if (next.kind != test::FakeHal::OpKind::kProgram || next.data_ready != op.done) continue;
      EXPECT_EQ(next.ppa.die, op.ppa.die);
      EXPECT_NE(next.ppa.block, op.ppa.block);
      again.push_back(next.token);
    }
    ASSERT_EQ(again.size(), current.size()) << "block " << block.second;
    for (std::size_t p = 0; p < current.size(); ++p) {
      EXPECT_EQ(again[p].lpn, current[p].lpn);
      EXPECT_EQ(again[p].version, current[p].version);
    }
  }
  ASSERT_GT(word_lines, 10u);
  const fw::BlockManager& bm = d.blocks();
  for (const auto& [block, page] : failed)
    EXPECT_EQ(bm.erase_count(block.first, block.second), erases[block]) << "retired, not erased";
  d.ftl.settle();
  while (d.ftl.background_step()) {
  }
  for (const auto& [block, page] : failed) EXPECT_TRUE(bm.retired(block.first, block.second));
  d.expect_every_page();
}

// End to end on the small drive in one-shot MLC, preconditioned, 4 KiB random reads and writes
// with one word line in two hundred failing: several fail, the scoreboard finds every page it
// reads, and the same run again gives the same figures.
TEST(FailedWordLinesDrive, LoseNothingAndRunAlikeTwice) {
  const std::string sets =
      "--set flash.cell_type=mlc --set flash.program_unit=word_line --set dram.write_buffer_mb=1 "
      "--set controller.block_order=nand --set ftl.overprovisioning=0.3 "
      "--set flash.faults.program_fail_probability=0.005 "
      "--workload rw=randrw,mix=0.5,bs=4096,qd=8,count=20000,seed=5";
  const nlohmann::json r = test::run_faulty(test::temp_dir("wl_faults_a"), sets);
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
  EXPECT_GT(r["scoreboard"]["pages_checked"].get<uint64_t>(), 5000u);
  EXPECT_GT(r["faults"]["program_failures"].get<uint64_t>(), 5u) << r["faults"].dump();
  const nlohmann::json again = test::run_faulty(test::temp_dir("wl_faults_b"), sets);
  EXPECT_EQ(again["faults"], r["faults"]);
  EXPECT_EQ(again["flash_ops"], r["flash_ops"]);
  EXPECT_EQ(again["latency_us"], r["latency_us"]);
}

}  // namespace
}  // namespace ssd
