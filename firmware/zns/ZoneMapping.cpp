#include "firmware/zns/ZoneMapping.h"

#include <stdexcept>
#include <string>

namespace ssd::fw::zns {

using config::ZoneSizeRule;
using config::ZoneStripe;

namespace {
bool power_of_two(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }
uint64_t next_power_of_two(uint64_t x) {
  uint64_t p = 1;
  while (p < x) p <<= 1;
  return p;
}
}  // namespace

void ZoneMapping::check(const config::ZoneConfig& zones, const config::FlashConfig& flash,
                        const std::string& key, config::Problems& problems) {
  const uint32_t dies = flash.dies();
  if (zones.stripe == ZoneStripe::DieGroup) {
    if (zones.group_dies == 0 || dies % zones.group_dies != 0)
      problems.add(key + ".group_dies",
                   "must divide the drive's " + std::to_string(dies) + " dies (stripe die_group)");
  } else if (zones.group_dies != 0) {
    problems.add(key + ".group_dies", std::string("only with stripe die_group (stripe ") +
                                          config::to_string(zones.stripe) + " sets the dies)");
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
}

ZoneMapping::ZoneMapping(const config::ZoneConfig& zones, const config::FlashConfig& flash,
                         uint32_t unit_bytes)
    : program_pages_(flash.program_pages()),
      unit_bytes_(unit_bytes),
      max_open_(zones.max_open),
      max_active_(zones.max_active) {
  config::Problems problems("zone mapping");
  check(zones, flash, "zones", problems);
  if (unit_bytes == 0 || flash.page_bytes % unit_bytes != 0)
    problems.add("unit_bytes",
                 "must divide flash.page_bytes (" + std::to_string(flash.page_bytes) + ")");
  problems.raise();
  switch (zones.stripe) {
    case ZoneStripe::AllDies:
      dies_ = flash.dies();
      break;
    case ZoneStripe::DieGroup:
      dies_ = zones.group_dies;
      break;
    case ZoneStripe::OneDie:
      dies_ = 1;
      break;
  }
  planes_ = zones.planes == 0 ? flash.planes_per_die : zones.planes;
  die_groups_ = flash.dies() / dies_;
  plane_groups_ = flash.planes_per_die / planes_;
  blocks_per_lane_ = flash.blocks_per_plane - zones.spare_blocks_per_plane;
  units_per_page_ = flash.page_bytes / unit_bytes;
  capacity_units_ = uint64_t(lanes()) * flash.pages_per_block * units_per_page_;
  size_bytes_ = zones.size == ZoneSizeRule::PowerOfTwo ? next_power_of_two(capacity_bytes())
                                                       : capacity_bytes();
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
