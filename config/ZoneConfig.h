#pragma once
// A zoned namespace's zones (namespaces[].zones, NVMe ZNS): how many, how each lies on the flash,
// its size against its capacity, the blocks kept to replace bad ones, the open and active zone
// limits and the namespace's logical block. The struct, its field table, its rules against the
// flash and the geometry they imply (what firmware/zns/ZoneMapping.h maps units with, and what
// the drive config sets aside for the namespace: a band of blocks at the end of every plane).
// docs/config.md#namespaces documents each key.
#include <cstdint>
#include <string>

#include "config/Choices.h"
#include "config/FlashConfig.h"
#include "config/json/Bounds.h"
#include "config/json/Problems.h"

namespace ssd::config {

struct ZoneConfig {
  // Zones of the namespace (its size is count x the zone size). 0 only where a caller takes as
  // many as the planes hold (ZoneMapping's unit tests); a config's zoned namespace needs >= 1.
  uint32_t count = 0;
  // A zone takes one block on each of `planes` planes of each of its dies: every die, a group
  // of group_dies (consecutive dies: on as many channels), or one die. Its pages interleave
  // over those blocks, a program unit (a page, or a one-shot word line) at a time.
  ZoneStripe stripe = ZoneStripe::AllDies;
  uint32_t group_dies = 0;  // die_group only: dies per zone, dividing the drive's dies
  uint32_t planes = 0;      // planes per die a zone takes, dividing flash.planes_per_die; 0: all
  ZoneSizeRule size = ZoneSizeRule::PowerOfTwo;
  // Blocks per plane no zone is built on: they replace blocks that fail.
  uint32_t spare_blocks_per_plane = 0;
  // Zones open (written or opened, not yet closed or full) and active (open or closed) at most;
  // 0: no limit. NVMe's MOR + 1 and MAR + 1.
  uint32_t max_open = 0;
  uint32_t max_active = 0;
  // The namespace's logical block (its LBA format): commands address it in these.
  uint32_t lba_bytes = 4096;
  // Written data not yet programmed that the drive acknowledges (a write cache kept by
  // power-loss protection, as enterprise ZNS drives have); 0: a write that completes a page
  // waits for its program.
  uint64_t write_cache_bytes = 0;
};

template <class Z, class V>
void visit_zones(Z& z, V& v) {
  v("count", z.count, between(0, 0x1p32 - 1));
  v("stripe", z.stripe);
  v("group_dies", z.group_dies, between(0, 0x1p32 - 1));
  v("planes", z.planes, between(0, 0x1p32 - 1));
  v("size", z.size);
  v("spare_blocks_per_plane", z.spare_blocks_per_plane, between(0, 0x1p32 - 1));
  v("max_open", z.max_open, between(0, 0x1p32 - 1));
  v("max_active", z.max_active, between(0, 0x1p32 - 1));
  v("lba_bytes", z.lba_bytes, between(512, 0x1p16));
  v("write_cache_bytes", z.write_cache_bytes, between(0, 0x1p40));
}

// What a zone config implies on the flash (valid per check_zones).
struct ZoneGeometry {
  uint32_t dies = 0;          // dies a zone takes a block on
  uint32_t planes = 0;        // planes of each of those dies
  uint32_t die_groups = 0;    // dies / dies per zone
  uint32_t plane_groups = 0;  // planes_per_die / planes per zone
  uint64_t capacity_bytes = 0;
  uint64_t size_bytes = 0;  // capacity_bytes, or its next power of two (size power_of_two)
  // Blocks of every plane the namespace takes: a block per zone dealt to the plane's lane group
  // (zones are dealt to lane groups in turn), and the spares; count 0: the whole plane.
  uint64_t blocks_per_plane = 0;
  uint32_t lanes() const { return dies * planes; }
  uint32_t lane_groups() const { return die_groups * plane_groups; }
};

// The zone config's rules against the flash, named under `key` (e.g. "namespaces[1].zones").
void check_zones(const ZoneConfig& zones, const FlashConfig& flash, const std::string& key,
                 Problems& problems);
ZoneGeometry zone_geometry(const ZoneConfig& zones, const FlashConfig& flash);

}  // namespace ssd::config
