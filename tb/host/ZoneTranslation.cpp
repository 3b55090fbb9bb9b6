#include "tb/host/ZoneTranslation.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssd::tb {

namespace {

void require(bool ok, const std::string& why) {
  if (!ok) throw std::invalid_argument("zone translation: " + why);
}

}  // namespace

ZoneTranslation::ZoneTranslation(const fw::zns::ZoneLimits& limits, uint32_t chunk_blocks,
                                 uint32_t spare_zones, uint32_t open_zones)
    : zone_size_(limits.zone_size),
      chunk_blocks_(chunk_blocks),
      zones_(limits.zones),
      host_zones_(open_zones, kNone) {
  require(chunk_blocks != 0 && (chunk_blocks & (chunk_blocks - 1)) == 0 &&
              limits.zone_capacity % chunk_blocks == 0 && limits.zone_capacity != 0,
          "a chunk of " + std::to_string(chunk_blocks) +
              " blocks is not a power of two dividing the zone capacity (" +
              std::to_string(limits.zone_capacity) + " blocks)");
  require(open_zones >= 1, "it needs a zone open for host chunks");
  require(uint64_t(spare_zones) >= uint64_t(open_zones) + 2 && spare_zones < limits.zones,
          std::to_string(spare_zones) + " spare zones; with " + std::to_string(open_zones) +
              " open for host chunks it needs at least " +
              std::to_string(uint64_t(open_zones) + 2) + ", and fewer than the " +
              std::to_string(limits.zones) + " zones of the namespace");
  const auto allows = [open_zones](uint32_t limit) {
    return limit == 0 || uint64_t(limit) > open_zones;
  };
  require(allows(limits.max_open) && allows(limits.max_active),
          "it keeps " + std::to_string(uint64_t(open_zones) + 1) +
              " zones open (host chunks', GC's); the namespace allows " +
              std::to_string(limits.max_open) + " open and " + std::to_string(limits.max_active) +
              " active");
  const uint64_t per_zone = limits.zone_capacity / chunk_blocks;
  require(per_zone * limits.zones < kNone, "more than 2^32 - 1 chunks; take larger chunks (" +
                                               std::to_string(chunk_blocks) + " blocks each)");
  per_zone_ = uint32_t(per_zone);
  host_chunks_ = (zones_ - spare_zones) * per_zone_;
  map_.assign(host_chunks_, kNone);
  owner_.assign(size_t(zones_) * per_zone_, kNone);
  valid_.assign(zones_, 0);
  written_.assign(zones_, 0);
  for (uint32_t z = 0; z < zones_; ++z) free_.push_back(z);
}

void ZoneTranslation::check_range(uint64_t lba, uint64_t blocks) const {
  if (blocks == 0 || lba >= capacity_blocks() || blocks > capacity_blocks() - lba)
    throw std::out_of_range("zone translation: blocks " + std::to_string(lba) + " to " +
                            std::to_string(lba + blocks) + " are not within the " +
                            std::to_string(capacity_blocks()) + " blocks it offers");
}

void ZoneTranslation::add(std::vector<ZoneCommand>& plan, ZoneOp op, uint64_t lba, uint64_t blocks,
                          bool gc) const {
  if (!plan.empty()) {
    ZoneCommand& last = plan.back();
    if (last.op == op && last.gc == gc && last.lba + last.blocks == lba &&
        last.lba / zone_size_ == lba / zone_size_) {
      last.blocks += blocks;
      return;
    }
  }
  plan.push_back(ZoneCommand{op, lba, blocks, gc});
}

void ZoneTranslation::write(uint64_t lba, uint64_t blocks, std::vector<ZoneCommand>& plan) {
  check_range(lba, blocks);
  const uint64_t end = lba + blocks;
  const auto first = uint32_t(lba / chunk_blocks_);
  const auto last = uint32_t((end - 1) / chunk_blocks_);
  // Blocks [from, to) of `chunk` the write leaves as they were: read from where they live.
  const auto keep = [&](uint32_t chunk, uint64_t from, uint64_t to) {
    if (from >= to || map_[chunk] == kNone) return;
    add(plan, ZoneOp::Read, block_of(map_[chunk], from - uint64_t(chunk) * chunk_blocks_),
        to - from, false);
    stats_.rmw_blocks_read += to - from;
  };
  keep(first, uint64_t(first) * chunk_blocks_, lba);
  keep(last, end, uint64_t(last + 1) * chunk_blocks_);
  uint32_t& open = host_zones_[next_host_];
  next_host_ = (next_host_ + 1) % uint32_t(host_zones_.size());
  for (uint32_t c = first; c <= last; ++c) place(c, open, false, plan);
  stats_.host_blocks_written += blocks;
}

