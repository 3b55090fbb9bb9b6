#pragma once
// The NAND flash (flash): geometry, array and bus timing, cell type, multi-plane and cache
// operations, currents and die power-down. The struct, its field table (keys, members, ranges:
// read, written and listed by config/json/) and its own rules; rules across sections are
// DriveConfig's. docs/config.md documents each key.
#include <cstdint>
#include <string>
#include <vector>

#include "config/Choices.h"
#include "config/FaultConfig.h"
#include "config/ReliabilityConfig.h"
#include "config/json/Bounds.h"
#include "config/json/Problems.h"

namespace ssd::config {

// Page numbers are 32-bit in the firmware; the all-ones value is reserved as "no page".
inline constexpr uint64_t kMaxPages = 0xffffffffULL - 1;

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
  // One-shot programming (program_unit word_line): a native-mode program takes every page of
  // its word line at once, their data moved in first, in one array time of
  // t_prog_word_line_us (bits_per_cell pages; on every plane of a multi-plane set). SLC-mode
  // blocks (one page a word line) program page by page.
  ProgramUnit program_unit = ProgramUnit::Page;
  double t_prog_word_line_us = 2000.0;
  // Die current during a word line's program (one plane), and a multi-plane set's.
  double i_prog_word_line_ma = 20.0;
  double i_prog_word_line_multiplane_ma = 30.0;
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
  // Independent plane reads (asynchronous independent plane read, as 3D NAND parts offer):
  // reads to different planes of a die each start their own array time, whatever their page
  // offsets, up to independent_reads_max planes sensing at once (0: every plane). Programs and
  // erases still take the whole die. The die draws i_read_multiplane_ma while 2 or more planes
  // sense.
  bool independent_plane_reads = false;
  uint32_t independent_reads_max = 0;
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
  ReliabilityConfig reliability;
  FaultConfig faults;

  uint32_t dies() const { return channels * ways_per_channel * dies_per_way; }
  uint32_t bits_per_cell() const;
  // Pages one program of a native-mode block writes: 1, or a word line's (one-shot).
  uint32_t program_pages() const {
    return program_unit == ProgramUnit::WordLine ? bits_per_cell() : 1;
  }
  uint32_t blocks_per_die() const { return planes_per_die * blocks_per_plane; }
  uint64_t pages_per_die() const { return uint64_t(blocks_per_die()) * pages_per_block; }
  uint64_t total_pages() const { return pages_per_die() * dies(); }
  uint64_t raw_bytes() const { return total_pages() * page_bytes; }
};

// The field table: the visitor (config/json/) is called once per key, in the order configs
// write them.
template <class Flash, class V>
void visit_flash(Flash& f, V& v) {
  v("channels", f.channels, at_least(1));
  v("ways_per_channel", f.ways_per_channel, at_least(1));
  v("dies_per_way", f.dies_per_way, at_least(1));
  v("planes_per_die", f.planes_per_die, at_least(1));
  v("blocks_per_plane", f.blocks_per_plane, at_least(1));
  v("pages_per_block", f.pages_per_block, at_least(2));
  v("page_bytes", f.page_bytes, between(512, 1 << 20));  // multiple of 512: checked in validate()
  v("bus_ns_per_byte", f.bus_ns_per_byte, positive_up_to(1e6));
  v("t_read_us", f.t_read_us, kPositiveStepTime);
  v("t_prog_us", f.t_prog_us, kPositiveStepTime);
  v("t_erase_us", f.t_erase_us, kPositiveStepTime);
  v("voltage_v", f.voltage_v, kVoltage);
  v("i_read_ma", f.i_read_ma, kCurrent);
  v("i_prog_ma", f.i_prog_ma, kCurrent);
  v("i_erase_ma", f.i_erase_ma, kCurrent);
  v("i_transfer_ma", f.i_transfer_ma, kCurrent);
  v("i_idle_ma", f.i_idle_ma, kCurrent);
  v("i_off_ma", f.i_off_ma, kCurrent);
  v("t_oob_read_us", f.t_oob_read_us, kPositiveStepTime);
  v("i_oob_read_ma", f.i_oob_read_ma, kCurrent);
  v("oob_bytes", f.oob_bytes, between(1, 1 << 16));
  v("bus_voltage_v", f.bus_voltage_v, kVoltage);
  v("i_bus_ma", f.i_bus_ma, kCurrent);
  v("idle_policy", f.idle_policy);
  v("cell_type", f.cell_type);
  v("t_read_by_page_type_us", f.t_read_by_page_type_us, kPositiveStepTime);
  v("t_prog_by_page_type_us", f.t_prog_by_page_type_us, kPositiveStepTime);
  v("t_read_slc_us", f.t_read_slc_us, kPositiveStepTime);
  v("t_prog_slc_us", f.t_prog_slc_us, kPositiveStepTime);
  v("program_unit", f.program_unit);
  v("t_prog_word_line_us", f.t_prog_word_line_us, kPositiveStepTime);
  v("i_prog_word_line_ma", f.i_prog_word_line_ma, kCurrent);
  v("i_prog_word_line_multiplane_ma", f.i_prog_word_line_multiplane_ma, kCurrent);
  v("t_suspend_us", f.t_suspend_us, kStepTime);
  v("t_resume_us", f.t_resume_us, kStepTime);
  v("cache_program", f.cache_program);
  v("multiplane", f.multiplane);
  v("multiplane_same_block", f.multiplane_same_block);
  v("multiplane_wait_us", f.multiplane_wait_us, kStepTime);
  v("independent_plane_reads", f.independent_plane_reads);
  v("independent_reads_max", f.independent_reads_max, between(0, 64));  // 2..planes: validate()
  v("i_read_multiplane_ma", f.i_read_multiplane_ma, kCurrent);
  v("i_prog_multiplane_ma", f.i_prog_multiplane_ma, kCurrent);
  v("i_erase_multiplane_ma", f.i_erase_multiplane_ma, kCurrent);
  v.section("die_power_down", f.die_power_down, [](auto& s, auto& sv) {
    sv("enabled", s.enabled);
    sv("scope", s.scope);
    sv("idle_us", s.idle_us, kIdleTime);  // positive when enabled: validate()
    sv("t_wake_us", s.t_wake_us, kStepTime);
  });
  v.section("reliability", f.reliability, [](auto& s, auto& sv) { visit_reliability(s, sv); });
  v.section("faults", f.faults, [](auto& s, auto& sv) { visit_faults(s, sv); });
}

// The rules that involve more than one field of the section: each broken one is added to
// `problems`, naming its key.
void validate(const FlashConfig& section, Problems& problems);

}  // namespace ssd::config
