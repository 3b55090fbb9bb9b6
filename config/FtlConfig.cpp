#include "config/FtlConfig.h"

namespace ssd::config {
namespace {

// The curve is a function of the free fraction, and the cache holds free blocks only.
void validate_slc_dynamic(const std::vector<SlcDynamicPoint>& curve, Problems& problems) {
  for (std::size_t i = 0; i < curve.size(); ++i) {
    const std::string path = "ftl.slc_dynamic[" + std::to_string(i) + "]";
    if (i != 0 && curve[i].free_fraction <= curve[i - 1].free_fraction)
      problems.add(path + ".free_fraction", "the points must be in increasing free_fraction: " +
                                                std::to_string(curve[i].free_fraction) + " after " +
                                                std::to_string(curve[i - 1].free_fraction));
    if (curve[i].slc_fraction > curve[i].free_fraction)
      problems.add(path + ".slc_fraction", std::to_string(curve[i].slc_fraction) +
                                               " is above its free_fraction " +
                                               std::to_string(curve[i].free_fraction) +
                                               ": the cache holds only blocks that are free");
  }
}

}  // namespace

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
    if (!ftl.slc_dynamic.empty())
      problems.add("ftl.slc_dynamic", "only the page and dftl FTLs keep an SLC cache");
    if (ftl.read_refresh.enabled)
      problems.add("ftl.read_refresh.enabled", "only the page and dftl FTLs refresh blocks");
    if (ftl.fdp.enabled)
      problems.add("ftl.fdp.enabled", "only the page and dftl FTLs place data by handle");
  }
  // The SLC cache takes every handle's host pages into its own blocks, and folds them together.
  if (ftl.fdp.enabled && (ftl.slc_cache_blocks_per_plane != 0 || !ftl.slc_dynamic.empty()))
    problems.add("ftl.fdp.enabled",
                 "not with an SLC cache (ftl.slc_cache_blocks_per_plane, ftl.slc_dynamic): its "
                 "blocks would hold every handle's data");
  validate_slc_dynamic(ftl.slc_dynamic, problems);
  if (ftl.block_update != BlockUpdate::Replacement && ftl.type != FtlType::Block)
    problems.add("ftl.block_update", "only the block FTL (ftl.type block) takes it");
  if (ftl.block_read_lookup != BlockReadLookup::Sram &&
      (ftl.type != FtlType::Block || ftl.block_update != BlockUpdate::Replacement))
    problems.add("ftl.block_read_lookup",
                 "only the block FTL with replacement blocks (ftl.type block, ftl.block_update "
                 "replacement) takes it");
  // Scans closer than a microsecond would be a loop of scans, not a patrol.
  const double scan_ms = ftl.read_refresh.scan_interval_ms;
  if (scan_ms > 0 && scan_ms < 1e-3)
    problems.add(
        "ftl.read_refresh.scan_interval_ms",
        "is 0 (no scans) or at least 0.001 (a microsecond), got " + std::to_string(scan_ms));
  if (ftl.gc_mode == GcMode::Incremental && ftl.gc_soft_blocks <= ftl.gc_threshold_blocks)
    problems.add("ftl.gc_soft_blocks", "the soft watermark must be above gc_threshold_blocks (" +
                                           std::to_string(ftl.gc_threshold_blocks) + "), got " +
                                           std::to_string(ftl.gc_soft_blocks));
}

}  // namespace ssd::config
