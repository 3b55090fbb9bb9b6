#pragma once
// BAST, block-associative sector translation (ftl.type "bast"): each log block serves one
// logical block and takes its writes at any offset, in write order. A log block is cleaned
// as soon as it is full (switch merge if it holds the block's pages in order, else full
// merge), which frees it. A logical block without a log block takes a free one; when none is free,
// the least recently written log block is cleaned and taken (a replacement, the source of BAST's
// many erases). Log blocks per die: ceil(ftl.log_block_fraction x data blocks per die), at
// least 1. Layout, merges and costs: firmware/ftl/LogBlockFtl.h.
#include "firmware/ftl/LogBlockFtl.h"

namespace ssd::fw {

class BastFtl : public LogBlockFtl {
 public:
  BastFtl(const config::DriveConfig& cfg, Hal& hal) : BastFtl(cfg, hal, "bast") {}

  OpId write_page(Lpn lpn, const PageToken& data, OpId data_from) override;

 protected:
  BastFtl(const config::DriveConfig& cfg, Hal& hal, std::string name);
  // A write to a logical block with no log block, when no log block is free.
  virtual OpId write_without_log(uint32_t die, Lpn lpn, const PageToken& data, OpId data_from);
};

}  // namespace ssd::fw
