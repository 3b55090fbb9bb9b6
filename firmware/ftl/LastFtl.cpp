#include "firmware/ftl/LastFtl.h"

#include <algorithm>
#include <cmath>

namespace ssd::fw {
namespace {

uint32_t hot_blocks(const config::DriveConfig& cfg, uint32_t random) {
  const auto hot = uint32_t(std::lround(cfg.ftl.last_hot_fraction * random));
  return std::clamp(hot, 1u, random - 1);
}

}  // namespace

LastFtl::LastFtl(const config::DriveConfig& cfg, Hal& hal)
    : LogBlockFtl(cfg, hal, "last"), hot_(dies()), cold_(dies()) {
  const uint32_t seq = cfg.ftl.last_seq_log_blocks;
  const uint32_t random = log_blocks_per_die() - seq;
  const uint32_t hot = hot_blocks(cfg, random);
  for (uint32_t s = 0; s < seq; ++s) sequential_.push_back(s);
  for (uint32_t d = 0; d < dies(); ++d) {
    for (uint32_t s = seq; s < seq + hot; ++s) hot_[d].slots.push_back(s);
    for (uint32_t s = seq + hot; s < seq + random; ++s) cold_[d].slots.push_back(s);
    hot_[d].victim = Victim::FewestValid;
    cold_[d].victim = Victim::FewestLbns;
  }
}

OpId LastFtl::write_page(Lpn lpn, const PageToken& data, OpId data_from) {
  const Lbn lbn = lbn_of(lpn);
  const uint32_t die = die_of(lbn);
  const uint32_t off = offset_of(lpn);
  uint32_t slot = dedicated_slot(lbn);
  if (slot != kNone && slot_next(die, slot) == off) {
    const OpId done = append(die, slot, lpn, data, data_from);
    if (slot_full(die, slot)) clean(die, slot);
    return done;
  }
  if (off == 0) {
    if (slot == kNone) {
      const auto seq = uint32_t(sequential_.size());
      slot = first_empty(die, 0, seq);
      if (slot == kNone) slot = least_recently_written(die, 0, seq);
    }
    clean(die, slot);
    dedicate(die, slot, lbn);
    return append(die, slot, lpn, data, data_from);
  }
  Area& area = in_log(lpn) ? hot_[die] : cold_[die];
  return append_to_area(die, area, lpn, data, data_from);
}

}  // namespace ssd::fw
