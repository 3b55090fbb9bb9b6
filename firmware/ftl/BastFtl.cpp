#include "firmware/ftl/BastFtl.h"

namespace ssd::fw {
namespace {

const StatKey kReplacements("merges", "replacements", StatUnit::None,
                            "Log blocks cleaned and taken for another logical block.");

}  // namespace

BastFtl::BastFtl(const config::DriveConfig& cfg, Hal& hal, std::string name)
    : LogBlockFtl(cfg, hal, std::move(name)) {
  statistics_.add(kReplacements);
}

OpId BastFtl::write_page(Lpn lpn, const PageToken& data, OpId data_from) {
  const Lbn lbn = lbn_of(lpn);
  const uint32_t die = die_of(lbn);
  uint32_t slot = dedicated_slot(lbn);
  if (slot == kNone) {
    slot = first_empty(die, 0, log_blocks_per_die());
    if (slot == kNone) return write_without_log(die, lpn, data, data_from);
    dedicate(die, slot, lbn);
  }
  const OpId done = append(die, slot, lpn, data, data_from);
  // Cleaned at once: a full log block held until the next write would block a free one.
  if (slot_full(die, slot)) clean(die, slot);
  return done;
}

OpId BastFtl::write_without_log(uint32_t die, Lpn lpn, const PageToken& data, OpId data_from) {
  const uint32_t victim = least_recently_written(die, 0, log_blocks_per_die());
  clean(die, victim);
  ++statistics_[kReplacements];
  dedicate(die, victim, lbn_of(lpn));
  const OpId done = append(die, victim, lpn, data, data_from);
  if (slot_full(die, victim)) clean(die, victim);
  return done;
}

}  // namespace ssd::fw
