#pragma once
// The flash translation layer (ftl): which FTL, its allocation, mapping unit, garbage collection,
// wear levelling and SLC cache. The struct, its field table (keys, members, ranges: read, written
// and listed by config/json/) and its own rules; rules across sections are DriveConfig's.
// docs/config.md documents each key.
#include <cstdint>
#include <string>
#include <vector>

#include "config/Choices.h"
#include "config/json/Bounds.h"
#include "config/json/Problems.h"

namespace ssd::config {

// A point of the dynamic SLC cache's curve (ftl.slc_dynamic): with this fraction of a die's
// native blocks (those outside the static SLC region) free or in the cache, the cache may hold
// up to slc_fraction of them in SLC mode.
struct SlcDynamicPoint {
  double free_fraction = 0.0;
  double slc_fraction = 0.0;
};

// Read refresh (reclaim) of the page-level FTLs on aging NAND (docs/reliability.md#read-refresh):
// the firmware estimates each block's raw bit errors per codeword from the NAND's
// characterisation (flash.reliability) and its own records (erase count, first program, reads
// since erase) and rewrites a block whose estimate reaches errors_per_codeword: its valid data
// moved, the block erased. A block is checked as it is read and, every scan_interval_ms (0:
// never), all full blocks are (their retention). A rewrite moves units_per_step valid units a
// step (before a host command's FTL work, or in idle time; 0: the whole block in one step).
struct ReadRefreshConfig {
  bool enabled = false;
  double errors_per_codeword = 20.0;
  double scan_interval_ms = 0.0;
  uint32_t units_per_step = 0;
};

// Flexible data placement (NVMe FDP; docs/ftl.md#flexible-data-placement), page-level FTLs: the
// drive's one reclaim group (every die) with `handles` reclaim unit handles. A host write names
// one by its placement identifier (0 without one); each handle has host blocks of its own open on
// every die, so data written through different handles never shares a block (a reclaim unit: the
// handle's blocks on every die, filled together). `isolation`: whether GC's copies keep them apart.
inline constexpr uint32_t kMaxFdpHandles = 64;  // a block's handle is a byte (255: GC's mixed)
struct FdpConfig {
  bool enabled = false;
  uint32_t handles = 8;
  FdpIsolation isolation = FdpIsolation::Initially;
};

struct FtlConfig {
  FtlType type = FtlType::Page;  // firmware/ftl/
  // Page-level FTLs: the order host pages take over dies and planes (docs/ftl.md#allocation):
  // channel_first, plane_first or die_first.
  Allocation allocation = Allocation::ChannelFirst;
  double overprovisioning = 0.10;  // fraction of raw capacity hidden from the host
  // The mapping unit (docs/ftl.md#mapping-units): the host data one mapping entry covers; 0:
  // the flash page. A smaller unit (the page FTL) is packed, units_per_page() to a page.
  uint32_t mapping_unit_bytes = 0;
  uint32_t gc_threshold_blocks = 4;  // per die: GC runs while free blocks are below this
  // Page-level FTLs: how garbage collection shares the dies with the host (docs/ftl.md#gc-modes).
  // "foreground" (the founding study's drives): a die below gc_threshold_blocks collects whole
  // victims before the host page is placed. "incremental": below gc_soft_blocks every page
  // placed on a die brings gc_copies_per_write copies of its victim's valid pages (0: the
  // victim's own rate, ceil(valid / invalid pages)), queued as background work; below
  // gc_threshold_blocks (the hard watermark) collection runs at once, urgently, until the die
  // is back at it, and the host page waits for the erase that gets it there.
  GcMode gc_mode = GcMode::Foreground;
  uint32_t gc_soft_blocks = 8;
  uint32_t gc_copies_per_write = 0;
  // Page-level GC: victim choice (greedy, cost_benefit, random, window) and, for "window",
  // the fraction of candidate blocks examined per choice.
  GcPolicy gc_policy = GcPolicy::Greedy;
  double gc_window_fraction = 0.1;
  // Background GC in idle periods: starts once the drive has been idle this long.
  bool background_gc = false;
  double bg_gc_idle_us = 1000.0;
  // Wear levelling for page-level FTLs: none or static; acts when the spread of erase
  // counts exceeds wl_threshold_erases.
  WearLeveling wear_leveling = WearLeveling::None;
  uint32_t wl_threshold_erases = 100;
  // DFTL: bytes of cached mapping entries (the brief: 32 KB was considered enough).
  uint64_t map_cache_bytes = 32768;
  // Hybrid (log-block) FTLs: log blocks as a fraction of the data blocks (brief: 2-5 %).
  double log_block_fraction = 0.03;
  // LAST: sequential log blocks, and the hot share of the random log area.
  uint32_t last_seq_log_blocks = 4;
  double last_hot_fraction = 0.5;
  // The block FTL: how it takes an update below a data block's write pointer.
  BlockUpdate block_update = BlockUpdate::Replacement;
  // The block FTL with replacement blocks: how a host read finds a page's current copy in the
  // replacement block (docs/ftl.md#read-look-up): sram (the founding study's), the offsets the
  // firmware keeps in an SRAM on the controller's supply, each entry read (or written, as its
  // page is programmed) in t_sram_access_ns, the core waiting, the SRAM drawing i_sram_active_ma
  // meanwhile and i_sram_standby_ma otherwise; or scan, its spare areas read.
  BlockReadLookup block_read_lookup = BlockReadLookup::Sram;
  double t_sram_access_ns = 55.0;
  double i_sram_active_ma = 45.0;
  double i_sram_standby_ma = 0.004;
  // Page-level FTLs on MLC/TLC/QLC: an SLC cache, the first slc_cache_blocks_per_plane
  // blocks of every plane operated in SLC mode (pages_per_block / bits per cell pages each,
  // flash.t_read_slc_us / t_prog_slc_us); 0: none. Host pages go there while it has room;
  // its blocks are folded into the main region (valid pages copied, block erased) oldest first
  // once the drive has idled slc_fold_idle_us, and with slc_fold "on_full" also when a
  // die's cache is full (else host pages then go straight to the main region).
  uint32_t slc_cache_blocks_per_plane = 0;
  SlcFold slc_fold = SlcFold::Idle;
  double slc_fold_idle_us = 1000.0;
  // Page-level FTLs on MLC/TLC/QLC: the dynamic SLC cache, free native blocks written in SLC
  // mode while the die's free space allows (docs/ftl.md#slc-cache): points in increasing
  // free_fraction, linear between them, the end points' slc_fraction beyond; empty: none.
  std::vector<SlcDynamicPoint> slc_dynamic;
  // Build the drive with the smallest part of dram.parts that holds the FTL's mapping table
  // and the write buffer (its size, currents and access time replace dram.size_mb,
  // i_active_ma, i_idle_ma and t_access_ns).
  bool size_dram_from_table = false;
  ReadRefreshConfig read_refresh;
  FdpConfig fdp;
};

// The field table: the visitor (config/json/) is called once per key, in the order configs
// write them.
template <class Ftl, class V>
void visit_ftl(Ftl& f, V& v) {
  v("type", f.type);
  v("allocation", f.allocation);
  v("overprovisioning", f.overprovisioning, Bounds{0.0, false, 0.9, true});
  v("mapping_unit_bytes", f.mapping_unit_bytes, between(0, 1 << 20));  // divides a page: validate()
  v("gc_threshold_blocks", f.gc_threshold_blocks, at_least(2));
  v("gc_mode", f.gc_mode);
  v("gc_soft_blocks", f.gc_soft_blocks, between(1, 1 << 20));  // above the threshold: validate()
  v("gc_copies_per_write", f.gc_copies_per_write, between(0, 1 << 20));
  v("gc_policy", f.gc_policy);
  v("gc_window_fraction", f.gc_window_fraction, Bounds{0.0, true, 1.0, false});
  v("background_gc", f.background_gc);
  v("bg_gc_idle_us", f.bg_gc_idle_us, kIdleTime);
  v("wear_leveling", f.wear_leveling);
  v("wl_threshold_erases", f.wl_threshold_erases, at_least(1));
  v("map_cache_bytes", f.map_cache_bytes, between(1, 0x1p40));  // 1 TiB
  v("log_block_fraction", f.log_block_fraction, Bounds{0.0, true, 0.5, true});
  v("last_seq_log_blocks", f.last_seq_log_blocks, at_least(1));
  v("last_hot_fraction", f.last_hot_fraction, Bounds{0.0, true, 1.0, true});
  v("block_update", f.block_update);
  v("block_read_lookup", f.block_read_lookup);
  v("t_sram_access_ns", f.t_sram_access_ns, up_to(1e6));  // a millisecond
  v("i_sram_active_ma", f.i_sram_active_ma, kCurrent);
  v("i_sram_standby_ma", f.i_sram_standby_ma, kCurrent);
  v("slc_cache_blocks_per_plane", f.slc_cache_blocks_per_plane, between(0, 1 << 20));
  v("slc_fold", f.slc_fold);
  v("slc_fold_idle_us", f.slc_fold_idle_us, kIdleTime);
  // Points in increasing free_fraction, slc_fraction at most free_fraction: validate().
  v.list("slc_dynamic", f.slc_dynamic, 0, [](auto& p, auto& pv) {
    pv("free_fraction", p.free_fraction, up_to(1.0), Presence::kRequired);
    pv("slc_fraction", p.slc_fraction, up_to(1.0), Presence::kRequired);
  });
  v("size_dram_from_table", f.size_dram_from_table);
  v.section("read_refresh", f.read_refresh, [](auto& r, auto& rv) {
    rv("enabled", r.enabled);
    rv("errors_per_codeword", r.errors_per_codeword, positive_up_to(65536.0));
    rv("scan_interval_ms", r.scan_interval_ms, up_to(8.64e7));  // a day
    rv("units_per_step", r.units_per_step, between(0, 1 << 20));
  });
  v.section("fdp", f.fdp, [](auto& p, auto& pv) {
    pv("enabled", p.enabled);
    pv("handles", p.handles, between(1, kMaxFdpHandles));
    pv("isolation", p.isolation);
  });
}

// The rules that involve more than one field of the section: each broken one is added to
// `problems`, naming its key.
void validate(const FtlConfig& section, Problems& problems);

}  // namespace ssd::config
