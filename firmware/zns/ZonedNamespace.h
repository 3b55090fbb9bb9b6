#pragma once
// A zoned namespace's firmware: the zone state machine (Zones) decides whether a write, an
// append, a read or a zone management action may go, and the flash side (ZoneBlocks) does what
// an accepted one implies, in the namespace's logical blocks. Logical blocks may be smaller than
// the mapping unit (512 B blocks, 4 KiB units): the unit a zone's write pointer stands in holds
// its blocks in the controller's buffer until its last block arrives (the unit is then written,
// carrying the latest write's data token, as a read-modify-write would leave it) or the zone is
// finished. Closing a zone, explicitly or to make room, costs nothing on the flash: the gathered
// units stay in the buffer, which power-loss protection keeps. An offline zone's buffered data
// is dropped with the zone. Plain C++ against the Hal.
#include <cstdint>
#include <vector>

#include "firmware/Hal.h"
#include "firmware/Types.h"
#include "firmware/zns/ZoneBlocks.h"
#include "firmware/zns/ZoneMapping.h"
#include "firmware/zns/Zones.h"

namespace ssd::fw::zns {

// A write's or an append's outcome, and the page programs it completed.
struct ZonedWrite {
  ZoneOutcome outcome;
  std::vector<OpId> programs;
};

// One mapping unit a read touches: `data` is what it holds (version 0: never written, reset, or
// past the write pointer); `op` the flash read, kNoOp when the buffer or nothing answered.
struct ZonedUnitRead {
  Lpn unit = 0;  // the namespace's unit: logical block / blocks per unit
  OpId op = kNoOp;
  bool written = false;
  PageToken data;
};

struct ZonedRead {
  ZoneStatus status = ZoneStatus::Success;
  std::vector<ZonedUnitRead> units;  // empty unless the read may go
};

// A management action's outcome, the zones it changed and the flash work it cost (finish:
// programs; reset: erases).
struct ZonedManage {
  ZoneOutcome outcome;
  std::vector<uint32_t> changed;
  std::vector<OpId> ops;
};

class ZonedNamespace {
 public:
  // `zones` zones (at most mapping.max_zones()) addressed in logical blocks of `lba_bytes` (a
  // power of two dividing the mapping unit). Throws std::invalid_argument otherwise. The data
  // tokens name the drive's units: the namespace's unit u is the drive's first_lpn + u.
  ZonedNamespace(const ZoneMapping& mapping, const config::FlashConfig& flash, Hal& hal,
                 uint32_t zones, uint32_t lba_bytes, Lpn first_lpn = 0);

  // A write of `blocks` logical blocks from `lba`, its units carrying data version `version`.
  ZonedWrite write(uint64_t lba, uint64_t blocks, uint64_t version);
  // A zone append to the zone starting at `zslba`; outcome.lba is where it went.
  ZonedWrite append(uint64_t zslba, uint64_t blocks, uint64_t version);
  ZonedRead read(uint64_t lba, uint64_t blocks);
  // Zone Management Send on the zone starting at `zslba`, or on every zone it applies to.
  ZonedManage manage(uint64_t zslba, ZoneAction action);
  ZonedManage manage_all(ZoneAction action);
  // Controller events: the media turned the zone read only, or offline.
  void make_read_only(uint32_t zone) { zones_.make_read_only(zone); }
  void make_offline(uint32_t zone);

  uint32_t blocks_per_unit() const { return blocks_per_unit_; }
  const Zones& zones() const { return zones_; }
  const ZoneBlocks& flash() const { return blocks_; }

 private:
  // The buffered unit at a zone's write pointer: its blocks written so far, and its data.
  struct Partial {
    uint32_t blocks = 0;
    PageToken data;
  };

  ZonedWrite place(const ZoneOutcome& outcome, uint64_t blocks, uint64_t version);
  // The flash side of an action `zone` went through.
  void apply(uint32_t zone, ZoneAction action, std::vector<OpId>& ops);
  uint64_t first_unit(uint32_t zone) const { return zones_.zone(zone).start / blocks_per_unit_; }

  Zones zones_;
  ZoneBlocks blocks_;
  uint32_t blocks_per_unit_;
  Lpn first_lpn_;
  std::vector<Partial> partial_;
};

}  // namespace ssd::fw::zns
