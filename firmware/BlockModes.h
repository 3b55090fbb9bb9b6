#pragma once
// The mode each block of the drive is written in (docs/ftl.md#slc-cache): the firmware decides
// it when it opens a block, and every flash command to the block carries it (the controller
// asks this table as it addresses the command). A block keeps its mode until it is opened
// again after its erase, so reads and the erase of a block still in use find the mode it was
// written in.
#include <cstdint>
#include <vector>

#include "firmware/StateArchive.h"

namespace ssd::fw {

enum class BlockMode : uint8_t { Native, Slc };

class BlockModes {
 public:
  BlockModes(uint32_t dies, uint32_t blocks_per_die)
      : blocks_per_die_(blocks_per_die), modes_(std::size_t(dies) * blocks_per_die, 0) {}
  bool slc(uint32_t die, uint32_t block) const {
    return modes_[std::size_t(die) * blocks_per_die_ + block] != 0;
  }
  void set(uint32_t die, uint32_t block, BlockMode mode) {
    modes_[std::size_t(die) * blocks_per_die_ + block] = mode == BlockMode::Slc ? 1 : 0;
  }
  void state(StateArchive& a) { a.fixed_indexes(modes_, 2, "block modes"); }

 private:
  uint32_t blocks_per_die_;
  std::vector<uint8_t> modes_;  // one per block of the drive: 1 in SLC mode
};

}  // namespace ssd::fw
