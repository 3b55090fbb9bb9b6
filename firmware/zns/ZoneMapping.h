#pragma once
// Where a zoned namespace's zones lie on the flash (config/ZoneConfig.h): the architect's
// choice between a zone striped over every die (most bandwidth per zone, largest zones), over a
// group of dies, or on one die (smallest zones; parallelism only across zones). A zone takes
// one block on each of its lanes (a lane: one plane of one of its dies); its pages interleave
// over the lanes a program unit at a time (a page, or a one-shot word line's pages), dies first,
// so consecutive program units go to different dies and channels and a die's planes get the
// same page offset together (multi-plane programs). The zone's capacity is its blocks' bytes,
// its size that rounded up to a power of two or equal to it. Which block of a lane a zone takes
// is the zoned FTL's choice as it opens the zone (erased blocks, replacement of failed ones);
// zones are dealt to lane groups in turn, so consecutive zones are on different dies.
// Plain C++ arithmetic.
#include <cstdint>
#include <string>

#include "config/FlashConfig.h"
#include "config/ZoneConfig.h"
#include "config/json/Problems.h"
#include "firmware/zns/Zones.h"

namespace ssd::fw::zns {

// A lane of a zone: one plane of one die.
struct ZoneLane {
  uint32_t die = 0;
  uint32_t plane = 0;
};

// Where a unit of a zone lies: on the zone's block of lane `lane` (index into the zone's
// lanes), at page `page` of that block, unit `unit` of the page.
struct ZonePlace {
  uint32_t lane = 0;
  uint32_t page = 0;
  uint32_t unit = 0;
  bool operator==(const ZonePlace& o) const {
    return lane == o.lane && page == o.page && unit == o.unit;
  }
};

class ZoneMapping {
 public:
  // `unit_bytes`: the mapping unit, dividing flash.page_bytes. The zones take blocks
  // [first_block, first_block + zone_geometry().blocks_per_plane) of every plane. Throws
  // ssd::ConfigError with what config::check_zones finds.
  ZoneMapping(const config::ZoneConfig& zones, const config::FlashConfig& flash,
              uint32_t unit_bytes, uint32_t first_block = 0);

  uint32_t dies_per_zone() const { return dies_; }
  uint32_t planes_per_zone() const { return planes_; }
  uint32_t lanes() const { return dies_ * planes_; }  // blocks a zone takes
  // Sets of lanes zones are dealt to (dies / dies_per_zone x planes_per_die / planes_per_zone).
  uint32_t lane_groups() const { return die_groups_ * plane_groups_; }
  // Zones the flash holds: a zone per lane group per block of a plane, spares left out.
  uint32_t max_zones() const { return lane_groups() * blocks_per_lane_; }
  uint32_t blocks_per_lane() const { return blocks_per_lane_; }  // a plane's, spares left out
  uint32_t first_block() const { return first_block_; }          // of a plane: the first zoned
  uint32_t units_per_page() const { return units_per_page_; }
  uint32_t unit_bytes() const { return unit_bytes_; }
  uint32_t program_pages() const { return program_pages_; }  // pages of a program unit
  uint64_t capacity_units() const { return capacity_units_; }
  uint64_t capacity_bytes() const { return capacity_units_ * unit_bytes_; }
  uint64_t size_bytes() const { return size_bytes_; }

  uint32_t lane_group(uint32_t zone) const { return zone % lane_groups(); }
  // Lane `lane` (< lanes()) of zone `zone`.
  ZoneLane lane(uint32_t zone, uint32_t lane) const;
  // Unit `unit` (< capacity_units()) of any zone, and back.
  ZonePlace locate(uint64_t unit) const;
  uint64_t unit_at(const ZonePlace& place) const;
  // The state machine's limits for `zones` zones addressed in blocks of `lba_bytes` (a power of
  // two dividing the mapping unit).
  ZoneLimits limits(uint32_t zones, uint32_t lba_bytes) const;

 private:
  uint32_t first_block_ = 0;
  uint32_t dies_ = 0;
  uint32_t planes_ = 0;
  uint32_t die_groups_ = 0;
  uint32_t plane_groups_ = 0;
  uint32_t blocks_per_lane_ = 0;  // blocks of a plane zones may take
  uint32_t program_pages_ = 1;    // pages of a program unit: the interleave's step
  uint32_t units_per_page_ = 1;
  uint32_t unit_bytes_ = 0;
  uint64_t capacity_units_ = 0;
  uint64_t size_bytes_ = 0;
  uint32_t max_open_ = 0;
  uint32_t max_active_ = 0;
};

}  // namespace ssd::fw::zns
