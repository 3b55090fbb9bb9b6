#pragma once
// The host's zone translation layer, so a block trace (random writes anywhere) can run on a
// zoned namespace, as Linux's dm-zoned lets a file system use a zoned drive: log-structured,
// host chunks are written at the write pointer of a zone open for them (host writes take the
// open zones in turn, a write's chunks all to one), a map says where each chunk lives, and
// garbage collection copies the valid chunks of the full zone holding fewest into a zone open
// for copies (collections take those in turn) and resets it. The copies are writes the drive
// receives from the host: the report splits write amplification into this host-side part and
// the drive's own. Chunks partly written are completed by reading the rest from where they lived
// (a read-modify-write). It plans zone commands; the host issues them in plan order as their
// zones and data allow (tb/host/TranslatedNamespace.h).
//
// A collection is planned when a host write opens a zone and no more than `free_zones` zones
// are free; it is work of its own, not the host write's: its commands in the plan are its
// reads, its writes (which carry the reads' data) and its victim's reset, one after the other,
// all marked gc. A zone's first write names the zone before it in its stream (host or GC), which it
// follows: the drive then never has more zones open than the layer has streams.
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "firmware/zns/Zones.h"

namespace ssd::tb {

enum class ZoneOp : uint8_t { Read, Write, Reset };

inline constexpr uint32_t kNoZone = ~0u;

struct ZoneCommand {
  ZoneOp op = ZoneOp::Read;
  uint64_t lba = 0;            // the zoned namespace's logical block (Reset: the zone's first)
  uint64_t blocks = 0;         // 0 for Reset
  bool gc = false;             // garbage collection's, not a host request's own
  uint32_t follows = kNoZone;  // a zone's first write: the zone before it in its stream, if any
  bool operator==(const ZoneCommand& o) const {
    return op == o.op && lba == o.lba && blocks == o.blocks && gc == o.gc && follows == o.follows;
  }
};

struct ZoneTranslationStats {
  uint64_t host_blocks_written = 0;  // what host requests wrote
  uint64_t blocks_written = 0;       // what the drive was sent: whole chunks, and GC's copies
  uint64_t gc_blocks_copied = 0;
  uint64_t rmw_blocks_read = 0;  // the rest of chunks host writes covered in part
  uint64_t zones_reset = 0;      // GC's victims
  // Host-side write amplification: blocks the drive was sent per block the host wrote.
  double waf() const {
    return host_blocks_written == 0 ? 0.0 : double(blocks_written) / host_blocks_written;
  }
};

class ZoneTranslation {
 public:
  // `limits`: the zoned namespace's; `chunk_blocks`: the map's granularity, a power of two of
  // its blocks dividing the zone capacity; `shape`: its zones open for host chunks and for GC's
  // copies, the free zones it keeps and its spare zones, left out of the capacity the host sees
  // (at least open + gc + free: then a full zone always has a chunk to reclaim). The namespace
  // must allow open + gc open and active zones. Throws std::invalid_argument naming the broken
  // rule.
  struct Shape {
    uint32_t spare_zones = 3;
    uint32_t open_zones = 1;
    uint32_t gc_zones = 1;
    uint32_t free_zones = 1;
  };
  ZoneTranslation(const fw::zns::ZoneLimits& limits, uint32_t chunk_blocks, const Shape& shape);

  uint64_t capacity_blocks() const { return host_chunks_ * chunk_blocks_; }
  // The commands of a host write, read or trim of `blocks` blocks from `lba` (within
  // capacity_blocks(), else std::out_of_range), appended to `plan`. Reads of blocks never
  // written (or trimmed) need no command: they read as zeroes.
  void write(uint64_t lba, uint64_t blocks, std::vector<ZoneCommand>& plan);
  void read(uint64_t lba, uint64_t blocks, std::vector<ZoneCommand>& plan) const;
  void trim(uint64_t lba, uint64_t blocks);  // chunks it covers whole are forgotten

  // The namespace block where host chunk `chunk` starts, or nullopt while it holds nothing.
  std::optional<uint64_t> locate(uint64_t chunk) const;
  uint32_t chunk_blocks() const { return chunk_blocks_; }
  uint32_t free_zones() const { return uint32_t(free_.size()); }
  uint32_t valid_chunks(uint32_t zone) const { return valid_.at(zone); }
  const ZoneTranslationStats& stats() const { return stats_; }

 private:
  static constexpr uint32_t kNone = kNoZone;
  // Where host writes or collections put their chunks: the zone open there (kNone: take a free
  // one), and the one before it, which that one's first write follows.
  struct Stream {
    uint32_t zone = kNone;
    uint32_t last = kNone;
  };
  void check_range(uint64_t lba, uint64_t blocks) const;
  uint64_t block_of(uint32_t slot, uint64_t within = 0) const {
    return uint64_t(slot / per_zone_) * zone_size_ + uint64_t(slot % per_zone_) * chunk_blocks_ +
           within;
  }
  // Puts host chunk `chunk` at the write pointer of the stream's zone (a fresh one when it
  // is full), extending the plan's last write when it ends there.
  void place(uint32_t chunk, Stream& stream, bool gc, std::vector<ZoneCommand>& plan);
  void unmap(uint32_t chunk);
  // A free zone: for host chunks, after collecting until more than free_zones are free.
  uint32_t take_zone(bool gc, std::vector<ZoneCommand>& plan);
  void collect(std::vector<ZoneCommand>& plan);
  // Appends a read or a write, extending the last command when it is of the same kind and ends
  // where this one starts in the same zone.
  void add(std::vector<ZoneCommand>& plan, ZoneOp op, uint64_t lba, uint64_t blocks, bool gc) const;

  uint64_t zone_size_;
  uint32_t chunk_blocks_;
  uint32_t per_zone_;  // chunks a zone holds
  uint32_t zones_;
  uint32_t host_chunks_;
  std::vector<uint32_t> map_;      // host chunk -> slot (zone x per_zone + chunk in zone)
  std::vector<uint32_t> owner_;    // slot -> host chunk
  std::vector<uint32_t> valid_;    // per zone: its chunks the map points at
  std::vector<uint32_t> written_;  // per zone: chunks written; all of them when it is full
  std::deque<uint32_t> free_;      // reset zones go last: resets spread over the zones
  std::vector<Stream> host_streams_, gc_streams_;
  uint32_t next_host_ = 0, next_gc_ = 0;  // the streams the next host write and collection take
  uint32_t free_zones_;
  ZoneTranslationStats stats_;
};

}  // namespace ssd::tb
