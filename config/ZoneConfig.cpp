#include "config/ZoneConfig.h"

namespace ssd::config {

namespace {
uint64_t next_power_of_two(uint64_t x) {
  uint64_t p = 1;
  while (p < x) p <<= 1;
  return p;
}
}  // namespace

void check_zones(const ZoneConfig& zones, const FlashConfig& flash, const std::string& key,
                 Problems& problems) {
  const uint32_t dies = flash.dies();
  if (zones.stripe == ZoneStripe::DieGroup) {
    if (zones.group_dies == 0 || dies % zones.group_dies != 0)
      problems.add(key + ".group_dies",
                   "must divide the drive's " + std::to_string(dies) + " dies (stripe die_group)");
  } else if (zones.group_dies != 0) {
    problems.add(key + ".group_dies", std::string("only with stripe die_group (stripe ") +
                                          to_string(zones.stripe) + " sets the dies)");
  }
  if (zones.planes != 0 && flash.planes_per_die % zones.planes != 0)
    problems.add(key + ".planes", "must divide flash.planes_per_die (" +
                                      std::to_string(flash.planes_per_die) + "), or be 0 (all)");
  if (zones.spare_blocks_per_plane >= flash.blocks_per_plane)
    problems.add(key + ".spare_blocks_per_plane", "must be less than flash.blocks_per_plane (" +
                                                      std::to_string(flash.blocks_per_plane) +
                                                      "): zones need a block per plane");
  if (zones.max_active != 0 && (zones.max_open == 0 || zones.max_open > zones.max_active))
    problems.add(key + ".max_open", "must be in [1, max_active " +
                                        std::to_string(zones.max_active) +
                                        "] when max_active limits the active zones");
  const uint32_t lba = zones.lba_bytes;
  if ((lba & (lba - 1)) != 0 || flash.page_bytes % lba != 0)
    problems.add(key + ".lba_bytes", "must be a power of two dividing flash.page_bytes (" +
                                         std::to_string(flash.page_bytes) + "), got " +
                                         std::to_string(lba));
  if (zones.write_cache_bytes != 0 && zones.write_cache_bytes < flash.page_bytes)
    problems.add(key + ".write_cache_bytes",
                 "must be 0 (no write cache) or hold a page (flash.page_bytes " +
                     std::to_string(flash.page_bytes) + "), got " +
                     std::to_string(zones.write_cache_bytes));
}

ZoneGeometry zone_geometry(const ZoneConfig& zones, const FlashConfig& flash) {
  ZoneGeometry g;
  switch (zones.stripe) {
    case ZoneStripe::AllDies:
      g.dies = flash.dies();
      break;
    case ZoneStripe::DieGroup:
      g.dies = zones.group_dies;
      break;
    case ZoneStripe::OneDie:
      g.dies = 1;
      break;
  }
  g.planes = zones.planes == 0 ? flash.planes_per_die : zones.planes;
  g.die_groups = flash.dies() / g.dies;
  g.plane_groups = flash.planes_per_die / g.planes;
  g.capacity_bytes = uint64_t(g.lanes()) * flash.pages_per_block * flash.page_bytes;
  g.size_bytes = zones.size == ZoneSizeRule::PowerOfTwo ? next_power_of_two(g.capacity_bytes)
                                                        : g.capacity_bytes;
  g.blocks_per_plane = zones.count == 0
                           ? flash.blocks_per_plane
                           : (uint64_t(zones.count) + g.lane_groups() - 1) / g.lane_groups() +
                                 zones.spare_blocks_per_plane;
  return g;
}

}  // namespace ssd::config
