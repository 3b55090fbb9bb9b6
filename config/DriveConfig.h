#pragma once
// Typed description of a whole drive, parsed once from JSON (configs/*.json).
// Units are part of every field name; the model converts times to sc_time once, at
// construction. Every field is documented in docs/config.md.
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/Choices.h"

namespace ssd::config {

// A low-power state of the host link (docs/energy-model.md#low-power-states): SATA partial,
// slumber or DevSleep, or an NVMe non-operational power state with its PCIe link state.
// The link enters it once it has idled idle_us in the state before it (NVMe APST's idle
// time prior to transition), taking t_entry_us (ENLAT) at the earlier state's power; a
// command arriving there waits t_exit_us (EXLAT) at the link's idle power.
struct LinkStateConfig {
  std::string name;
  double p_mw = 0.0;  // the host interface's power in the state
  double idle_us = 0.0;
  double t_entry_us = 0.0;
  double t_exit_us = 0.0;
  std::string source;
};

// An NVMe I/O submission queue and its completion queue (host.queues).
struct HostQueueConfig {
  uint32_t depth = 32;  // commands of the queue outstanding at once
  // Its class under weighted_round_robin (urgent: strict priority).
  QueuePriority priority = QueuePriority::Medium;
};

// The weighted round robin classes' weights (NVMe: commands per round, 1 to 256).
struct WrrWeightsConfig {
  uint32_t high = 1, medium = 1, low = 1;
};

struct HostConfig {
  HostProtocol interface = HostProtocol::Sata;  // SATA: one NCQ queue of up to 32
  double link_mb_per_s = 300.0;                 // host link payload bandwidth, MB = 1e6 bytes
  bool full_duplex = false;                     // PCIe: true (separate directions); SATA: false
  uint32_t queue_depth = 32;                    // commands the drive holds at once
  double voltage_v = 5.0;
  double i_transfer_ma = 0.0;  // while moving data over the link
  double i_idle_ma = 0.0;      // brief: host interface draws only while transferring
  // Low-power link states, deepest last; empty: the link never leaves idle.
  std::vector<LinkStateConfig> link_states;
  // Submission queues (docs/architecture.md#host-queues-and-arbitration); empty: one of
  // queue_depth. queue_depth stays the commands the drive works on at once.
  std::vector<HostQueueConfig> queues;
  Arbitration arbitration = Arbitration::RoundRobin;  // weighted: the NVMe base spec's
  uint32_t arbitration_burst = 1;  // commands a queue gives per turn; 0: no limit
  WrrWeightsConfig wrr_weights;
  // Command costs: doorbell (SATA: command FIS) to the command in the controller, the fetch
  // engine's gap between two commands, the completion entry's post (SATA: Set Device Bits
  // FIS) and the interrupt until the host sees it.
  double t_sq_fetch_ns = 0.0;
  double sq_fetch_gap_ns = 0.0;
  double t_cq_post_ns = 0.0;
  double t_interrupt_ns = 0.0;
};

// host.queues, or one queue of queue_depth when none is listed.
inline std::vector<HostQueueConfig> submission_queues(const HostConfig& h) {
  if (!h.queues.empty()) return h.queues;
  return {HostQueueConfig{h.queue_depth, QueuePriority::Medium}};
}

struct ControllerConfig {
  double t_cmd_issue_us = 30.0;   // channel switch delay: cost to issue one flash command
  double t_fw_per_cmd_us = 0.0;   // firmware compute per host command
  double t_fw_per_page_us = 0.0;  // firmware compute per FTL step (one page operation)
  double voltage_v = 3.3;
  double i_active_ma = 30.0;
  double i_idle_ma = 15.0;
  // Flash back end (docs/architecture.md#flash-scheduling-channels-and-dies): which ready command a
  // free die starts and which ready die gets its channel's bus. "oldest_ready": the oldest in issue
  // order; "read_first": reads (and their data-out) before programs and erases.
  SchedulerPolicy scheduler_policy = SchedulerPolicy::OldestReady;
  // Host work (host data and its mapping) before background work (GC, wear levelling,
  // merges) when a die or a bus chooses.
  bool host_first = false;
  // A host read to a die that is programming or erasing another block suspends that
  // operation (flash.t_suspend_us / t_resume_us).
  bool suspend_for_reads = false;
  // Which queued commands to one block may pass each other. "in_order": none (the founding
  // study's drives); "nand": the NAND part's rules: programs in page order, an erase after
  // every earlier command to its block, a read passes anything but its own page's program.
  BlockOrder block_order = BlockOrder::InOrder;
  IssueOrder issue_order = IssueOrder::PerDieQueues;
};

// A DRAM part the drive can be built with (dram.parts): ftl.size_dram_from_table picks the
// smallest that holds the FTL's mapping table and the write buffer.
struct DramPart {
  std::string name;
  uint64_t size_mb = 0;
  double i_active_ma = 0.0;
  double i_idle_ma = 0.0;
  double t_access_ns = 0.0;
  std::string source;  // where its figures come from
};

// DRAM self-refresh (docs/energy-model.md#low-power-states): after idle_us without an
// access the DRAM takes t_entry_us (at its idle current) to enter self-refresh, where it
// draws i_self_refresh_ma (the datasheet's IDD6); the next access first waits t_exit_us
// (tXS, at the idle current).
struct DramSelfRefreshConfig {
  bool enabled = false;
  double idle_us = 1000.0;
  double t_entry_us = 0.0;
  double t_exit_us = 0.0;
  double i_self_refresh_ma = 0.0;
};

struct DramConfig {
  uint64_t size_mb = 512;
  double t_access_ns = 50.0;  // one access of access_bytes
  uint32_t access_bytes = 4;  // bytes moved per access (one mapping-table entry)
  // Write buffer (write-back data cache) in this DRAM; 0: none (writes complete when
  // programmed, as in the founding study's drives). Page data moves in bursts at
  // burst_mb_per_s; the buffer destages once the drive has been idle write_buffer_idle_us.
  uint64_t write_buffer_mb = 0;
  double burst_mb_per_s = 800.0;
  double write_buffer_idle_us = 1000.0;
  double voltage_v = 3.3;
  double i_active_ma = 100.0;
  double i_idle_ma = 20.0;
  std::vector<DramPart> parts;  // catalogue for ftl.size_dram_from_table; may be empty
  DramSelfRefreshConfig self_refresh;
};

// Die power-down (docs/energy-model.md#low-power-states): a die that has idled idle_us
// is switched off (i_off_ma); its next operation first waits t_wake_us while it powers up
// (at i_idle_ma). Scope "channel": a channel's dies go off once all of them have idled
// idle_us, and power up together.
struct DiePowerDownConfig {
  bool enabled = false;
  PowerDownScope scope = PowerDownScope::Die;
  double idle_us = 1000.0;
  double t_wake_us = 0.0;
};

struct FlashConfig {
  // Geometry. A "way" is a package on a channel; dies_per_way dies share that slot.
  uint32_t channels = 10;
  uint32_t ways_per_channel = 2;
  uint32_t dies_per_way = 1;
  uint32_t planes_per_die = 2;
  uint32_t blocks_per_plane = 2048;
  uint32_t pages_per_block = 128;
  uint32_t page_bytes = 4096;
  // Timing.
  double bus_ns_per_byte = 20.0;  // way switch delay = page_bytes * bus_ns_per_byte
  double t_read_us = 50.0;
  double t_prog_us = 900.0;
  double t_erase_us = 2000.0;
  // Cell type: bits per cell, so page types per wordline (slc 1, mlc 2, tlc 3, qlc 4). Page
  // p of a block has type p mod bits (LSB, CSB, MSB, TSB). Per-type array times, in that
  // order; empty: t_read_us / t_prog_us for every page.
  CellType cell_type = CellType::Slc;
  std::vector<double> t_read_by_page_type_us;
  std::vector<double> t_prog_by_page_type_us;
  // Array times of a block operated in SLC mode (one bit per cell: the SLC cache region,
  // ftl.slc_cache_blocks_per_plane); erases take t_erase_us.
  double t_read_slc_us = 30.0;
  double t_prog_slc_us = 200.0;
  // Program/erase suspend and resume (used when controller.suspend_for_reads).
  double t_suspend_us = 20.0;
  double t_resume_us = 20.0;
  // Cache program: the next page's data-in overlaps the current program (cache register).
  bool cache_program = false;
  // Multi-plane operations: one array time for pages on several planes of a die, at the
  // same page offset (and, if multiplane_same_block, the same block offset in each plane).
  bool multiplane = false;
  bool multiplane_same_block = false;
  // A die about to program alone waits up to this long for a program already sent for
  // another plane at the same page offset (0: never waits).
  double multiplane_wait_us = 0.0;
  // NAND die currents (per die) at voltage_v.
  double voltage_v = 3.3;
  double i_read_ma = 20.0;
  double i_prog_ma = 20.0;
  double i_erase_ma = 20.0;
  double i_transfer_ma = 20.0;  // die while its page register moves data over the bus
  // Die current during a multi-plane read / program / erase (all planes together).
  double i_read_multiplane_ma = 30.0;
  double i_prog_multiplane_ma = 30.0;
  double i_erase_multiplane_ma = 30.0;
  double i_idle_ma = 3.0;
  double i_off_ma = 0.0;
  // A read of a page's spare (out-of-band) area only: the array sense, then oob_bytes over the
  // bus, the die at i_oob_read_ma while it senses. Only the block FTL's replacement blocks
  // read spare areas (docs/ftl.md#block-mapping). Defaults: the page read's tR and current
  // (assumed: the die senses the whole page to read any part of it) and the 128 spare bytes
  // of a 4 KiB SLC page.
  double t_oob_read_us = 50.0;
  double i_oob_read_ma = 20.0;
  uint32_t oob_bytes = 128;
  // Channel bus current while a transfer holds it, at bus_voltage_v.
  double bus_voltage_v = 3.3;
  double i_bus_ma = 0.0;
  NandIdlePolicy idle_policy = NandIdlePolicy::AlwaysOn;
  DiePowerDownConfig die_power_down;

