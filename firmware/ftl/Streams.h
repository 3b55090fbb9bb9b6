#pragma once
// The page-level FTL's append points (firmware/ftl/PageLevelFtl.h: host, GC, mapping and SLC
// streams) and the arithmetic of where a stream's next page goes: its lanes, word lines and
// sets (one-shot programming: docs/ftl.md#one-shot-programming). The FTL and its bulk model
// (firmware/ftl/SteadyStateModel.h) allocate alike with it.
//
// Allocation (ftl.allocation, docs/ftl.md#allocation): host pages go to the dies in
// round-robin order of die number (channel-major: page i to channel i mod C, then the next
// way). channel_first appends a die's host pages to one open block; plane_first and die_first
// keep an open host block on each plane of the die, filled at the same page offset plane after
// plane, so the flash back end can join them into multi-plane programs. plane_first gives a
// die planes_per_die consecutive pages before the rotation moves on; die_first moves on after
// every page. GC and wear-levelling copies go to one open block per die (single-plane), filled
// in page order.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "config/DriveConfig.h"
#include "firmware/StateArchive.h"

namespace ssd::fw {

// An append point: one block per lane (plane), filled at the same page offset lane after
// lane; a lane's block opens at its page 0 and closes after its last page.
struct Stream {
  explicit Stream(uint32_t lanes, bool slc_mode = false, uint8_t placement_tag = 0)
      : blocks(lanes), slc(slc_mode), tag(placement_tag) {}
  std::vector<uint32_t> blocks;
  bool slc;     // blocks of the SLC cache region
  uint8_t tag;  // flexible data placement: the tag its blocks get (firmware/ftl/Placement.h)
  uint32_t next_page = 0;                       // page offset of the next page
  uint32_t lane = 0;                            // lane of the next page
  bool open() const { return next_page != 0; }  // the next page's block is open
};

// What a stream's pages are laid out by: a block's pages, native and in SLC mode, a native
// program's pages, and whether the rotation waits for every lane.
class StreamGeometry {
 public:
  explicit StreamGeometry(const config::DriveConfig& cfg);
  // Pages of a native-mode program (FlashConfig::program_pages): one-shot programming if > 1.
  uint32_t word_line_pages() const { return word_line_pages_; }
  // plane_first: the rotation moves on once the die's lanes are filled.
  bool fill_planes() const { return fill_planes_; }
  // Flash pages of a native block: the streams' allocation.
  uint32_t pages_per_block() const { return pages_per_block_; }
  // The pages of the stream's blocks (in SLC mode, fewer).
  uint32_t pages(const Stream& s) const { return s.slc ? slc_pages_per_block_ : pages_per_block_; }
  // One-shot programming: whether the stream's last word line (on some lane) still waits for
  // pages; whether the page it places next ends its set on the die (the rotation moves on):
  // the last lane's (plane_first), and with one-shot programming the last page of a word line on
  // the last lane. An SLC stream's set is as many pages (each SLC page a program of its own; a
  // block's last set may be shorter), so that every die takes as many pages a turn, in the SLC
  // cache or not: a die whose cache has no room (full, or its blocks retired) would otherwise
  // take a word line's pages a turn while the others take one, and fill first.
  bool word_line_open(const Stream& s) const {
    return word_line_pages_ > 1 && !s.slc && (s.next_page % word_line_pages_ != 0 || s.lane != 0);
  }
  bool ends_set(const Stream& s) const {
    const bool last_lane = s.lane + 1 == s.blocks.size();
    if (word_line_pages_ == 1) return !fill_planes_ || last_lane;
    return last_lane && s.next_page + 1 == set_end(s);
  }
  // One-shot programming: the page offset that ends the set the stream's next page is in.
  uint32_t set_end(const Stream& s) const {
    const uint32_t end = (s.next_page / word_line_pages_ + 1) * word_line_pages_;
    return s.slc ? std::min(end, slc_pages_per_block_) : end;
  }
  // Whether `lane` of the stream has an open block (an allocated page, its last not yet).
  bool lane_open(const Stream& s, uint32_t lane) const;
  // The streams' blocks (of `blocks_per_die`) and places, for a state archive.
  void state(StateArchive& a, std::vector<Stream>& streams, uint32_t blocks_per_die) const;

 private:
  uint32_t pages_per_block_;
  uint32_t slc_pages_per_block_;  // config::SlcRegion
  uint32_t word_line_pages_;
  bool fill_planes_;
};

}  // namespace ssd::fw
