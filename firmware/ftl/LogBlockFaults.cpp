// LogBlockFtl under injected faults (flash.faults, docs/reliability.md#injected-faults): a block
// whose erase failed is retired, one whose program failed replaced and retired, and a die whose
// room runs out turns the drive read-only.
#include <algorithm>
#include <stdexcept>

#include "firmware/ftl/LogBlockFtl.h"

namespace ssd::fw {
namespace {

// A die out of room still writes the write buffer's pages it acknowledged: their merges may
// lose blocks to failed erases too, so it turns the drive read-only with two blocks of room
// left (SpareReserve keeps twice this).
constexpr uint32_t kHalfReserve = 1;

}  // namespace

OpId LogBlockFtl::write(Lpn lpn, const PageToken& data, OpId data_from) {
  check_dead_die();
  if (on_dead_die(lpn)) return lose_on_dead_die(lpn);
  try {
    const OpId program = write_page(lpn, data, data_from);
    if (!no_room_.empty()) no_room_.erase(lpn);
    return program;
  } catch (const NoFreeBlock&) {
    // Read-only, the drive still destages the write buffer's acknowledged pages; erases failing
    // in their merges may take a die's last free block (each merge takes its block before it
    // changes a table), and the page has nowhere to go.
    if (!read_only()) throw;
    no_room_.insert(lpn);
    ++units_lost_no_room_;
    if (on_lost_) on_lost_({lpn}, UnitLoss::NoRoom);
    return kNoOp;
  }
}

bool LogBlockFtl::erase_failed(uint32_t die, uint32_t block) {
  const Physical& b = block_[size_t(die) * blocks_per_die_ + block];
  // The firmware reads the status the NAND's draw gives the erase (model/flash/NandDie.cpp);
  // preconditioning (a replay, or functional) is the drive's past, with no faults.
  if (!spare_ || replaying_ || hal_->functional() ||
      !config::erase_fails(faults_, die, block, b.erases))
    return false;
  ++erase_failures_;
  retire(die, block);
  return true;
}

void LogBlockFtl::retire(uint32_t die, uint32_t block) {
  Physical& b = block_[size_t(die) * blocks_per_die_ + block];
  b.retired = true;
  b.free = false;
  spare_->lost(die, hal_->now().to_seconds(), retired_blocks(die), needed_blocks(die));
}

bool LogBlockFtl::program_failed(const Ppa& ppa) {
  // The firmware reads the status the NAND's draw gives the program (model/flash/NandDie.cpp).
  if (!spare_ || replaying_ || hal_->functional() ||
      !config::program_fails(faults_, ppa.die, ppa.block, ppa.page,
                             block_[size_t(ppa.die) * blocks_per_die_ + ppa.block].erases))
    return false;
  ++program_failures_;
  return true;
}

OpId LogBlockFtl::replace_if_failed(Ppa& ppa, const PageToken& data, OpId op) {
  if (!program_failed(ppa)) return op;
  // Every page below the failed one is programmed: the FTLs that may fail a program pad the
  // offsets they skip, and log blocks fill in order. Each fresh block whose own program fails
  // is retired in turn; the failed block still reads.
  const uint32_t source = ppa.block;
  retire(ppa.die, source);
  for (;;) {
    hal_->compute(t_step_);  // the failed status handled
    uint32_t fresh = 0;
    try {
      fresh = take_free(ppa.die);
    } catch (const NoFreeBlock& e) {
      // The failed block is retired with the tables still naming it: the run stops.
      throw std::runtime_error(e.what());
    }
    Ppa at{ppa.die, fresh, 0};
    bool held = true;
    for (; held && at.page < ppa.page; ++at.page) {
      hal_->compute(t_step_);
      PageToken token;
      const OpId read = hal_->flash_read(Ppa{ppa.die, source, at.page}, token);
      hal_->flash_program(at, token, read);
      ++stats_.pages_programmed;
      ++pages_moved_;
      held = !program_failed(at);
    }
    if (held) {
      // The data is still in the controller's buffer; the failed program's status lets it go.
      op = hal_->flash_program(at, data, op);
      ++stats_.pages_programmed;
      held = !program_failed(at);
    }
    if (held) {
      substitute(ppa.die, source, fresh);
      ppa.block = fresh;
      return op;
    }
    retire(ppa.die, fresh);
  }
}

void LogBlockFtl::substitute(uint32_t die, uint32_t from, uint32_t to) {
  for (Slot& s : dies_[die].slots)
    if (s.block == from) s.block = to;
  if (update_.lbn != kNoLbn && die_of(update_.lbn) == die && update_.block == from)
    update_.block = to;
  const uint32_t owner = block_[size_t(die) * blocks_per_die_ + from].owner;
  if (owner != kNone) set_data_block(owner, to, lbn_[owner].data_next, false);
  hal_->dram_access(1, true);  // the map entry that names the block
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
  spare_.emplace(dies(), blocks_per_die_, kHalfReserve, kHalfReserve,
                 config::DieOutOfRoom::ReadOnly);
  double spare = 0;
  for (uint32_t d = 0; d < dies(); ++d) spare += double(blocks_per_die_ - needed_blocks(d));
  const auto retired = [this] {
    return retired_total_and_most(dies(), [this](uint32_t d) { return retired_blocks(d); });
  };
  StatGroup& g = statistics_.group("faults");
  g.counter("erase_failures", StatUnit::Blocks,
            "Erases that failed (flash.faults), each retiring its block for good.", erase_failures_)
      .counter("program_failures", StatUnit::Pages,
               "Page programs that failed (flash.faults): the block's pages below it copied to a "
               "fresh block at the same pages, the data programmed again there, the block retired.",
               program_failures_)
      .counter("pages_moved", StatUnit::Pages,
               "Pages copied off blocks whose program failed (each a read and a program).",
               pages_moved_)
      .counter("units_lost_no_room", StatUnit::Units,
               "Pages (the mapping unit) of the write buffer, acknowledged, that no block was left "
               "for as they "
               "destaged once the drive was read-only (erases failing in their merges took a "
               "die's last free block): lost, their reads failing with an unrecovered read error.",
               units_lost_no_room_)
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
  if (faults_.dead_die_at_ms > 0) dead_.register_figures(statistics_);
}

}  // namespace ssd::fw
