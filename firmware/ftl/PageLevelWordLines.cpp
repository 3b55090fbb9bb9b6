// PageLevelFtl's one-shot programming (docs/ftl.md#one-shot-programming): the open word lines
// padded with pages of no data where their data must end.
#include <array>

#include "firmware/ftl/PageLevelFtl.h"

namespace ssd::fw {

bool PageLevelFtl::seal(uint32_t die, Stream& s) {
  bool padded = false;
  while (geometry_.word_line_open(s)) {
    // A lane's next word line may need a block (plane_first, die_first: the lanes move in
    // lockstep): made room for as for a host page, so GC keeps its reserve for its copies.
    if (s.next_page == 0 && needs_room(die)) {
      Hal::Urgent urgent(hal_);
      collect_garbage(die);
    }
    if (s.next_page == 0 && faulty() && blocks_.free_blocks(die) == 0) {
      seal_lanes_with_blocks(die, s);
      return true;
    }
    pad_page(allocate(die, s));
    padded = true;
  }
  return padded;
}

void PageLevelFtl::seal_lanes_with_blocks(uint32_t die, Stream& s) {
  // The lanes before s.lane opened their blocks for this word line; the others have none and
  // the die no block to give them (its erases failing: injected faults). Each lane that has one
  // has its word line padded on its own (a single-plane program) and its block closed early, as
  // after a failed program: the stream opens new blocks at its next page.
  for (uint32_t lane = 0; lane < s.lane; ++lane) {
    for (uint32_t page = 1; page < geometry_.word_line_pages(); ++page)
      pad_page(Ppa{die, s.blocks[lane], page});
    blocks_.close_block(die, s.blocks[lane], clock());
  }
  s.lane = 0;
}

void PageLevelFtl::pad_page(const Ppa& page) {
  ++word_line_pads_;
  ++stats_.pages_programmed;
  std::array<PageToken, config::kMaxUnitsPerPage> data;
  OpId op = kNoOp;
  if (units_ == 1) {
    data[0] = pad_token();
    op = hal_.flash_program(page, data[0], kNoOp);
  } else {
    std::array<OpId, config::kMaxUnitsPerPage> from;
    pad(data.data(), from.data(), 0);
    op = hal_.flash_program_units(page, data.data(), from.data(), units_, kNoOp);
  }
  // Its word line's status may be this page's (its last), for the pages of data before it.
  if (faults_.config().program_fail_probability > 0.0 && !hal_.functional())
    program_status(page, data.data(), op);
}

bool PageLevelFtl::seal_word_lines(bool all) {
  if (geometry_.word_line_pages() == 1) return false;
  bool padded = false;
  // Pads end a die's set as its data would have (place()): its rotation moves on. Left on the die,
  // a drive idle after every few pages would write them all to it.
  const auto seal_set = [&](uint32_t die, Stream& s, uint32_t& rotation) {
    if (!seal(die, s)) return;
    padded = true;
    if (rotation == die) rotation = (die + 1) % dies_;
  };
  for (uint32_t die = 0; die < dies_; ++die) {
    if (faults_.gone(die)) continue;
    for (uint32_t h = 0; h < placement_.handles(); ++h)
      seal_set(die, host_streams(uint8_t(h))[die], next_die_);
    if (!all) continue;
    padded |= seal(die, gc_streams_[die]);
    if (placement_.persistent())
      for (uint32_t h = 1; h < placement_.handles(); ++h)
        padded |= seal(die, placement_.gc(h)[die]);
    seal_set(die, map_streams_[die], map_die_);
  }
  return padded;
}

}  // namespace ssd::fw
