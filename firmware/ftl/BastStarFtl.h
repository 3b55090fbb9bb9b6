#pragma once
// BAST* (ftl.type "bast_star"): BAST without replacement, plus wear levelling.
//
// Without replacement: a log block stays with its logical block until it is full. A write
// to a logical block that has no log block, when none is free, goes to the data block
// instead, as in the block FTL: in place at or above its write pointer, else copy-on-update
// (a full merge taking the new page).
//
// Wear levelling (Work::WearLeveling): after each write (each request, for a host write
// command), every block it erased that is still free is checked; once the die's average erase
// count is at least 100 / 15 (below that 15 % of it is less than one erase, so any block one
// erase above the average would qualify), if its erase count is 15 % or more above it, it is
// swapped with the coldest data block of the die: of the data blocks erased fewer times than
// the hot one (a swap with any other would not spread wear), the one erased least recently;
// among blocks never erased, the one holding the oldest data. The cold block's current pages
// are copied into the hot free block (other offsets padded), and the cold block is erased
// and joins the free pool. The search costs one candidate per data block of the die.
#include <utility>
#include <vector>

#include "firmware/ftl/BastFtl.h"
#include "firmware/ftl/DataBlockAges.h"

namespace ssd::fw {

class BastStarFtl final : public BastFtl {
 public:
  // A victim's erase count must reach this multiple of the average to be swapped (brief: 15 %).
  static constexpr uint32_t kHotPercent = 115;

  BastStarFtl(const config::DriveConfig& cfg, Hal& hal);

  OpId write_page(Lpn lpn, const PageToken& data, OpId data_from) override;

 protected:
  OpId write_without_log(uint32_t die, Lpn lpn, const PageToken& data, OpId data_from) override;
  void on_erase(uint32_t die, uint32_t block) override;
  void on_data_block(Lbn lbn, uint32_t old) override;
  void end_request() override;
  void own_state(StateArchive& a) override;

 private:
  void level_erased();
  void level(uint32_t die, uint32_t hot);

  std::vector<std::pair<uint32_t, uint32_t>> erased_;  // (die, block) erased by this write
  DataBlockAges ages_;  // the data blocks in the order the coldest is chosen by
  bool swapping_ = false;
};

}  // namespace ssd::fw
