// LogBlockFtl under injected erase failures (flash.faults, docs/reliability.md#injected-faults):
// a block whose erase failed is retired, and a die whose room runs out turns the drive
// read-only.
#include <algorithm>

#include "firmware/ftl/LogBlockFtl.h"

namespace ssd::fw {
namespace {

// A die out of room still writes the write buffer's pages it acknowledged: their merges may
// lose blocks to failed erases too, so it turns the drive read-only with two blocks of room
// left (SpareReserve keeps twice this).
constexpr uint32_t kHalfReserve = 1;

}  // namespace

bool LogBlockFtl::erase_failed(uint32_t die, uint32_t block) {
  Physical& b = block_[size_t(die) * blocks_per_die_ + block];
  // The firmware reads the status the NAND's draw gives the erase (model/flash/NandDie.cpp);
  // preconditioning (a replay, or functional) is the drive's past, with no faults.
  if (!spare_ || replaying_ || hal_->functional() ||
      !config::erase_fails(faults_, die, block, b.erases))
    return false;
  b.retired = true;
  ++erase_failures_;
  spare_->lost(die, hal_->now().to_seconds(), retired_blocks(die), needed_blocks(die));
  return true;
}

uint64_t LogBlockFtl::needed_blocks(uint32_t die) const {
  const uint64_t lbns = lbns_ / dies_.size() + (die < lbns_ % dies_.size() ? 1 : 0);
  return lbns + log_blocks_per_die() + 1;
}

uint32_t LogBlockFtl::retired_blocks(uint32_t die) const {
  const auto first = block_.begin() + std::ptrdiff_t(die) * blocks_per_die_;
  return uint32_t(
      std::count_if(first, first + blocks_per_die_, [](const Physical& p) { return p.retired; }));
}

void LogBlockFtl::register_faults() {
  spare_.emplace(dies(), blocks_per_die_, kHalfReserve, config::DieOutOfRoom::ReadOnly);
  double spare = 0;
  for (uint32_t d = 0; d < dies(); ++d) spare += double(blocks_per_die_ - needed_blocks(d));
  const auto retired = [this] {
    return retired_total_and_most(dies(), [this](uint32_t d) { return retired_blocks(d); });
  };
  StatGroup& g = statistics_.group("faults");
  g.counter("erase_failures", StatUnit::Blocks,
            "Erases that failed (flash.faults), each retiring its block for good.", erase_failures_)
      .derived("spare_blocks", StatUnit::Blocks,
               "Blocks beyond those the FTL needs on each die (a data block for each of its "
               "logical blocks, its log blocks and one for a merge), before any failure.",
               [spare] { return spare; })
      .derived("spare_blocks_left", StatUnit::Blocks, "The spare blocks less the retired ones.",
               [spare, retired] { return spare - retired().first; })
      .derived("most_retired_on_a_die", StatUnit::Blocks,
               "Retired blocks on the die with the most: a logical block lives on its die, so "
               "that die runs out of spare first.",
               [retired] { return double(retired().second); })
      .derived("dies_out_of_room", StatUnit::None,
               "Dies out of room at the end: their room (good blocks beyond those the FTL needs "
               "there) down to two at a lost block; the drive turned read-only.",
               [this] { return double(spare_->dies_out()); });
  spare_->figures(g);
}

}  // namespace ssd::fw