void ZoneTranslation::read(uint64_t lba, uint64_t blocks, std::vector<ZoneCommand>& plan) const {
  check_range(lba, blocks);
  const uint64_t end = lba + blocks;
  for (auto c = uint32_t(lba / chunk_blocks_); uint64_t(c) * chunk_blocks_ < end; ++c) {
    if (map_[c] == kNone) continue;
    const uint64_t start = uint64_t(c) * chunk_blocks_;
    const uint64_t from = std::max(lba, start);
    const uint64_t to = std::min(end, start + chunk_blocks_);
    add(plan, ZoneOp::Read, block_of(map_[c], from - start), to - from, false);
  }
}

void ZoneTranslation::trim(uint64_t lba, uint64_t blocks) {
  check_range(lba, blocks);
  const uint64_t first = (lba + chunk_blocks_ - 1) / chunk_blocks_;
  const uint64_t end = (lba + blocks) / chunk_blocks_;
  for (uint64_t c = first; c < end; ++c) unmap(uint32_t(c));
}

std::optional<uint64_t> ZoneTranslation::locate(uint64_t chunk) const {
  const uint32_t slot = map_.at(chunk);
  if (slot == kNone) return std::nullopt;
  return block_of(slot);
}

void ZoneTranslation::unmap(uint32_t chunk) {
  const uint32_t slot = map_[chunk];
  if (slot == kNone) return;
  owner_[slot] = kNone;
  --valid_[slot / per_zone_];
  map_[chunk] = kNone;
}

void ZoneTranslation::place(uint32_t chunk, uint32_t& open, bool gc,
                            std::vector<ZoneCommand>& plan) {
  unmap(chunk);  // first, so a collection making room does not copy what this replaces
  if (open == kNone) open = take_zone(gc, plan);
  const uint32_t slot = open * per_zone_ + written_[open]++;
  map_[chunk] = slot;
  owner_[slot] = chunk;
  ++valid_[open];
  add(plan, ZoneOp::Write, block_of(slot), chunk_blocks_, gc);
  stats_.blocks_written += chunk_blocks_;
  if (written_[open] == per_zone_) open = kNone;  // the drive made it full
}

uint32_t ZoneTranslation::take_zone(bool gc, std::vector<ZoneCommand>& plan) {
  if (!gc)
    while (free_.size() <= 1) collect(plan);
  // The spare zones keep one free for GC (see the constructor).
  if (free_.empty()) throw std::logic_error("zone translation: no free zone for GC's copies");
  const uint32_t z = free_.front();
  free_.pop_front();
  return z;
}

void ZoneTranslation::collect(std::vector<ZoneCommand>& plan) {
  uint32_t victim = kNone;
  for (uint32_t z = 0; z < zones_; ++z)
    if (written_[z] == per_zone_ && (victim == kNone || valid_[z] < valid_[victim])) victim = z;
  // With open_zones + 2 spare zones the full ones hold more chunks than the host can have
  // written.
  if (victim == kNone || valid_[victim] == per_zone_)
    throw std::logic_error("zone translation: no full zone has a chunk to reclaim");
  std::vector<uint32_t> moving;
  for (uint32_t slot = victim * per_zone_; slot < (victim + 1) * per_zone_; ++slot) {
    if (owner_[slot] == kNone) continue;
    add(plan, ZoneOp::Read, block_of(slot), chunk_blocks_, true);
    moving.push_back(owner_[slot]);
  }
  for (const uint32_t chunk : moving) place(chunk, gc_zone_, true, plan);
  stats_.gc_blocks_copied += uint64_t(moving.size()) * chunk_blocks_;
  plan.push_back(ZoneCommand{ZoneOp::Reset, uint64_t(victim) * zone_size_, 0, true});
  written_[victim] = 0;
  free_.push_back(victim);
  ++stats_.zones_reset;
}

}  // namespace ssd::tb
