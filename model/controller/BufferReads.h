#pragma once
// controller.block_order nand: a read of a page whose program has not ended is served from the
// controller buffer, which still holds the program's data, instead of from the flash (the NAND
// part's rules let a read pass anything but its own page's program). This part keeps the
// programs whose end has not passed, by physical page: an entry goes when its command's slot is
// retired (OpTable), or when a later program of the page takes its place.
//
// Plain C++: tb/tests/ControllerPartsTest.cpp.
#include <cstdint>
#include <unordered_map>

#include "config/DriveConfig.h"
#include "firmware/Hal.h"

namespace ssd::model::controller {

class BufferReads {
 public:
  explicit BufferReads(const config::DriveConfig& cfg)
      : on_(cfg.controller.block_order == config::BlockOrder::Nand),
        blocks_per_die_(cfg.flash.blocks_per_die()),
        pages_per_block_(cfg.flash.pages_per_block) {}

  bool on() const { return on_; }
  // The program `id` of the page `ppa` has been sent.
  void programming(const fw::Ppa& ppa, fw::OpId id) { programs_[ppn(ppa)] = id; }
  // The program `id` of `ppa` is retired: the page's data is in the flash alone.
  void retired(const fw::Ppa& ppa, fw::OpId id) {
    const auto it = programs_.find(ppn(ppa));
    if (it != programs_.end() && it->second == id) programs_.erase(it);
  }
  // The page's program not yet retired, or kNoOp.
  fw::OpId program_of(const fw::Ppa& ppa) const {
    const auto it = programs_.find(ppn(ppa));
    return it == programs_.end() ? fw::kNoOp : it->second;
  }

 private:
  // The flat physical page number.
  uint64_t ppn(const fw::Ppa& p) const {
    return (uint64_t(p.die) * blocks_per_die_ + p.block) * pages_per_block_ + p.page;
  }

  bool on_;
  uint32_t blocks_per_die_, pages_per_block_;
  std::unordered_map<uint64_t, fw::OpId> programs_;
};

}  // namespace ssd::model::controller
