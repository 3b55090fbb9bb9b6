#pragma once
// The flash side of a zoned namespace: which block of each of its lanes (ZoneMapping) a zone is
// written into, the lanes' erased blocks, and the programs, reads and erases that the zones'
// writes, reads, finishes and resets cost. The zone state machine (Zones) decides whether a
// command may go; this does what an accepted one implies on the flash. There is no garbage
// collection: a zone's blocks are erased only when the host resets it, and a zone takes erased
// blocks (the least erased of its lanes', so resets spread the wear) when its first unit is
// written. Units gather a page at a time in the controller's buffer (its power-loss protection
// keeps them) and the page is programmed when its last unit arrives; finishing a zone pads its
// open program unit so all its data is on the flash. Plain C++ against the Hal.
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "firmware/BlockManager.h"
#include "firmware/Hal.h"
#include "firmware/Types.h"
#include "firmware/zns/ZoneMapping.h"

namespace ssd::fw::zns {

struct ZoneFlashStats {
  uint64_t units_written = 0;     // host units accepted
  uint64_t pages_programmed = 0;  // with data or padding
  uint64_t units_padded = 0;      // unit slots programmed without data (a finished zone's)
  uint64_t blocks_erased = 0;     // by zone resets
};

class ZoneBlocks {
 public:
  struct Read {
    OpId op = kNoOp;  // the flash read (kNoOp: answered from the buffer, or unwritten)
    bool written = false;
  };

  // `zones`: the namespace's zones, at most mapping.max_zones(). Every block starts erased.
  ZoneBlocks(const ZoneMapping& mapping, const config::FlashConfig& flash, Hal& hal,
             uint32_t zones);

  // Unit `unit` of zone `zone`, at its write pointer (the units written so before it). Returns
  // the program of the page it completes, or kNoOp while the page still gathers units.
  OpId write(uint32_t zone, uint64_t unit, const PageToken& data, OpId data_from);
  Read read(uint32_t zone, uint64_t unit, PageToken& out);
  // The zone is finished: pads and programs its open program unit. Returns the programs.
  std::vector<OpId> finish(uint32_t zone);
  // The zone is reset: erases its blocks and gives them back to their lanes. Returns the erases.
  std::vector<OpId> reset(uint32_t zone);

  uint64_t written_units(uint32_t zone) const { return written_.at(zone); }
  uint64_t programmed_units(uint32_t zone) const { return programmed_.at(zone); }
  // The zone's block on lane `lane` (within its die: plane x blocks_per_plane + block), or
  // kNoBlock before its first write.
  static constexpr uint32_t kNoBlock = ~uint32_t{0};
  uint32_t block(uint32_t zone, uint32_t lane) const;
  uint32_t erase_count(uint32_t die, uint32_t block) const;
  // The erase counts of the namespace's blocks (its band of every plane): its wear.
  BlockManager::EraseSummary erase_summary() const;
  const ZoneFlashStats& stats() const { return stats_; }

 private:
  uint32_t plane_index(const ZoneLane& l) const { return l.die * planes_per_die_ + l.plane; }
  Ppa ppa(uint32_t zone, const ZonePlace& place) const;
  void take_blocks(uint32_t zone);
  // Programs the page of zone `zone` holding unit `unit` from the zone's gathered units.
  OpId program(uint32_t zone, uint64_t unit);
  void check_zone(uint32_t zone) const;

  const ZoneMapping& mapping_;
  Hal& hal_;
  uint32_t zones_;
  uint32_t planes_per_die_;
  uint32_t blocks_per_plane_;
  uint32_t blocks_per_die_;
  std::vector<uint64_t> written_;     // per zone: its write pointer, in units
  std::vector<uint64_t> programmed_;  // per zone: units on the flash (whole pages)
  std::vector<uint32_t> blocks_;      // zone x lane: block within the die, or kNoBlock
  std::vector<PageToken> gathered_;   // zone x unit of a page: the open page's units
  std::vector<OpId> gathered_from_;
  std::vector<uint32_t> erases_;  // die x block
  // Per plane: its erased blocks no zone holds, by (erase count, block): least erased first.
  std::vector<std::set<std::pair<uint32_t, uint32_t>>> free_;
  ZoneFlashStats stats_;
};

}  // namespace ssd::fw::zns
