// PageLevelFtl under injected faults (flash.faults, docs/reliability.md#injected-faults): an
// erase that failed retires its block, and the report counts the spare blocks left.
#include <algorithm>
#include <string>

#include "config/FaultConfig.h"
#include "firmware/ftl/PageLevelFtl.h"

namespace ssd::fw {

void PageLevelFtl::erase_status(uint32_t die, uint32_t block, uint32_t erases) {
  // The firmware reads the status the NAND's draw gives the erase (model/flash/NandDie.cpp).
  if (faults_.any() && !hal_.functional() && config::erase_fails(faults_, die, block, erases)) {
    blocks_.retire_block(die, block);
    ++erase_failures_;
    return;
  }
  blocks_.release_block(die, block);
}

void PageLevelFtl::register_faults(const config::DriveConfig& cfg) {
  // The spare: blocks outside the SLC reserve beyond those the logical capacity fills.
  const uint32_t native_per_die =
      blocks_.blocks_per_die() - cfg.ftl.slc_cache_blocks_per_plane * cfg.flash.planes_per_die;
  const uint64_t filled = (logical_units_ + slots_per_block_ - 1) / slots_per_block_;
  const auto spare = double(uint64_t(dies_) * native_per_die - filled);
  const auto retired = [this](bool in_reserve) {
    uint32_t total = 0, most = 0;
    for (uint32_t d = 0; d < dies_; ++d) {
      const uint32_t n = blocks_.retired_blocks(d, in_reserve);
      total += n;
      most = std::max(most, n);
    }
    return std::pair{total, most};
  };
  StatGroup& g = statistics_.group("faults");
  g.counter("erase_failures", StatUnit::Blocks,
            "Erases that failed (flash.faults), each retiring its block for good.", erase_failures_)
      .derived("spare_blocks", StatUnit::Blocks,
               "Blocks outside the SLC reserve beyond those the logical capacity fills, before "
               "any failure.",
               [spare] { return spare; })
      .derived("spare_blocks_left", StatUnit::Blocks,
               "The spare blocks less the retired ones outside the SLC reserve.",
               [spare, retired] { return spare - retired(false).first; })
      .derived("most_retired_on_a_die", StatUnit::Blocks,
               "Retired blocks outside the SLC reserve on the die with the most: GC works within "
               "a die, so that die runs out of spare first.",
               [retired] { return double(retired(false).second); });
  if (cfg.ftl.slc_cache_blocks_per_plane != 0)
    g.derived("slc_blocks_retired", StatUnit::Blocks,
              "Retired blocks of the static SLC cache, which shrinks by them.",
              [retired] { return double(retired(true).first); });
}

}  // namespace ssd::fw
