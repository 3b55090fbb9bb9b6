#include "firmware/ftl/BastStarFtl.h"

namespace ssd::fw {
namespace {

const StatKey kSwaps("merges", "wl_swaps", StatUnit::None,
                     "Hot free blocks swapped with the coldest data block.");
const StatKey kFallbacks("merges", "fallbacks", StatUnit::Writes,
                         "Page writes with no free log block, done on the data block.");

}  // namespace

BastStarFtl::BastStarFtl(const config::DriveConfig& cfg, Hal& hal)
    : BastFtl(cfg, hal, "bast_star"), ages_(dies(), blocks_per_die()) {
  statistics_.add(kSwaps);
  statistics_.group("merges").counter("wl_pages_copied", StatUnit::Pages,
                                      "Pages those swaps copied.", stats_.wl_pages_copied);
  statistics_.add(kFallbacks);
}

OpId BastStarFtl::write_page(Lpn lpn, const PageToken& data, OpId data_from) {
  const OpId done = BastFtl::write_page(lpn, data, data_from);
  // In a request, the block it updates is retired at its end: level then.
  if (!in_request()) level_erased();
  return done;
}

void BastStarFtl::end_request() {
  BastFtl::end_request();
  level_erased();
}

void BastStarFtl::level_erased() {
  // Taken out first: levelling erases blocks too, and those are not candidates themselves.
  const auto erased = std::move(erased_);
  erased_.clear();
  for (const auto& [die, block] : erased) level(die, block);
}

OpId BastStarFtl::write_without_log(uint32_t /*die*/, Lpn lpn, const PageToken& data,
                                    OpId data_from) {
  ++statistics_[kFallbacks];
  return write_to_data_block(lpn, data, data_from);
}

void BastStarFtl::on_erase(uint32_t die, uint32_t block) {
  ages_.erased(die, last_erase(die, block), block, erase_count(die, block),
               [&](uint64_t stamp, uint32_t b) { return last_erase(die, b) == stamp; });
  if (!swapping_) erased_.emplace_back(die, block);
}

void BastStarFtl::on_data_block(Lbn lbn, uint32_t /*old*/) {
  const uint32_t die = die_of(lbn), b = data_block(lbn);
  if (b != kNone && erase_count(die, b) == 0) ages_.filled(die, data_since(lbn), b);
}

void BastStarFtl::level(uint32_t die, uint32_t hot) {
  if (!is_free(die, hot)) return;  // already reused by the same write
  // Erase counts are integers: while 15 % of the average is less than one erase, any block
  // one erase above the average passes the test below, and every early erase would swap.
  if (die_erases(die) * (kHotPercent - 100) < 100 * uint64_t(blocks_per_die())) return;
  const uint64_t hot_erases = erase_count(die, hot);
  // erases >= 1.15 x (die erases / blocks), in integers.
  if (hot_erases * 100 * blocks_per_die() < kHotPercent * die_erases(die)) return;
  Hal::Scope wl(*hal_, Work::WearLeveling);
  examine_candidates(data_blocks(die));
  // Only a block less worn than the hot one gains from the swap.
  const uint32_t coldest = ages_.coldest(
      die, hot_erases,
      [&](uint64_t since, uint32_t b) {
        const Lbn o = owner(die, b);
        return erase_count(die, b) == 0 && o != kNoLbn && data_since(o) == since;
      },
      [&](uint64_t stamp, uint32_t b) { return last_erase(die, b) == stamp; },
      [&](uint32_t b) { return owner(die, b) != kNoLbn; });
  if (coldest == DataBlockAges::kNone) return;
  const Lbn cold = owner(die, coldest);
  if (cold == kNoLbn) return;
  swapping_ = true;
  move_data_block(cold, hot);
  swapping_ = false;
  ++statistics_[kSwaps];
}

void BastStarFtl::own_state(StateArchive& a) {
  a.section("bast_star");
  a.pairs(erased_, uint64_t(dies()) * blocks_per_die(), "blocks erased by the write");
  for (const auto& [die, block] : erased_)
    if (die >= dies() || block >= blocks_per_die())
      StateArchive::invalid("blocks erased by the write: a block out of range");
  ages_.state(a);
  a.flag(swapping_);
}

}  // namespace ssd::fw
