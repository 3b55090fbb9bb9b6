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
                                 const Shape& shape)
    : zone_size_(limits.zone_size),
      chunk_blocks_(chunk_blocks),
      zones_(limits.zones),
      host_streams_(shape.open_zones),
      gc_streams_(shape.gc_zones),
      free_zones_(shape.free_zones) {
  require(chunk_blocks != 0 && (chunk_blocks & (chunk_blocks - 1)) == 0 &&
              limits.zone_capacity % chunk_blocks == 0 && limits.zone_capacity != 0,
          "a chunk of " + std::to_string(chunk_blocks) +
              " blocks is not a power of two dividing the zone capacity (" +
              std::to_string(limits.zone_capacity) + " blocks)");
  require(shape.open_zones >= 1 && shape.gc_zones >= 1 && shape.free_zones >= 1,
          "it needs a zone open for host chunks, one for copies and one kept free");
  const uint64_t streams = uint64_t(shape.open_zones) + shape.gc_zones;
  require(streams + shape.free_zones <= shape.spare_zones && shape.spare_zones < limits.zones,
          std::to_string(shape.spare_zones) + " spare zones; with " +
              std::to_string(shape.open_zones) + " open for host chunks, " +
              std::to_string(shape.gc_zones) + " for copies and " +
              std::to_string(shape.free_zones) + " kept free it needs at least " +
              std::to_string(streams + shape.free_zones) + ", and fewer than the " +
              std::to_string(limits.zones) + " zones of the namespace");
  const auto allows = [streams](uint32_t limit) { return limit == 0 || limit >= streams; };
  require(allows(limits.max_open) && allows(limits.max_active),
          "it keeps " + std::to_string(streams) +
              " zones open (host chunks', copies'); the namespace allows " +
              std::to_string(limits.max_open) + " open and " + std::to_string(limits.max_active) +
              " active");
  const uint64_t per_zone = limits.zone_capacity / chunk_blocks;
  require(per_zone * limits.zones < kNone, "more than 2^32 - 1 chunks; take larger chunks (" +
                                               std::to_string(chunk_blocks) + " blocks each)");
  per_zone_ = uint32_t(per_zone);
  host_chunks_ = (zones_ - shape.spare_zones) * per_zone_;
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
  Stream& stream = host_streams_[next_host_];
  next_host_ = (next_host_ + 1) % uint32_t(host_streams_.size());
  for (uint32_t c = first; c <= last; ++c) place(c, stream, false, plan);
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

void ZoneTranslation::place(uint32_t chunk, Stream& stream, bool gc,
                            std::vector<ZoneCommand>& plan) {
  unmap(chunk);  // first, so a collection making room does not copy what this replaces
  const bool opens = stream.zone == kNone;
  if (opens) stream.zone = take_zone(gc, plan);
  const uint32_t zone = stream.zone;
  const uint32_t at = zone * per_zone_ + written_[zone]++;
  map_[chunk] = at;
  owner_[at] = chunk;
  ++valid_[zone];
  add(plan, ZoneOp::Write, block_of(at), chunk_blocks_, gc);
  if (opens) plan.back().follows = stream.last;
  stats_.blocks_written += chunk_blocks_;
  if (written_[zone] == per_zone_) stream = Stream{kNone, zone};  // the drive made it full
}

uint32_t ZoneTranslation::take_zone(bool gc, std::vector<ZoneCommand>& plan) {
  if (!gc)
    while (free_.size() <= free_zones_) collect(plan);
  // A collection starts with a zone free and takes at most one (see the constructor).
  if (free_.empty()) throw std::logic_error("zone translation: no free zone for GC's copies");
  const uint32_t z = free_.front();
  free_.pop_front();
  return z;
}

void ZoneTranslation::collect(std::vector<ZoneCommand>& plan) {
  uint32_t victim = kNone;
  for (uint32_t z = 0; z < zones_; ++z)
    if (written_[z] == per_zone_ && (victim == kNone || valid_[z] < valid_[victim])) victim = z;
  // With open + gc + free spare zones the full ones hold more chunks than the host can have
  // written.
  if (victim == kNone || valid_[victim] == per_zone_)
    throw std::logic_error("zone translation: no full zone has a chunk to reclaim");
  std::vector<uint32_t> moving;
  for (uint32_t at = victim * per_zone_; at < (victim + 1) * per_zone_; ++at) {
    if (owner_[at] == kNone) continue;
    add(plan, ZoneOp::Read, block_of(at), chunk_blocks_, true);
    moving.push_back(owner_[at]);
  }
  Stream& stream = gc_streams_[next_gc_];
  next_gc_ = (next_gc_ + 1) % uint32_t(gc_streams_.size());
  for (const uint32_t chunk : moving) place(chunk, stream, true, plan);
  stats_.gc_blocks_copied += uint64_t(moving.size()) * chunk_blocks_;
  plan.push_back(ZoneCommand{ZoneOp::Reset, uint64_t(victim) * zone_size_, 0, true});
  written_[victim] = 0;
  free_.push_back(victim);
  ++stats_.zones_reset;
}

}  // namespace ssd::tb
