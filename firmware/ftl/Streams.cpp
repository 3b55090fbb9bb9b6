#include "firmware/ftl/Streams.h"

namespace ssd::fw {

StreamGeometry::StreamGeometry(const config::DriveConfig& cfg)
    : pages_per_block_(cfg.flash.pages_per_block),
      slc_pages_per_block_(cfg.slc_region().pages_per_block),
      word_line_pages_(cfg.flash.program_pages()),
      fill_planes_(cfg.ftl.allocation == config::Allocation::PlaneFirst) {}

bool StreamGeometry::lane_open(const Stream& s, uint32_t lane) const {
  // The lanes before `s.lane` have taken page next_page, the others the page before.
  if (s.next_page == 0) return lane < s.lane;
  return lane >= s.lane || s.next_page + 1 != pages(s);
}

void StreamGeometry::state(StateArchive& a, std::vector<Stream>& streams,
                           uint32_t blocks_per_die) const {
  const uint32_t lanes = uint32_t(streams.front().blocks.size());
  for (Stream& s : streams) {
    a.fixed_indexes(s.blocks, blocks_per_die, "stream block");
    a.index(s.next_page, pages_per_block_, "stream page");
    a.index(s.lane, lanes, "stream lane");
  }
}

}  // namespace ssd::fw