  uint32_t dies() const { return channels * ways_per_channel * dies_per_way; }
  uint32_t bits_per_cell() const;
  uint32_t blocks_per_die() const { return planes_per_die * blocks_per_plane; }
  uint64_t pages_per_die() const { return uint64_t(blocks_per_die()) * pages_per_block; }
  uint64_t total_pages() const { return pages_per_die() * dies(); }
  uint64_t raw_bytes() const { return total_pages() * page_bytes; }
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
  // Page-level FTLs on MLC/TLC/QLC: an SLC cache, the first slc_cache_blocks_per_plane
  // blocks of every plane operated in SLC mode (pages_per_block / bits per cell pages each,
  // flash.t_read_slc_us / t_prog_slc_us); 0: none. Host pages go there while it has room;
  // its blocks are folded into the main region (valid pages copied, block erased) oldest first
  // once the drive has idled slc_fold_idle_us, and with slc_fold "on_full" also when a
  // die's cache is full (else host pages then go straight to the main region).
  uint32_t slc_cache_blocks_per_plane = 0;
  SlcFold slc_fold = SlcFold::Idle;
  double slc_fold_idle_us = 1000.0;
  // Build the drive with the smallest part of dram.parts that holds the FTL's mapping table
  // and the write buffer (its size, currents and access time replace dram.size_mb,
  // i_active_ma, i_idle_ma and t_access_ns).
  bool size_dram_from_table = false;
};

// One input rail of the drive (5 V for SATA; 3.3 V and 12 V for PCIe cards and U.2). The
// board (PHY, oscillators, regulators' quiescent current, leakage) draws i_baseline_ma from it
// whenever the drive is powered.
// The integrated lifetime manager (Lee et al.; docs/lifetime.md): deduplication and compression
// units on the controller, write throttling, and the epoch manager that chooses among them so
// the drive lasts its warranty. Off unless mode names one.
struct LifetimeConfig {
  LifetimeMode mode = LifetimeMode::Off;
  double epoch_s = 300.0;       // the manager decides once an epoch (5 minutes)
  double warranty_years = 5.0;  // the lifetime the manager aims at
  uint32_t pe_cycles = 3000;    // P/E cycles a block endures (2-bit MLC)
  uint32_t chunk_pages = 4;     // pages compressed together (no padding waste)
  double t_compress_us = 64.0;  // compression unit, per page
  double p_compress_mw = 60.0;
  double t_decompress_us = 64.0;  // decompression, per page read (assumed = compression)
  double t_hash_us = 8.6;         // deduplication hash unit, per page
  double p_hash_mw = 49.0;
  double t_write_us = 600.0;  // a page write through the flash controller, for the
  double p_write_mw = 48.5;   // manager's energy ratios

