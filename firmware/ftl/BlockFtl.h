#pragma once
// Block-mapping FTL (ftl.type "block"): one map entry per logical block, each page at its
// fixed offset in its data block. NAND programs a block's pages in ascending order, so a data
// block has a write pointer; a write at or above it is programmed in place. A write below it
// (an update) depends on ftl.block_update (docs/ftl.md#block-mapping):
//   replacement (the founding study's, after Kuo et al. 2008 and Ban 1999): the update goes to
//     the next free page of the logical block's replacement block, whose spare area records
//     the logical page; finding a page's current copy reads the replacement block's spare
//     areas, newest first. A full replacement block is folded: its spare areas read, the
//     current pages of data and replacement block copied into a fresh block at their offsets,
//     both old blocks erased. Offsets never written stay erased (no padding). Replacement
//     blocks per die: as BAST's log blocks (ftl.log_block_fraction); a logical block that needs
//     one when none is free takes the least recently written one, folding its owner.
//   copy_on_update: the block's other current pages and the new page are copied into a fresh
//     block and the old one erased (a full merge; skipped offsets padded).
// Layout and DRAM costs: firmware/ftl/LogBlockFtl.h (a write: 1 block-map read + 1 write).
#include "firmware/ftl/LogBlockFtl.h"

namespace ssd::fw {

class BlockFtl final : public LogBlockFtl {
 public:
  BlockFtl(const config::DriveConfig& cfg, Hal& hal);

  OpId write(Lpn lpn, const PageToken& data, OpId data_from) override;

 private:
  // Reads the spare areas of the slot's pages [first, next), newest first; `one_by_one`: the
  // firmware waits for each (it stops at the one it looks for), else only for the last.
  void read_spares(uint32_t die, uint32_t slot, uint32_t first, bool one_by_one);
  void locate(Lpn lpn) override;
  // Folds the slot after reading all its spare areas.
  void fold_slot(uint32_t die, uint32_t slot);

  bool replacement_;
};

}  // namespace ssd::fw
