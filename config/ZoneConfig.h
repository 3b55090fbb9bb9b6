#pragma once
// A zoned namespace's zones (namespaces[].zones, NVMe ZNS): how each zone lies on the flash, its
// size against its capacity, the blocks kept to replace bad ones, and the open and active zone
// limits. firmware/zns/ZoneMapping.h works the geometry out of it and checks it against the
// flash. Not read from config files yet: the zoned FTL that serves such a namespace comes next
// (docs/architecture.md#namespaces).
#include <cstdint>

#include "config/Choices.h"

namespace ssd::config {

struct ZoneConfig {
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
};

}  // namespace ssd::config