  bool enabled() const { return mode != LifetimeMode::Off; }
};

struct RailConfig {
  std::string name = "5v";
  double voltage_v = 5.0;
  double i_baseline_ma = 0.0;
};

// How a group of components is fed: from `rail` through a regulator of `efficiency`, so it
// draws its power / efficiency from the rail.
struct RegulatorConfig {
  std::string rail = "5v";
  double efficiency = 1.0;
  // Rail: the group's currents are the rail's current (I x V_rail; the regulator's loss is in
  // the measurement, so efficiency must be 1).
  CurrentsAt currents_at = CurrentsAt::Supply;
};

// One regulator per energy group (the groups of docs/energy-model.md).
struct RegulatorsConfig {
  RegulatorConfig host_interface, controller, dram, channel, nand;

  std::array<std::pair<const char*, const RegulatorConfig*>, 5> by_group() const {
    return {{{"host_interface", &host_interface},
             {"controller", &controller},
             {"dram", &dram},
             {"channel", &channel},
             {"nand", &nand}}};
  }
};

struct PowerConfig {
  // The first rail is the main one: drive-level currents (peak_current_ma, the current
  // histogram, drive_total_ma) are the drive's power at its voltage.
  std::vector<RailConfig> rails = {RailConfig{}};
  RegulatorsConfig regulators;
  double window_us = 10000.0;                   // energy time-series window
  std::vector<double> peak_windows_us = {1.0};  // power-analyser averaging windows
  std::vector<double> current_levels_ma;        // band edges of the drive-current histogram

