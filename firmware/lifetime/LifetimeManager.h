#pragma once
// The integrated lifetime manager's data path (Lee et al.; docs/lifetime.md): deduplication,
// compression and write throttling between the host's pages and a page-mapped FTL, steered
// by the EpochManager once an epoch. Plain C++ on the Hal.
//
// Two-level mapping, as content-aware FTLs keep it: a host page maps to a member of an
// extent (in DRAM: one entry), and an extent holds the FTL pages ("slots", numbered in the
// FTL's logical space) its data occupies. An uncompressed page is an extent of one member in
// one slot; a compressed chunk of n consecutive pages of one host write is an extent of n
// members in ceil(n x (1 - compressible)) slots, its bytes packed in member order. A
// deduplicated page maps to the member that already holds its content (found in the hash
// table, in DRAM), counted in that extent's references; an extent's slots are trimmed in the
// FTL when its last reference goes, so GC sees exactly the live data.
//
// What a flash page holds: the token of the extent's first member (logical page, version).
// A member's data is that token advanced by its index, as decompressing the chunk yields the
// pages of one write in order; a deduplicated page reads back another write's token whose
// content equals its own (the scoreboard compares content, ip/Scoreboard.h).
//
// Mapping units smaller than the page (ftl.mapping_unit_bytes): the manager's pages are the
// FTL's units (Lee et al.'s 4 KB pages), and its slots' writes go through the firmware's
// packing buffer (`packer`), which hands the FTL a page's worth at a time; a slot still
// there is read from it. Costs stay per unit; programs (throttling, demand) are flash pages.
//
// Costs: the hash unit (t_hash_us per page hashed) and the compression unit (t_compress_us
// per page compressed, t_decompress_us per compressed page read) on the core's timeline;
// one DRAM access per host-mapping look-up or update and per hash-table look-up, insert or
// removal. Throttling paces flash programs at C an epoch: each program (a host page's, and
// those of the GC it caused) takes 1 / C of an epoch, and a host page's program waits for its
// turn (its data is held back), so the host's writes slow down.
#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "config/DriveConfig.h"
#include "firmware/Ftl.h"
#include "firmware/Hal.h"
#include "firmware/Types.h"
#include "firmware/WriteBuffer.h"
#include "firmware/lifetime/EpochManager.h"

namespace ssd::fw::lifetime {

// Years of 365.25 days, for projected lifetimes.
inline constexpr double kSecondsPerYear = 365.25 * 86400;

struct LifetimeStats {
  uint64_t pages_hashed = 0;
  uint64_t dedup_hits = 0;                    // host pages stored by reference, no program
  uint64_t pages_compressed = 0;              // host pages through the compression unit
  uint64_t compressed_programs = 0;           // flash pages programmed for compressed chunks
  uint64_t chunks_compressed = 0;             // chunks stored compressed
  uint64_t chunks_raw = 0;                    // chunks that did not shrink, stored as they were
  uint64_t decompressions = 0;                // compressed host pages read
  uint64_t host_programs = 0;                 // flash programs of host data
  uint64_t throttled_programs = 0;            // of which held back by throttling
  sc_core::sc_time throttle_delay;            // summed over them
  sc_core::sc_time hash_time, compress_time;  // unit busy time (compress: both directions)
};

// One epoch as the manager saw it: its plan, the pages it programmed, and its demand (those
// plus the host pages dedup and compression saved programming and those throttling held
// back).
struct EpochRecord {
  Decision plan;
  double programmed = 0;
  double demand = 0;
};

class LifetimeManager {
 public:
  // `packer`: the units' packing buffer (units smaller than the page), else null.
  LifetimeManager(const config::DriveConfig& cfg, Hal& hal, Ftl& ftl, WriteBuffer* packer);

  // Closes the epochs that have ended by hal.now() and plans the next.
  void tick();
  // A host page read: `out` gets its data; `done` what it waits for. False if unmapped.
  bool read(Lpn lpn, PageToken& out, Completion& done);
  // The old data of a partial page (read-modify-write): the read its program waits for.
  OpId read_old(Lpn lpn);
  // A whole page of a host write: `content` (page_content(), 0 unknown), the share of its
  // bytes compression removes, and when its data is in the buffer. Pages are gathered into
  // chunks; end_command stores what is left.
  void write(Lpn lpn, const PageToken& data, uint64_t content, uint8_t compressible,
             const sc_core::sc_time& data_at, Completion& done);
  // A partial page, merged with its old data (`data_from`): stored alone, uncompressed.
  void write_partial(Lpn lpn, const PageToken& data, OpId data_from,
                     const sc_core::sc_time& data_at, Completion& done);
  void trim(Lpn lpn);
  void end_command(Completion& done) { store_chunk(done); }

