#pragma once
// Block-mapping FTL (ftl.type "block"): one map entry per logical block, each page at its
// fixed offset in the block, no log blocks. A write at or above the block's write pointer is
// programmed in place (padding any skipped offsets, since NAND programs a block's pages in
// order); a write below it (an overwrite) copies the block's other current pages and the new
// page into a fresh block and erases the old one (copy-on-update, counted as a full merge).
// Layout and DRAM costs: firmware/ftl/LogBlockFtl.h (a write: 1 block-map read + 1 write).
#include "firmware/ftl/LogBlockFtl.h"

namespace ssd::fw {

class BlockFtl final : public LogBlockFtl {
 public:
  BlockFtl(const config::DriveConfig& cfg, Hal& hal) : LogBlockFtl(cfg, hal, "block", 0) {}

  OpId write(Lpn lpn, const PageToken& data,
                         OpId data_from) override {
    return write_to_data_block(lpn, data, data_from);
  }
};

}  // namespace ssd::fw
