#include "firmware/ftl/BlockFtl.h"

#include <stdexcept>
#include <string>

namespace ssd::fw {
namespace {

const StatKey kReplacements("merges", "replacements", StatUnit::None,
                            "Replacement blocks folded to take another one.");
const StatKey kOobReads("merges", "oob_reads", StatUnit::Reads,
                        "Spare areas read: in folds, and to find a page's current copy (scan).");
const StatKey kSramReads("merges", "sram_reads", StatUnit::Reads,
                         "Replacement-block offsets read in SRAM to find a page's current copy.");
const StatKey kSramWrites("merges", "sram_writes", StatUnit::Writes,
                          "Replacement-block offsets written to SRAM as their pages were.");

}  // namespace

BlockFtl::BlockFtl(const config::DriveConfig& cfg, Hal& hal)
    : LogBlockFtl(cfg, hal, "block"),
      replacement_(cfg.ftl.block_update == config::BlockUpdate::Replacement),
      in_sram_(replacement_ && cfg.ftl.block_read_lookup == config::BlockReadLookup::Sram),
      t_sram_(cfg.ftl.t_sram_access_ns, sc_core::SC_NS),
      sram_(in_sram_ ? size_t(dies()) * log_blocks_per_die() * ppb_ : 0) {
  if (!replacement_) return;  // copy-on-update: its merges are the base's full merges
  statistics_.add(kReplacements);
  statistics_.group("merges").counter(
      "folds", StatUnit::Merges, "Replacement blocks folded (also full merges).", log_stats_.folds);
  statistics_.add(kOobReads);
  if (!in_sram_) return;
  statistics_.add(kSramReads);
  statistics_.add(kSramWrites);
}

OpId BlockFtl::write_page(Lpn lpn, const PageToken& data, OpId data_from) {
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
  if (in_sram_) {
    // The page's offset, as its spare area will hold it.
    Hal::Scope mapping(*hal_, Work::Mapping);
    sram_offset(die, slot, slot_next(die, slot)) = offset_of(lpn);
    sram_access(1, kSramWrites);
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

void BlockFtl::sram_access(uint32_t entries, const StatKey& counter) {
  hal_->unit_work(Unit::Sram, t_sram_ * double(entries));
  statistics_[counter] += entries;
}

void BlockFtl::restart() {
  if (!in_sram_) return;
  for (uint32_t die = 0; die < dies(); ++die)
    for (uint32_t slot = 0; slot < log_blocks_per_die(); ++slot)
      for (uint32_t p = 0; !slot_empty(die, slot) && p < slot_next(die, slot); ++p) {
        PageToken spare;
        hal_->flash_read_spare(Ppa{die, slot_block(die, slot), p}, spare);
        sram_offset(die, slot, p) = offset_of(spare.lpn);
      }
}

void BlockFtl::locate(Lpn lpn) {
  if (!replacement_) return;
  const Lbn lbn = lbn_of(lpn);
  const uint32_t slot = dedicated_slot(lbn);
  // At or above the write pointer the page was never written: the replacement block only
  // takes offsets below it.
  if (slot == kNone || offset_of(lpn) >= data_next(lbn)) return;
  const uint32_t die = die_of(lbn);
  // Newest first: the first offset naming the page is its current copy; if none does, the
  // copy is in the data block.
  const uint32_t at = page_in_slot(lpn, slot);
  const uint32_t first = at == kNone ? 0 : at;
  if (!in_sram_) {
    read_spares(die, slot, first, true);
    return;
  }
  // The firmware reads the page there from what the SRAM says: an SRAM that disagrees with the
  // spare areas (not rebuilt after a restart) is a model error, not a wrong page.
  if (at != kNone && sram_offset(die, slot, at) != offset_of(lpn))
    throw std::logic_error("block FTL: the SRAM's offset of replacement page " +
                           std::to_string(at) + " of die " + std::to_string(die) +
                           " disagrees with its spare area");
  sram_access(slot_next(die, slot) - first, kSramReads);
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
