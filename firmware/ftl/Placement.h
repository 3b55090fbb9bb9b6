#pragma once
// Flexible data placement (NVMe FDP; ftl.fdp, docs/ftl.md#flexible-data-placement) in the
// page-level FTLs: the reclaim unit handles' streams and which handle's data each block holds.
//
// The drive is one reclaim group (every die). Each handle has host blocks of its own open on every
// die (its stream, filled in the drive's die rotation as handle 0's, the FTL's own host stream,
// is), so its reclaim unit is its blocks on every die: units written through different handles
// never share a block. Garbage collection copies a victim's valid units to the GC stream of the
// victim's handle when the handles are persistently isolated, else (initially isolated, as the
// FDP drives of the published studies) to the one GC stream every handle's copies share. A block
// is tagged with its handle when a stream opens it: a handle, GC's shared stream, or mapping
// pages (DFTL's translation pages), and the figures of each handle count by tag.
//
// A write names its handle by its placement identifier (HostCommand::placement); Firmware counts
// one that names no handle (NVMe's Invalid Placement Identifier event) and places it by handle 0.
#include <cstdint>
#include <vector>

#include "config/FtlConfig.h"
#include "firmware/StateArchive.h"
#include "firmware/ftl/Streams.h"

namespace ssd::fw {

class Placement {
 public:
  // What each handle's data cost the flash, counted where it happens (and GC's shared blocks).
  struct HandleFigures {
    uint64_t host_units = 0;        // host units programmed into its blocks
    uint64_t pages_programmed = 0;  // pages programmed into its blocks (host, copies, padding)
    uint64_t copied_units = 0;      // valid units moved out of its blocks (GC, refresh, wear)
    uint64_t blocks_erased = 0;     // its blocks erased
    // NVMe FDP's events on it. Reclaim Unit Handle Updates of the handle, and of them those that
    // found its reclaim unit with room left (Reclaim Unit Not Written to Capacity), whose pages
    // stay unwritten until GC erases their blocks.
    uint64_t ruh_updates = 0;
    uint64_t ru_not_fully_written = 0;
    uint64_t pages_unwritten = 0;
    // Programs that failed in its blocks, their data written again elsewhere (Media
    // Reallocated), and the units they moved.
    uint64_t media_reallocated = 0;
    uint64_t units_reallocated = 0;
    // Its reclaim unit changed by the drive before it was full (Implicitly Modified Reclaim
    // Unit Handle): a program that failed closed its open host blocks.
    uint64_t implicit_ru_changes = 0;
  };

  // `host_lanes`: the host streams' lanes (handle 0's stream has as many).
  Placement(const config::FdpConfig& cfg, uint32_t dies, uint32_t blocks_per_die,
            uint32_t host_lanes);
  bool on() const { return enabled_; }
  uint32_t handles() const { return handles_; }
  bool persistent() const { return persistent_; }

  // The tags a block may have: its handle, or these.
  uint8_t shared_tag() const { return uint8_t(handles_); }       // GC's shared copies
  uint8_t mapping_tag() const { return uint8_t(handles_ + 1); }  // mapping pages

  // The handle the next host units go to (Ftl::place_by; Firmware maps identifiers that name
  // no handle to 0).
  void select(uint8_t handle) { handle_ = handle < handles_ ? handle : 0; }
  uint8_t handle() const { return handle_; }
  // Handle h's host streams and GC streams (h > 0: handle 0's are the FTL's own).
  std::vector<Stream>& host(uint32_t h) { return host_[h - 1]; }
  std::vector<Stream>& gc(uint32_t h) { return gc_[h - 1]; }
  const std::vector<Stream>& gc(uint32_t h) const { return gc_[h - 1]; }
  // Every stream set of the handles past 0 (host, then GC's).
  std::vector<std::vector<Stream>*> streams();

  uint8_t tag(uint32_t die, uint32_t block) const {
    return tags_[std::size_t(die) * blocks_per_die_ + block];
  }
  void opened(uint32_t die, uint32_t block, uint8_t tag) {
    tags_[std::size_t(die) * blocks_per_die_ + block] = tag;
  }
  // The figures of the block's tag (none for mapping blocks: null).
  HandleFigures* figures_of(uint32_t die, uint32_t block) {
    const uint8_t t = tag(die, block);
    return t < figures_.size() ? &figures_[t] : nullptr;
  }
  // The handle whose GC stream takes copies of the block's units: its own, persistently
  // isolated; else 0 (the stream every handle shares).
  uint8_t copy_handle(uint32_t die, uint32_t block) const {
    if (!persistent_) return 0;
    const uint8_t t = tag(die, block);
    return t < handles_ ? t : 0;
  }
  // Host units, a page, programmed into the block.
  void count_host(uint32_t die, uint32_t block, uint32_t units) {
    if (HandleFigures* f = figures_of(die, block)) f->host_units += units;
  }
  void count_program(uint32_t die, uint32_t block) {
    if (HandleFigures* f = figures_of(die, block)) ++f->pages_programmed;
  }
  // One per handle, then GC's shared blocks'.
  const std::vector<HandleFigures>& figures() const { return figures_; }
  HandleFigures& figures(uint8_t handle) { return figures_[handle]; }
  void reset_figures();
  // The handles' streams and the blocks' tags, for a state archive.
  void state(StateArchive& a, const StreamGeometry& geometry);

 private:
  bool enabled_;
  uint32_t handles_;
  bool persistent_;
  uint32_t blocks_per_die_;
  uint8_t handle_ = 0;
  std::vector<std::vector<Stream>> host_, gc_;
  std::vector<uint8_t> tags_;  // per die, per block
  std::vector<HandleFigures> figures_;
};

}  // namespace ssd::fw
