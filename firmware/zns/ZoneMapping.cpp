#include "firmware/zns/ZoneMapping.h"

#include <stdexcept>
#include <string>

namespace ssd::fw::zns {

namespace {
bool power_of_two(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }
}  // namespace

ZoneMapping::ZoneMapping(const config::ZoneConfig& zones, const config::FlashConfig& flash,
                         uint32_t unit_bytes, uint32_t first_block)
    : first_block_(first_block),
      program_pages_(flash.program_pages()),
      unit_bytes_(unit_bytes),
      max_open_(zones.max_open),
      max_active_(zones.max_active) {
  config::Problems problems("zone mapping");
  config::check_zones(zones, flash, "zones", problems);
  if (unit_bytes == 0 || flash.page_bytes % unit_bytes != 0)
    problems.add("unit_bytes",
                 "must divide flash.page_bytes (" + std::to_string(flash.page_bytes) + ")");
  problems.raise();
  const config::ZoneGeometry g = config::zone_geometry(zones, flash);
  if (uint64_t(first_block) + g.blocks_per_plane > flash.blocks_per_plane)
    throw std::invalid_argument("zone mapping: blocks " + std::to_string(first_block) + " to " +
                                std::to_string(first_block + g.blocks_per_plane - 1) +
                                " of a plane; it has " + std::to_string(flash.blocks_per_plane));
  dies_ = g.dies;
  planes_ = g.planes;
  die_groups_ = g.die_groups;
  plane_groups_ = g.plane_groups;
  blocks_per_lane_ = uint32_t(g.blocks_per_plane - zones.spare_blocks_per_plane);
  units_per_page_ = flash.page_bytes / unit_bytes;
  capacity_units_ = g.capacity_bytes / unit_bytes;
  size_bytes_ = g.size_bytes;
}

ZoneLane ZoneMapping::lane(uint32_t zone, uint32_t lane) const {
  const uint32_t group = lane_group(zone);
  return ZoneLane{(group % die_groups_) * dies_ + lane % dies_,
                  (group / die_groups_) * planes_ + lane / dies_};
}

ZonePlace ZoneMapping::locate(uint64_t unit) const {
  const uint64_t page = unit / units_per_page_;
  const uint64_t step = page / program_pages_;  // program units before this one
  return ZonePlace{uint32_t(step % lanes()),
                   uint32_t(step / lanes() * program_pages_ + page % program_pages_),
                   uint32_t(unit % units_per_page_)};
}

uint64_t ZoneMapping::unit_at(const ZonePlace& place) const {
  const uint64_t step = uint64_t(place.page / program_pages_) * lanes() + place.lane;
  return (step * program_pages_ + place.page % program_pages_) * units_per_page_ + place.unit;
}

ZoneLimits ZoneMapping::limits(uint32_t zones, uint32_t lba_bytes) const {
  if (!power_of_two(lba_bytes) || unit_bytes_ % lba_bytes != 0)
    throw std::invalid_argument("zone mapping: a logical block of " + std::to_string(lba_bytes) +
                                " bytes is not a power of two dividing the mapping unit (" +
                                std::to_string(unit_bytes_) + " bytes)");
  if (zones == 0 || zones > max_zones())
    throw std::invalid_argument("zone mapping: " + std::to_string(zones) +
                                " zones; the flash holds 1 to " + std::to_string(max_zones()));
  return ZoneLimits{zones, size_bytes_ / lba_bytes, capacity_bytes() / lba_bytes, max_open_,
                    max_active_};
}

}  // namespace ssd::fw::zns
