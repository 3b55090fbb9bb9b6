#include "firmware/zns/ZoneBlocks.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssd::fw::zns {

ZoneBlocks::ZoneBlocks(const ZoneMapping& mapping, const config::FlashConfig& flash, Hal& hal,
                       uint32_t zones)
    : mapping_(mapping),
      hal_(hal),
      zones_(zones),
      planes_per_die_(flash.planes_per_die),
      blocks_per_plane_(flash.blocks_per_plane),
      blocks_per_die_(flash.blocks_per_die()),
      written_(zones, 0),
      programmed_(zones, 0),
      blocks_(size_t(zones) * mapping.lanes(), kNoBlock),
      gathered_(size_t(zones) * mapping.units_per_page()),
      gathered_from_(size_t(zones) * mapping.units_per_page(), kNoOp),
      erases_(size_t(flash.dies()) * flash.blocks_per_die(), 0),
      free_(size_t(flash.dies()) * flash.planes_per_die) {
  if (zones == 0 || zones > mapping.max_zones())
    throw std::invalid_argument("zones: " + std::to_string(zones) + " not in [1, " +
                                std::to_string(mapping.max_zones()) + "] the flash holds");
  for (uint32_t p = 0; p < free_.size(); ++p)
    for (uint32_t b = 0; b < mapping.blocks_per_lane(); ++b)
      free_[p].emplace(0, (p % planes_per_die_) * blocks_per_plane_ + mapping.first_block() + b);
}

BlockManager::EraseSummary ZoneBlocks::erase_summary() const {
  const uint32_t per_plane = mapping_.blocks_per_lane();
  return BlockManager::EraseSummary::of(free_.size() * per_plane, [&](std::size_t i) {
    const auto plane = uint32_t(i / per_plane);
    return erase_count(plane / planes_per_die_, (plane % planes_per_die_) * blocks_per_plane_ +
                                                    mapping_.first_block() +
                                                    uint32_t(i % per_plane));
  });
}

void ZoneBlocks::check_zone(uint32_t zone) const {
  if (zone >= zones_)
    throw std::out_of_range("zone " + std::to_string(zone) + " of " + std::to_string(zones_));
}

uint32_t ZoneBlocks::block(uint32_t zone, uint32_t lane) const {
  check_zone(zone);
  return blocks_.at(size_t(zone) * mapping_.lanes() + lane);
}

uint32_t ZoneBlocks::erase_count(uint32_t die, uint32_t block) const {
  return erases_.at(size_t(die) * blocks_per_die_ + block);
}

Ppa ZoneBlocks::ppa(uint32_t zone, const ZonePlace& place) const {
  return Ppa{mapping_.lane(zone, place.lane).die, block(zone, place.lane), place.page};
}

void ZoneBlocks::take_blocks(uint32_t zone) {
  for (uint32_t l = 0; l < mapping_.lanes(); ++l) {
    auto& pool = free_[plane_index(mapping_.lane(zone, l))];
    // The lane group's planes have a block for each of its zones (ZoneMapping::max_zones).
    if (pool.empty()) throw std::logic_error("zone blocks: a lane has no erased block");
    blocks_[size_t(zone) * mapping_.lanes() + l] = pool.begin()->second;
    pool.erase(pool.begin());
  }
}

OpId ZoneBlocks::program(uint32_t zone, uint64_t unit) {
  const uint32_t upp = mapping_.units_per_page();
  const size_t first = size_t(zone) * upp;
  const Ppa at = ppa(zone, mapping_.locate(unit));
  const OpId op = upp == 1 ? hal_.flash_program(at, gathered_[first], gathered_from_[first])
                           : hal_.flash_program_units(at, &gathered_[first], &gathered_from_[first],
                                                      upp, kNoOp);
  ++stats_.pages_programmed;
  programmed_[zone] = (unit / upp + 1) * upp;
  return op;
}

OpId ZoneBlocks::write(uint32_t zone, uint64_t unit, const PageToken& data, OpId data_from) {
  check_zone(zone);
  // The state machine refuses such writes before they get here (a finished zone is full).
  if (unit != written_[zone] || unit < programmed_[zone] || unit >= mapping_.capacity_units())
    throw std::logic_error("zone " + std::to_string(zone) + ": unit " + std::to_string(unit) +
                           " written away from the write pointer " +
                           std::to_string(written_[zone]) + " or past the zone's data");
  if (unit == 0) take_blocks(zone);
  const uint32_t upp = mapping_.units_per_page();
  const size_t slot = size_t(zone) * upp + unit % upp;
  gathered_[slot] = data;
  gathered_from_[slot] = data_from;
  ++written_[zone];
  ++stats_.units_written;
  return unit % upp == upp - 1 ? program(zone, unit) : kNoOp;
}

ZoneBlocks::Read ZoneBlocks::read(uint32_t zone, uint64_t unit, PageToken& out) {
  check_zone(zone);
  if (unit >= written_[zone]) {
    out = PageToken{};
    return Read{};
  }
  const uint32_t upp = mapping_.units_per_page();
  if (unit >= programmed_[zone]) {
    out = gathered_[size_t(zone) * upp + unit % upp];
    return Read{kNoOp, true};
  }
  const ZonePlace place = mapping_.locate(unit);
  return Read{hal_.flash_read(ppa(zone, place), out, upp == 1 ? 0 : place.unit), true};
}

std::vector<OpId> ZoneBlocks::finish(uint32_t zone) {
  check_zone(zone);
  std::vector<OpId> ops;
  if (written_[zone] == 0) return ops;  // an empty zone finished holds no blocks
  const uint32_t upp = mapping_.units_per_page();
  const uint64_t step = uint64_t(upp) * mapping_.program_pages();
  const uint64_t end = (written_[zone] + step - 1) / step * step;
  for (uint64_t u = std::max(written_[zone], programmed_[zone]); u < end; ++u) {
    gathered_[size_t(zone) * upp + u % upp] = PageToken{};
    gathered_from_[size_t(zone) * upp + u % upp] = kNoOp;
    ++stats_.units_padded;
    if (u % upp == upp - 1) ops.push_back(program(zone, u));
  }
  return ops;
}

std::vector<OpId> ZoneBlocks::reset(uint32_t zone) {
  check_zone(zone);
  std::vector<OpId> ops;
  if (written_[zone] == 0) return ops;
  for (uint32_t l = 0; l < mapping_.lanes(); ++l) {
    const ZoneLane lane = mapping_.lane(zone, l);
    uint32_t& b = blocks_[size_t(zone) * mapping_.lanes() + l];
    ops.push_back(hal_.flash_erase(lane.die, b));
    uint32_t& count = erases_[size_t(lane.die) * blocks_per_die_ + b];
    ++count;
    free_[plane_index(lane)].emplace(count, b);
    b = kNoBlock;
    ++stats_.blocks_erased;
  }
  written_[zone] = 0;
  programmed_[zone] = 0;
  return ops;
}

}  // namespace ssd::fw::zns
