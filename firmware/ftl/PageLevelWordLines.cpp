// PageLevelFtl's one-shot programming (docs/ftl.md#one-shot-programming): the open word lines
// padded with pages of no data where their data must end.
#include <array>

#include "firmware/ftl/PageLevelFtl.h"

namespace ssd::fw {

bool PageLevelFtl::seal(uint32_t die, Stream& s) {
  bool padded = false;
  std::array<PageToken, config::kMaxUnitsPerPage> data;
  std::array<OpId, config::kMaxUnitsPerPage> from;
  while (word_line_open(s)) {
    // A lane's next word line may need a block (plane_first, die_first: the lanes move in
    // lockstep): made room for as for a host page, so GC keeps its reserve for its copies.
    if (s.next_page == 0 && needs_room(die)) {
      Hal::Urgent urgent(hal_);
      collect_garbage(die);
    }
    const Ppa page = allocate(die, s);
    ++word_line_pads_;
    ++stats_.pages_programmed;
    padded = true;
    if (units_ == 1) {
      hal_.flash_program(page, PageToken{}, kNoOp);
    } else {
      pad(data.data(), from.data(), 0);
      hal_.flash_program_units(page, data.data(), from.data(), units_, kNoOp);
    }
  }
  return padded;
}

bool PageLevelFtl::seal_word_lines(bool all) {
  if (word_line_pages_ == 1) return false;
  bool padded = false;
  // Pads end a die's set as its data would have (place()): its rotation moves on. Left on the die,
  // a drive idle after every few pages would write them all to it.
  const auto seal_set = [&](uint32_t die, Stream& s, uint32_t& rotation) {
    if (!seal(die, s)) return;
    padded = true;
    if (rotation == die) rotation = (die + 1) % dies_;
  };
  for (uint32_t die = 0; die < dies_; ++die) {
    if (gone(die)) continue;
    seal_set(die, host_streams_[die], next_die_);
    if (!all) continue;
    padded |= seal(die, gc_streams_[die]);
    seal_set(die, map_streams_[die], map_die_);
  }
  return padded;
}

}  // namespace ssd::fw