  double drive_voltage_v() const { return rails.front().voltage_v; }
  // Index of the rail called `name`; rails.size() if none is.
  std::size_t rail_index(const std::string& name) const;
};

// A cap on the drive's supply (docs/thermal.md#peak-power-budget): a flash operation starts
// only if the drive's worst case with it stays within the cap; otherwise it waits.
struct PowerBudgetConfig {
  bool enabled = false;
  double max_power_w = 0;     // drive power at the rails; 0: not set
  double max_current_ma = 0;  // drive current at the main rail; 0: not set (one of the two)
};

// One lumped thermal node: resistance to ambient and heat capacity (docs/thermal.md).
struct ThermalNodeConfig {
  double r_k_per_w = 10.0;
  double c_j_per_k = 1.0;
};

// What the firmware does above thermal.throttle.t_on_c until below t_off_c.
struct ThrottleConfig {
  ThrottleAction action = ThrottleAction::None;  // none: no protection
  double t_on_c = 87.0;
  double t_off_c = 82.0;
  double max_power_w = 0;        // power_budget: the drive power cap while throttled
  uint32_t max_active_dies = 1;  // dies: die operations at once while throttled
};

// Lumped RC thermal model (docs/thermal.md): ambient, a controller node, NAND nodes.
struct ThermalConfig {
  bool enabled = false;
  double ambient_c = 25.0;
  NandNodes nand_nodes = NandNodes::One;
  ThermalNodeConfig controller, nand;  // nand: per node (per channel's packages, or all)
  double sample_us = 1000.0;           // the firmware's temperature sensor period
  ThrottleConfig throttle;
};

// The SLC cache region (ftl.slc_cache_blocks_per_plane): the first blocks of every plane.
struct SlcRegion {
  uint32_t blocks_per_plane = 1;
  uint32_t blocks_in_plane = 0;  // 0: no SLC cache
  uint32_t pages_per_block = 0;  // in SLC mode: a native block's pages / bits per cell
  // Whether the block (numbered within its die) lies in the region.
  bool contains(uint32_t block) const { return block % blocks_per_plane < blocks_in_plane; }
};

struct DriveConfig {
  std::string name;
  std::string description;
  std::vector<std::string> sources;  // where the figures come from
  HostConfig host;
  ControllerConfig controller;
  DramConfig dram;
  FlashConfig flash;
  FtlConfig ftl;
  PowerConfig power;
  PowerBudgetConfig power_budget;
  ThermalConfig thermal;
  LifetimeConfig lifetime;

