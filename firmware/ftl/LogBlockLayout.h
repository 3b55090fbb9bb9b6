#pragma once
// What a block-mapped FTL (block, bast, bast_star, fast, last; firmware/ftl/LogBlockFtl.h)
// keeps per die, worked out from the config alone, and the drive's rules for it: the FTL
// lays itself out by it, and check_ftl and the mapping table's size (firmware/FtlFactory.cpp)
// read it before any FTL is built.
#include <cstdint>

#include "config/DriveConfig.h"
#include "config/json/Problems.h"

namespace ssd::fw {

// Of the FTL of cfg.ftl.type. `log_slots`: log blocks per die. `replacement_blocks` (the
// block FTL's, docs/ftl.md#block-mapping): the log blocks are replacement blocks, whose pages
// the firmware finds by their spare areas, not by a log map in DRAM (a look-up reads the
// block map only; the table holds one entry per logical and per replacement block); and
// offsets with no data stay erased in a data block instead of being padded.
struct LogBlockLayout {
  // No block: logical block numbers (32 bits) stay below it.
  static constexpr uint32_t kNone = ~uint32_t{0};

  uint32_t log_slots = 0;
  bool replacement_blocks = false;

  static LogBlockLayout of(const config::DriveConfig& cfg);
  // The drive's rules for that FTL, each broken one a problem: a die holds its data blocks,
  // its log blocks and the one spare block a full merge needs; logical blocks and log pages
  // fit their 32-bit numbers.
  static void check(const config::DriveConfig& cfg, config::Problems& problems);
  // (logical blocks + log blocks x pages per block, or one per replacement block) entries of
  // dram.access_bytes.
  static uint64_t table_bytes(const config::DriveConfig& cfg);
  // Logical blocks: the logical pages in blocks, the last one part full.
  static uint64_t logical_blocks(const config::DriveConfig& cfg);
  // Log pages of the whole drive (each indexed in LogIndex).
  uint64_t log_pages(const config::DriveConfig& cfg) const;
};

}  // namespace ssd::fw