  const LifetimeStats& stats() const { return stats_; }
  const std::vector<EpochRecord>& epochs() const { return log_; }
  const Decision& plan() const { return plan_; }
  Mode mode() const { return epochs_.mode(); }
  double epoch_programmed() const;  // pages programmed in the current epoch so far
  // P/E cycles x physical pages: the pages the drive can program in its life.
  double endurance_pages() const { return epochs_.endurance_pages(); }
  // The drive's life at the rate of `programmed` pages over `elapsed` (infinite if none).
  double projected_years(double programmed, const sc_core::sc_time& elapsed) const;
  void reset_stats() { stats_ = LifetimeStats{}; }

 private:
  static constexpr uint32_t kMaxChunk = 8;  // lifetime.chunk_pages at most
  struct Extent {
    uint32_t refs = 0;
    uint8_t pages = 0;    // slots (flash pages)
    uint8_t members = 0;  // host pages
    std::array<uint32_t, kMaxChunk> slots{};
    std::array<uint64_t, kMaxChunk> content{};  // in the hash table, 0 if not
  };
  struct Pending {
    Lpn lpn;
    PageToken data;
    uint64_t content;
    sc_core::sc_time data_at;
  };
  static constexpr uint64_t kUnmapped = 0;
  static uint64_t pack(uint32_t extent, uint32_t member) {
    return (uint64_t(extent) << 4 | member) + 1;
  }

  // Stores the pending chunk (compressed if the plan says so and it shrinks).
  void store_chunk(Completion& done);
  // One uncompressed page, overwriting its own slot when it alone uses it.
  void store_single(const Pending& p, OpId data_from, Completion& done);
  // A slot's data: from the packing buffer while it waits there, else from flash.
  void read_slot(uint32_t slot, PageToken& out, Completion& done);
  void insert_content(uint32_t extent, uint32_t member, uint64_t content);
  // Drops the host page's reference; frees the extent when it was the last.
  void unmap(Lpn lpn);
  uint32_t new_slot();
  // The write of one slot of host data: paced by throttling.
  void program(uint32_t slot, const PageToken& data, OpId data_from,
               const sc_core::sc_time& data_at, Completion& done);
  void close_epoch();

  Hal& hal_;
  Ftl& ftl_;
  WriteBuffer* packer_;
  double units_per_page_;  // host pages saved or held back, in flash pages
  EpochManager epochs_;
  sc_core::sc_time epoch_len_;
  sc_core::sc_time epoch_end_;
  double epoch_start_programmed_ = 0;
  uint32_t chunk_pages_;
  sc_core::sc_time t_hash_, t_compress_, t_decompress_;
  double hash_j_, compress_j_, write_j_;  // per page, for the epoch manager's energy ratios
  Decision plan_;
  Effect dedup_effect_, compression_effect_;
  uint64_t epoch_hashed_ = 0, epoch_hits_ = 0, epoch_compressed_ = 0, epoch_packed_ = 0;
  uint64_t epoch_host_pages_ = 0, epoch_host_programs_ = 0, epoch_held_ = 0;
  sc_core::sc_time pace_;          // throttling: the next host program starts no earlier
  uint64_t paced_programmed_ = 0;  // the FTL's programs when pace_ was set
  std::vector<uint64_t> map_;      // host page -> pack(extent, member), kUnmapped
  std::unordered_map<uint32_t, Extent> extents_;  // by first slot
  std::unordered_map<uint64_t, uint64_t> table_;  // content -> pack(extent, member)
  std::vector<uint32_t> free_slots_;
  uint64_t fresh_slot_ = 0;
  uint64_t slots_;
  std::vector<Pending> chunk_;
  Completion old_reads_;  // read_old's, reused
  uint8_t chunk_compressible_ = 0;
  LifetimeStats stats_;
  std::vector<EpochRecord> log_;
};

}  // namespace ssd::fw::lifetime
