#include "firmware/ftl/BlockFtl.h"

namespace ssd::fw {
namespace {

const StatKey kReplacements("merges", "replacements", StatUnit::None,
                            "Replacement blocks folded to take another one.");
const StatKey kOobReads("merges", "oob_reads", StatUnit::Reads,
                        "Spare areas read to find a page's current copy.");

}  // namespace

BlockFtl::BlockFtl(const config::DriveConfig& cfg, Hal& hal)
    : LogBlockFtl(cfg, hal, "block"),
      replacement_(cfg.ftl.block_update == config::BlockUpdate::Replacement) {
  if (!replacement_) return;  // copy-on-update: its merges are the base's full merges
  statistics_.add(kReplacements);
  statistics_.group("merges").counter(
      "folds", StatUnit::Merges, "Replacement blocks folded (also full merges).", log_stats_.folds);
  statistics_.add(kOobReads);
}

OpId BlockFtl::write(Lpn lpn, const PageToken& data, OpId data_from) {
  const Lbn lbn = lbn_of(lpn);
  if (!replacement_ || data_block(lbn) == kNone || offset_of(lpn) >= data_next(lbn))
    return write_to_data_block(lpn, data, data_from);
  const uint32_t die = die_of(lbn);
  uint32_t slot = dedicated_slot(lbn);
  if (slot == kNone) {
    slot = first_empty(die, 0, log_blocks_per_die());
    if (slot == kNone) {
      slot = least_recently_written(die, 0, log_blocks_per_die());
      fold_slot(die, slot);
      ++statistics_[kReplacements];
    }
    dedicate(die, slot, lbn);
  }
  const OpId done = append(die, slot, lpn, data, data_from);
  // Folded at once: a full replacement block held until the next update would keep a block.
  if (slot_full(die, slot)) fold_slot(die, slot);
  return done;
}

void BlockFtl::read_spares(uint32_t die, uint32_t slot, uint32_t first, bool one_by_one) {
  OpId last = kNoOp;
  for (uint32_t p = slot_next(die, slot); p-- > first;) {
    PageToken spare;
    last = hal_->flash_read_spare(Ppa{die, slot_block(die, slot), p}, spare);
    ++statistics_[kOobReads];
    if (one_by_one) hal_->wait_for(last);
  }
  hal_->wait_for(last);
}

void BlockFtl::locate(Lpn lpn) {
  if (!replacement_) return;
  const Lbn lbn = lbn_of(lpn);
  const uint32_t slot = dedicated_slot(lbn);
  // At or above the write pointer the page was never written: the replacement block only
  // takes offsets below it.
  if (slot == kNone || offset_of(lpn) >= data_next(lbn)) return;
  const uint32_t die = die_of(lbn);
  // Newest first: the first spare area naming the page is its current copy; if none does,
  // the copy is in the data block.
  const uint32_t at = page_in_slot(lpn, slot);
  read_spares(die, slot, at == kNone ? 0 : at, true);
}

void BlockFtl::fold_slot(uint32_t die, uint32_t slot) {
  {
    Hal::Scope merge(*hal_, Work::Merge);
    // Which copy of each offset is current: the newest spare area naming it.
    read_spares(die, slot, 0, false);
  }
  fold(die, slot);
}

}  // namespace ssd::fw
