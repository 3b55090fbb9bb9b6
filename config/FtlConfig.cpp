#include "config/FtlConfig.h"

namespace ssd::config {

void validate(const FtlConfig& ftl, Problems& problems) {
  // Victim policies, background GC and static wear levelling belong to the page-level FTLs'
  // GC (docs/ftl.md); elsewhere they would silently do nothing.
  if (ftl.type != FtlType::Page && ftl.type != FtlType::Dftl) {
    if (ftl.gc_policy != GcPolicy::Greedy)
      problems.add("ftl.gc_policy", "only the page and dftl FTLs choose GC victims by policy");
    if (ftl.background_gc)
      problems.add("ftl.background_gc", "only the page and dftl FTLs have background GC");
    if (ftl.gc_mode != GcMode::Foreground)
      problems.add("ftl.gc_mode", "only the page and dftl FTLs collect incrementally");
    if (ftl.wear_leveling != WearLeveling::None)
      problems.add("ftl.wear_leveling", "static wear levelling is for the page and dftl FTLs");
    if (ftl.allocation != Allocation::ChannelFirst)
      problems.add("ftl.allocation", "only the page and dftl FTLs choose an allocation order");
    if (ftl.slc_cache_blocks_per_plane != 0)
      problems.add("ftl.slc_cache_blocks_per_plane",
                   "only the page and dftl FTLs keep an SLC cache");
  }
  if (ftl.block_update != BlockUpdate::Replacement && ftl.type != FtlType::Block)
    problems.add("ftl.block_update", "only the block FTL (ftl.type block) takes it");
  if (ftl.block_read_lookup != BlockReadLookup::Sram &&
      (ftl.type != FtlType::Block || ftl.block_update != BlockUpdate::Replacement))
    problems.add("ftl.block_read_lookup",
                 "only the block FTL with replacement blocks (ftl.type block, ftl.block_update "
                 "replacement) takes it");
  if (ftl.gc_mode == GcMode::Incremental && ftl.gc_soft_blocks <= ftl.gc_threshold_blocks)
    problems.add("ftl.gc_soft_blocks", "the soft watermark must be above gc_threshold_blocks (" +
                                           std::to_string(ftl.gc_threshold_blocks) + "), got " +
                                           std::to_string(ftl.gc_soft_blocks));
}

}  // namespace ssd::config
