#pragma once
// FAST, fully associative sector translation (ftl.type "fast"). Per die: one sequential log
// block dedicated to one logical block at a time, and random log blocks shared by every
// logical block of the die (ceil(ftl.log_block_fraction x data blocks per die), at least 1).
//
// A write at offset 0 starts the sequential log block afresh for its logical block (cleaning
// the previous one: switch, partial or, if its sequence was broken, full merge); a write
// continuing that sequence is appended to it, and a full sequential log block is switched at
// once. Every other write is appended to the random log. When the random log blocks are all
// full, the oldest (FIFO) is cleaned: a full merge of every logical block with a current page
// in it, then its erase. Layout, merges and costs: firmware/ftl/LogBlockFtl.h.
#include <vector>

#include "firmware/ftl/LogBlockFtl.h"

namespace ssd::fw {

class FastFtl final : public LogBlockFtl {
 public:
  static constexpr uint32_t kSequentialSlot = 0;

  FastFtl(const config::DriveConfig& cfg, Hal& hal);

  OpId write_page(Lpn lpn, const PageToken& data, OpId data_from) override;

 private:
  void own_state(StateArchive& a) override {
    for (Area& area : random_) area_state(a, area);
  }

  std::vector<Area> random_;  // per die
};

}  // namespace ssd::fw
