#pragma once
// Block-mapping FTL (ftl.type "block"): one map entry per logical block, each page at its
// fixed offset in its data block. NAND programs a block's pages in ascending order, so a data
// block has a write pointer; a write at or above it is programmed in place. A write below it
// (an update) depends on ftl.block_update (docs/ftl.md#block-mapping):
//   replacement (the founding study's, after Kuo et al. 2008 and Ban 1999): the update goes to
//     the next free page of the logical block's replacement block, whose spare area records
//     the logical page. A host read finds a page's current copy by ftl.block_read_lookup:
//     scan, it reads the replacement block's spare areas, newest first, each waited for;
//     sram (the founding study's), it searches, newest first, the offsets of the replacement
//     block's pages, which it keeps in an SRAM (one written as each page is programmed; after a
//     restart, rebuilt from the spare areas). A full replacement block is folded: its spare
//     areas read, the
//     current pages of data and replacement block copied into a fresh block at their offsets,
//     both old blocks erased. Offsets never written stay erased (no padding). Replacement
//     blocks per die: as BAST's log blocks (ftl.log_block_fraction); a logical block that needs
//     one when none is free takes the least recently written one, folding its owner.
//   copy_on_update: the block's other current pages and the new page are copied into a fresh
//     block and the old one erased (a full merge; skipped offsets padded).
// Layout and DRAM costs: firmware/ftl/LogBlockFtl.h (a write: 1 block-map read + 1 write).
#include <cstdint>
#include <vector>

#include "firmware/ftl/LogBlockFtl.h"

namespace ssd::fw {

class BlockFtl final : public LogBlockFtl {
 public:
  BlockFtl(const config::DriveConfig& cfg, Hal& hal);

  OpId write_page(Lpn lpn, const PageToken& data, OpId data_from) override;
  // With the offsets in SRAM: reads the spare areas of every replacement block's written
  // pages and fills the SRAM from them (the SRAM is not part of the saved state).
  void restart() override;

 private:
  // Reads the spare areas of the slot's pages [first, next), newest first; `one_by_one`: the
  // firmware waits for each (it stops at the one it looks for), else only for the last.
  void read_spares(uint32_t die, uint32_t slot, uint32_t first, bool one_by_one);
  // `entries` offsets of the SRAM read (or one written), t_sram_access_ns each, the core
  // waiting (Hal::unit_work: the SRAM's energy where it is spent).
  void sram_access(uint32_t entries, const StatKey& counter);
  uint32_t& sram_offset(uint32_t die, uint32_t slot, uint32_t page) {
    return sram_[(size_t(die) * log_blocks_per_die() + slot) * ppb_ + page];
  }
  void locate(Lpn lpn) override;
  // Folds the slot after reading all its spare areas.
  void fold_slot(uint32_t die, uint32_t slot);

  bool replacement_;
  bool in_sram_;  // block_read_lookup sram, with replacement blocks
  sc_core::sc_time t_sram_;
  // The SRAM: per die, replacement block (slot) and page below its write pointer, the offset
  // in its logical block of the page written there, as its spare area records it.
  std::vector<uint32_t> sram_;
};

}  // namespace ssd::fw