  // Host-visible capacity: whole pages left after over-provisioning.
  uint64_t logical_pages() const;
  SlcRegion slc_region() const {
    return {flash.blocks_per_plane, ftl.slc_cache_blocks_per_plane,
            flash.pages_per_block / flash.bits_per_cell()};
  }
  uint64_t logical_bytes() const { return logical_pages() * flash.page_bytes; }
  // The mapping unit (ftl.mapping_unit_bytes, or the page) and how many a page holds.
  uint32_t unit_bytes() const {
    return ftl.mapping_unit_bytes != 0 ? ftl.mapping_unit_bytes : flash.page_bytes;
  }
  uint32_t units_per_page() const { return flash.page_bytes / unit_bytes(); }
  uint64_t logical_units() const { return logical_pages() * units_per_page(); }
  // Whether the firmware reads pages' spare areas (the block FTL's replacement blocks): the
  // dies then have a spare-read state (flash.t_oob_read_us, i_oob_read_ma).
  bool reads_spare_areas() const {
    return ftl.type == FtlType::Block && ftl.block_update == BlockUpdate::Replacement;
  }
};

// The most mapping units a flash page holds (a 64 KiB page of 4 KiB units).
inline constexpr uint32_t kMaxUnitsPerPage = 16;

// Parses and validates; throws ssd::ConfigError whose message starts with
// "<origin>: <key.path>: " (origin is the file name, or what the caller passes).
DriveConfig parse_drive_config(const nlohmann::json& doc, const std::string& origin);
// The file's JSON, unvalidated (missing file, bad JSON with line/column: ConfigError).
nlohmann::json read_config_json(const std::string& path);
// Reads the file (read_config_json, then parse_drive_config).
DriveConfig load_drive_config(const std::string& path);
// The effective config with every default resolved; parse_drive_config(to_json(c)) == c.
nlohmann::ordered_json to_json(const DriveConfig& cfg);
// Every key a config may hold, as dotted paths in field-table order ("flash.t_prog_us"; a list's
// items as "power.rails[i].name"); docs/config.md documents each (ConfigDocsTest).
std::vector<std::string> config_keys();

// The config the model's components are built from: each group whose currents are measured at
// its rail (currents_at rail) gets that rail's voltage as its supply voltage, so every power,
// energy and attribution figure is I x V_rail.
DriveConfig referred_to_rails(const DriveConfig& cfg);

}  // namespace ssd::config
