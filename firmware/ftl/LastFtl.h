#pragma once
// LAST, locality-aware sector translation (ftl.type "last"). Per die: ftl.last_seq_log_blocks
// sequential log blocks, each dedicated to one logical block at a time, and a random log
// area of ceil(ftl.log_block_fraction x data blocks per die) blocks (at least 2), split into
// a hot partition of round(ftl.last_hot_fraction x that) blocks and a cold one (each at least
// 1 block).
//
// A write continuing a sequential log block's sequence is appended to it (a full one is
// switched at once). A write at offset 0 starts a sequential log block: the logical block's
// own if it has one, else a free one, else the least recently written (cleaned first by
// switch, partial or full merge). Other writes go to the random log.
//
// Hot/cold rule (update recency, no extra table): a page is hot if its current copy is still
// in a log block, i.e. it is rewritten before a merge has moved it out since its last write;
// otherwise cold. Hot pages soon die in the hot partition, so its victim is the block with the
// fewest current pages (often none: an erase without copies). The cold partition's victim is
// the block whose full merges are cheapest: the fewest logical blocks, then the fewest current
// pages. Layout, merges and costs: firmware/ftl/LogBlockFtl.h.
#include <vector>

#include "firmware/ftl/LogBlockFtl.h"

namespace ssd::fw {

class LastFtl final : public LogBlockFtl {
 public:
  LastFtl(const config::DriveConfig& cfg, Hal& hal);

  OpId write_page(Lpn lpn, const PageToken& data, OpId data_from) override;

  // Slots of a die: sequential first, then hot, then cold (the same on every die).
  const std::vector<uint32_t>& sequential_slots() const { return sequential_; }
  const std::vector<uint32_t>& hot_slots() const { return hot_[0].slots; }
  const std::vector<uint32_t>& cold_slots() const { return cold_[0].slots; }

 private:
  void own_state(StateArchive& a) override {
    a.indexes(sequential_, log_blocks_per_die(), log_blocks_per_die(), "sequential log slot");
    for (std::vector<Area>* areas : {&hot_, &cold_})
      for (Area& area : *areas) area_state(a, area);
  }

  std::vector<uint32_t> sequential_;
  std::vector<Area> hot_, cold_;  // per die
};

}  // namespace ssd::fw
