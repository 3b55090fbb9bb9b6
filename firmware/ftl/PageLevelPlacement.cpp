// PageLevelFtl's part in NVMe FDP's I/O Management Send (ftl.fdp,
// docs/ftl.md#flexible-data-placement): a Reclaim Unit Handle Update.
#include "firmware/ftl/PageLevelFtl.h"

namespace ssd::fw {

void PageLevelFtl::update_handle(uint8_t handle) {
  // The handle's reclaim unit is its open host blocks on every die: each closes where its data
  // end (one-shot programming: after its open word line is padded), the rest of its pages unwritten
  // until GC erases it, and the handle's next host page opens new blocks.
  Placement::HandleFigures& f = placement_.figures(handle);
  ++f.ruh_updates;
  uint64_t unwritten = 0;
  std::vector<Stream>& streams = host_streams(handle);
  for (uint32_t die = 0; die < dies_; ++die) {
    if (faults_.gone(die)) continue;
    seal(die, streams[die]);
    unwritten += close_lanes(die, streams[die]);
  }
  if (unwritten == 0) return;
  ++f.ru_not_fully_written;
  f.pages_unwritten += unwritten;
}

uint32_t PageLevelFtl::close_lanes(uint32_t die, Stream& s) {
  const uint32_t pages = geometry_.pages(s);
  uint32_t unwritten = 0;
  for (uint32_t l = 0; l < s.blocks.size(); ++l) {
    if (!geometry_.lane_open(s, l)) continue;
    // The lanes before s.lane have taken page next_page, the others the page before.
    unwritten += pages - s.next_page - (l < s.lane ? 1 : 0);
    if (s.slc)
      slc_.full[die].push_back(s.blocks[l]);  // folded, as a full one
    else
      blocks_.close_block(die, s.blocks[l], clock());
  }
  s.next_page = 0;
  s.lane = 0;
  return unwritten;
}

}  // namespace ssd::fw
