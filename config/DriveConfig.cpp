#include "config/DriveConfig.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "common/Errors.h"
#include "config/ModelMemory.h"
#include "config/json/JsonFile.h"
#include "config/json/KeyDescriber.h"
#include "config/json/ObjectReader.h"
#include "config/json/ObjectWriter.h"

namespace ssd::config {
namespace {

// Over-provisioning is applied in millionths (rounded to nearest), so capacities are exact
// integers whatever the binary rounding of the fraction: 0.1 becomes exactly 100000 ppm, where
// the double 0.1 would make 10 x 0.9 come out just below 9.
constexpr uint64_t kPpm = 1000000;
uint64_t to_ppm(double fraction) { return static_cast<uint64_t>(std::llround(fraction * kPpm)); }
// floor(n * ppm / 1e6); exact for n below 2^44 (a validated drive has fewer than 2^32 pages).
uint64_t scale_floor(uint64_t n, uint64_t ppm) { return n * ppm / kPpm; }

// The whole drive's field table: its sections' (config/*Config.h) under their keys.
template <class Drive, class V>
void visit_drive(Drive& d, V& v) {
  v("name", d.name, Presence::kRequired);
  v("description", d.description);
  v("sources", d.sources);
  v.ignored("notes");
  v.section("host", d.host, [](auto& s, auto& sv) { visit_host(s, sv); });
  v.section("controller", d.controller, [](auto& s, auto& sv) { visit_controller(s, sv); });
  v.section("dram", d.dram, [](auto& s, auto& sv) { visit_dram(s, sv); });
  v.section("flash", d.flash, [](auto& s, auto& sv) { visit_flash(s, sv); });
  v.section("ftl", d.ftl, [](auto& s, auto& sv) { visit_ftl(s, sv); });
  v.section("power", d.power, [](auto& s, auto& sv) { visit_power(s, sv); });
  v.section("power_budget", d.power_budget, [](auto& s, auto& sv) { visit_power_budget(s, sv); });
  v.section("thermal", d.thermal, [](auto& s, auto& sv) { visit_thermal(s, sv); });
  v.section("lifetime", d.lifetime, [](auto& s, auto& sv) { visit_lifetime(s, sv); });
  v.list("namespaces", d.namespaces, 0, [](auto& n, auto& nv) { visit_namespace(n, nv); });
}

// The mapping unit against the page and the FTL: the first rule it breaks.
void validate_mapping_unit(const DriveConfig& c, Problems& problems) {
  const FlashConfig& f = c.flash;
  const uint32_t unit = c.ftl.mapping_unit_bytes;
  if (unit == 0) return;
  const std::string page = std::to_string(f.page_bytes);
  std::string why;
  if (unit % 512 != 0 || f.page_bytes % unit != 0)
    why = "must be a multiple of 512 that divides flash.page_bytes (" + page + "), got " +
          std::to_string(unit);
  else if (f.page_bytes / unit > kMaxUnitsPerPage)
    why = "a " + page + "-byte page would hold more than " + std::to_string(kMaxUnitsPerPage) +
          " units of " + std::to_string(unit) + " bytes";
  else if (f.total_pages() * (f.page_bytes / unit) > kMaxPages)
    why = "the drive's pages hold more units than the 32-bit address space (at most " +
          std::to_string(kMaxPages) + ")";
  // Units smaller than a page are packed by the page-level FTLs' allocation; the block and
  // log-block FTLs map whole pages (or blocks) (docs/ftl.md#mapping-units).
  else if (unit < f.page_bytes && c.ftl.type != FtlType::Page && c.ftl.type != FtlType::Dftl)
    why = "units smaller than the page (" + page + " bytes) need ftl.type page or dftl";
  if (!why.empty()) problems.add("ftl.mapping_unit_bytes", why);
}

// Every component at its highest current together stays within what the sums can hold.
void validate_peak_power(const DriveConfig& c, Problems& problems) {
  const FlashConfig& f = c.flash;
  // In W: mA x V / 1000. The DRAM may be any part of the catalogue.
  double dram_ma =
      std::max({c.dram.i_active_ma, c.dram.i_idle_ma, c.dram.self_refresh.i_self_refresh_ma});
  for (const DramPart& p : c.dram.parts) dram_ma = std::max({dram_ma, p.i_active_ma, p.i_idle_ma});
  const double flash_ma =
      std::max({f.i_read_ma, f.i_prog_ma, f.i_erase_ma, f.i_transfer_ma, f.i_idle_ma, f.i_off_ma,
                f.i_read_multiplane_ma, f.i_prog_multiplane_ma, f.i_erase_multiplane_ma,
                f.i_prog_word_line_ma, f.i_prog_word_line_multiplane_ma});
  double host_ma = std::max(c.host.i_transfer_ma, c.host.i_idle_ma);
  for (const LinkStateConfig& l : c.host.link_states)
    host_ma = std::max(host_ma, l.p_mw / c.host.voltage_v);
  const RegulatorsConfig& reg = c.power.regulators;
  double baseline_mw = 0;
  for (const RailConfig& r : c.power.rails) baseline_mw += r.voltage_v * r.i_baseline_ma;
  const DriveConfig at = referred_to_rails(c);  // the voltages the currents are drawn at
  const double max_power_w =
      (at.host.voltage_v * host_ma / reg.host_interface.efficiency +
       at.controller.voltage_v * std::max(c.controller.i_active_ma, c.controller.i_idle_ma) /
           reg.controller.efficiency +
       at.dram.voltage_v * dram_ma / reg.dram.efficiency +
       double(f.dies()) * at.flash.voltage_v * flash_ma / reg.nand.efficiency +
       double(f.channels) * at.flash.bus_voltage_v * f.i_bus_ma / reg.channel.efficiency +
       baseline_mw) /
      1000;
  if (max_power_w > kMaxDrivePowerW) {
    problems.add("(voltages and currents)",
                 "with every component at its highest current the drive would draw " +
                     format_number(max_power_w) + " W; at most " + format_number(kMaxDrivePowerW) +
                     " W can be modelled (the power sums are integer nanowatts)");
  }
}

// What each FTL takes of the rest of the drive: LAST's log blocks, the SLC cache's cells, the
// lifetime manager's FTL, the DRAM the write buffer and the table sizing need.
void validate_ftl_and_drive(const DriveConfig& c, Problems& problems) {
  const FlashConfig& f = c.flash;
  const FtlConfig& ftl = c.ftl;
  // LAST's sequential log blocks come out of each die's blocks, with its random ones.
  if (ftl.type == FtlType::Last && ftl.last_seq_log_blocks >= f.blocks_per_die()) {
    problems.add("ftl.last_seq_log_blocks",
                 "must be less than the " + std::to_string(f.blocks_per_die()) +
                     " blocks per die, got " + std::to_string(ftl.last_seq_log_blocks));
  }
  if (c.dram.write_buffer_mb > 0 && (c.dram.write_buffer_mb << 20) < f.page_bytes)
    problems.add("dram.write_buffer_mb", "holds less than one flash page");
  if (ftl.size_dram_from_table && c.dram.parts.empty())
    problems.add("ftl.size_dram_from_table", "needs at least one part in dram.parts");
  // The refresh estimates errors from the NAND's characterisation: without it, none arise.
  if (ftl.read_refresh.enabled && !f.reliability.enabled)
    problems.add("ftl.read_refresh.enabled", "needs flash.reliability.enabled (aging NAND)");
  if (f.reliability.enabled && f.reliability.run_temperature == RunTemperature::Die &&
      !c.thermal.enabled)
    problems.add("flash.reliability.run_temperature",
                 "\"die\" needs thermal.enabled (the thermal model's NAND temperature)");
  // The block-mapped FTLs retire blocks whose erase or a program failed.
  if (ftl.type != FtlType::Page && ftl.type != FtlType::Dftl) {
    // A replacement block's pages, and a data block's never written, are skipped, not padded:
    // a failed program's block could not be copied page for page.
    if (f.faults.program_fail_probability > 0 && ftl.type == FtlType::Block &&
        ftl.block_update == BlockUpdate::Replacement)
      problems.add("flash.faults.program_fail_probability",
                   "not with ftl.block_update replacement (its blocks skip pages, so a failed "
                   "program's block cannot be copied page for page)");
    // A logical block lives on its die: a die out of room leaves no other die its data.
    if (f.faults.erase_fail_probability > 0 && f.faults.die_out_of_room == DieOutOfRoom::OtherDies)
      problems.add("flash.faults.die_out_of_room",
                   std::string("other_dies needs ftl.type page or dftl (the ") +
                       to_string(ftl.type) + " FTL keeps each logical block on its die)");
  }
  if (f.faults.dead_die_at_ms > 0) {
    if (f.faults.dead_die >= f.dies())
      problems.add("flash.faults.dead_die", "must be a die of the drive (below its " +
                                                std::to_string(f.dies()) + " dies), got " +
                                                std::to_string(f.faults.dead_die));
    if (f.dies() < 2)
      problems.add("flash.faults.dead_die_at_ms", "needs a drive of at least two dies");
    if (c.lifetime.enabled())
      problems.add("flash.faults.dead_die_at_ms",
                   "not with lifetime.mode (its own mapping above the FTL's is not told the "
                   "units lost)");
  }
  // The manager keeps its own level of mapping above a page-mapped FTL and handles whole host
  // commands; pages in a write buffer would reach it without their content.
  if (c.lifetime.enabled() && ftl.type != FtlType::Page && ftl.type != FtlType::Dftl)
    problems.add("lifetime.mode", "needs ftl.type page or dftl");
  // The lifetime manager's slots hold deduplicated data shared by writes of any handle.
  if (c.lifetime.enabled() && ftl.fdp.enabled)
    problems.add("ftl.fdp.enabled", "not with the lifetime manager (lifetime.mode " +
                                        std::string(to_string(c.lifetime.mode)) +
                                        "): its pages hold data several writes share");
  if (c.lifetime.enabled() && c.power.hold_up.loss_at_ms > 0)
    problems.add("power.hold_up.loss_at_ms",
                 "not with lifetime.mode (what its units' buffer holds at a loss of the supply is "
                 "not modelled)");
  if (c.lifetime.enabled() && c.dram.write_buffer_mb != 0)
    problems.add("lifetime.mode", "needs dram.write_buffer_mb 0 (no write buffer)");
  // One-shot programming: a word line's pages wait in the write buffer for one another, a read
  // of one not yet programmed is served from the controller buffer (block order nand), and the
  // page-level FTLs fill word lines (padding one only when its data must be durable).
  if (f.program_unit == ProgramUnit::WordLine) {
    if (ftl.type != FtlType::Page && ftl.type != FtlType::Dftl)
      problems.add("flash.program_unit", "word_line needs ftl.type page or dftl");
    if (c.dram.write_buffer_mb == 0)
      problems.add("flash.program_unit", "word_line needs a write buffer (dram.write_buffer_mb)");
    if (c.controller.block_order != BlockOrder::Nand)
      problems.add("flash.program_unit", "word_line needs controller.block_order nand");
    // In-order issue waits for a channel whose free die holds a queued command: a word line
    // waiting for its last pages would hold the channel against them.
    if (c.controller.issue_order != IssueOrder::PerDieQueues)
      problems.add("flash.program_unit", "word_line needs controller.issue_order per_die_queues");
  }
  // The hardware looks a read up in the DRAM mapping table and sends it: DFTL's misses (a
  // translation page from flash), the block-mapping FTLs' spare-area reads and the lifetime
  // manager's decompression are firmware work.
  if (c.controller.hw_read_path.enabled && ftl.type != FtlType::Page)
    problems.add("controller.hw_read_path.enabled", "needs ftl.type page");
  if (c.controller.hw_read_path.enabled && c.lifetime.enabled())
    problems.add("controller.hw_read_path.enabled", "needs lifetime.mode off");
  // It sends its reads without waiting: in-order issue waits for a channel's bus.
  if (c.controller.hw_read_path.enabled && c.controller.issue_order == IssueOrder::InOrder)
    problems.add("controller.hw_read_path.enabled", "needs controller.issue_order per_die_queues");
  // In-order issue holds the firmware thread until its core's turn on the bus: the one core
  // of the founding study's controller, whose figures it keeps.
  if (c.controller.cores.size() > 1 && c.controller.issue_order == IssueOrder::InOrder)
    problems.add("controller.cores", "several cores need controller.issue_order per_die_queues");
  if (ftl.slc_cache_blocks_per_plane != 0 || !ftl.slc_dynamic.empty()) {
    const char* key =
        ftl.slc_cache_blocks_per_plane != 0 ? "ftl.slc_cache_blocks_per_plane" : "ftl.slc_dynamic";
    if (f.bits_per_cell() == 1)
      problems.add(key, "an SLC cache needs flash.cell_type mlc, tlc or qlc");
    if (f.pages_per_block % f.bits_per_cell() != 0)
      problems.add(key, "flash.pages_per_block " + std::to_string(f.pages_per_block) +
                            " is not a whole number of " + to_string(f.cell_type) +
                            " word lines (" + std::to_string(f.bits_per_cell()) + " pages each)");
  }
}

void validate_gc_room(const DriveConfig& c, Problems& problems) {
  const FlashConfig& f = c.flash;
  const FtlConfig& ftl = c.ftl;
  // GC keeps gc_threshold_blocks free per die, plus the open host-write blocks (one, or one
  // per plane under plane_first and die_first), the block GC copies into and for dftl the
  // open translation block; all come out of the hidden blocks, and one block more: with no
  // more than these, a full die's open blocks can hold all its spare room unwritten and its
  // full blocks only valid data (preconditioning to steady state then fails on every FTL).
  const uint64_t spare = scale_floor(f.blocks_per_die(), to_ppm(ftl.overprovisioning));
  const uint64_t host_open = ftl.allocation == Allocation::ChannelFirst ? 1 : f.planes_per_die;
  // Flexible data placement: host blocks open for every handle, and GC's for every handle when
  // persistently isolated.
  const uint64_t handles = ftl.fdp.enabled ? ftl.fdp.handles : 1;
  const uint64_t gc_open =
      ftl.fdp.enabled && ftl.fdp.isolation == FdpIsolation::Persistently ? handles : 1;
  const uint64_t open = host_open * handles + gc_open + (ftl.type == FtlType::Dftl ? 1 : 0);
  const uint64_t slc = uint64_t(ftl.slc_cache_blocks_per_plane) * f.planes_per_die;
  const bool incremental = ftl.gc_mode == GcMode::Incremental;
  // Incremental collection keeps the die near the soft watermark: its free blocks too.
  const uint64_t kept = incremental ? ftl.gc_soft_blocks : ftl.gc_threshold_blocks;
  const uint64_t needed = kept + open + slc + 1;
  if (spare < needed) {
    std::string why;
    if (host_open > 1)
      why = "ftl.allocation " + std::string(to_string(ftl.allocation)) +
            " keeps a host block open on each of the " + std::to_string(host_open) + " planes";
    if (handles > 1)
      why += (why.empty() ? "" : "; ") + std::string("ftl.fdp.handles ") + std::to_string(handles) +
             " keep host blocks open for each handle" +
             (gc_open > 1 ? " and GC's (persistently_isolated)" : "");
    if (ftl.type == FtlType::Dftl)
      why += (why.empty() ? "" : "; ") + std::string("dftl keeps a translation block open too");
    if (slc != 0)
      why += (why.empty() ? "" : "; ") + std::string("the SLC cache takes ") + std::to_string(slc) +
             " blocks per die";
    why += (why.empty() ? "" : "; ") + std::string("one block of room for GC to reclaim");
    problems.add(
        "ftl.overprovisioning",
        format_number(ftl.overprovisioning) + " leaves " + std::to_string(spare) +
            " spare blocks per die (floor(" + std::to_string(f.blocks_per_die()) + " x " +
            format_number(ftl.overprovisioning) + ")); garbage collection needs at least " +
            (incremental ? "gc_soft_blocks" : "gc_threshold_blocks") + " + " +
            std::to_string(open + slc + 1) + " = " + std::to_string(needed) + " (" + why + ")");
  }
}

// A zoned namespace's logical block within the mapping unit. What it does without yet: bad blocks
// (its zones have no replacement of failed blocks), one-shot word lines, and the lifetime manager
// (which serves the FTL's writes only).
void validate_zoned_and_drive(const DriveConfig& c, Problems& problems) {
  for (std::size_t i = 0; i < c.namespaces.size(); ++i) {
    const NamespaceConfig& n = c.namespaces[i];
    const std::string path = "namespaces[" + std::to_string(i) + "]";
    if (n.kind != NamespaceKind::Zoned) continue;
    if (c.unit_bytes() % n.zones.lba_bytes != 0)
      problems.add(path + ".zones.lba_bytes",
                   "must divide the mapping unit (" + std::to_string(c.unit_bytes()) +
                       " bytes: ftl.mapping_unit_bytes or the page), got " +
                       std::to_string(n.zones.lba_bytes));
    else
      validate_host_translation(n, c.flash, c.unit_bytes(), path + ".host_translation", problems);
  }
  std::size_t zoned = 0;
  while (c.namespaces[zoned].kind != NamespaceKind::Zoned) ++zoned;
  const std::string key = "namespaces[" + std::to_string(zoned) + "].kind";
  if (c.flash.faults.any())
    problems.add(key,
                 "zoned namespaces do not take injected faults (flash.faults) yet: their "
                 "zones have no replacement of failed blocks");
  for (std::size_t i = 0; i < c.namespaces.size(); ++i)
    if (c.namespaces[i].zones.write_cache_bytes != 0 && c.power.hold_up.loss_at_ms > 0)
      problems.add("namespaces[" + std::to_string(i) + "].zones.write_cache_bytes",
                   "does not run with a loss of the supply (power.hold_up.loss_at_ms) yet: the "
                   "hold-up flush does not cover a zoned namespace's write cache");
  if (c.addressed_units() > kMaxPages)
    problems.add("namespaces", "the zoned namespaces' units reach unit " +
                                   std::to_string(c.addressed_units()) +
                                   " of the drive (they follow "
                                   "twice the FTL's flash); at most " +
                                   std::to_string(kMaxPages) +
                                   " (the 32-bit address space): fewer zones, or a larger unit");
  // The zones program a page as its units arrive; a one-shot word line's program waits for all
  // its pages, so a zone's last page could wait for pages no write brings.
  if (c.flash.program_unit == ProgramUnit::WordLine)
    problems.add(key,
                 "zoned namespaces do not run with flash.program_unit word_line yet: a "
                 "zone programs its pages one at a time");
  if (c.lifetime.enabled())
    problems.add(key, "zoned namespaces do not run with lifetime.mode " +
                          std::string(to_string(c.lifetime.mode)) +
                          " (the lifetime manager serves the FTL's writes only)");
}

// Each section's own rules, then those across sections. Every broken rule is a problem; a rule
// runs once the values it reads are sound.
void validate(const DriveConfig& c, Problems& problems) {
  validate(c.host, problems);
  validate(c.controller, problems);
  validate(c.dram, problems);
  validate(c.flash, problems);
  validate(c.ftl, problems);
  validate(c.power, problems);
  validate(c.power_budget, problems);
  validate(c.thermal, problems);
  // The geometry within the address space; every regulator's rail there.
  if (!problems.none_under({"flash"})) return;
  if (problems.none_under({"power"})) validate_peak_power(c, problems);
  validate_mapping_unit(c, problems);
  // The FTL keeps its SLC cache and one block of every plane at least; the rest of its rules
  // judge the flash the zoned namespaces leave it.
  validate_namespaces(c.namespaces, c.flash, c.ftl.slc_cache_blocks_per_plane + 1, problems);
  validate_namespace_placement(c.namespaces, c.placement_handles(), problems);
  if (!problems.none_under({"namespaces"})) {
    DriveConfig unzoned = c;
    unzoned.namespaces.clear();
    validate_ftl_and_drive(unzoned, problems);
    validate_gc_room(unzoned, problems);
    return;
  }
  validate_namespace_sizes(c.namespaces, c.flash.page_bytes, c.logical_bytes(), problems);
  if (c.has_zoned()) validate_zoned_and_drive(c, problems);
  const DriveConfig ftl = c.ftl_view();
  validate_ftl_and_drive(ftl, problems);
  // With every namespace zoned the FTL serves no host data: it never collects.
  if (c.allocated_bytes() != 0) validate_gc_room(ftl, problems);
  check_model_fits(c, problems, physical_memory_bytes());
}

}  // namespace

DriveConfig referred_to_rails(const DriveConfig& cfg) {
  DriveConfig out = cfg;
  const RegulatorsConfig& reg = cfg.power.regulators;
  const auto refer = [&](const RegulatorConfig& r, double& voltage_v) {
    if (r.currents_at == CurrentsAt::Rail)
      voltage_v = cfg.power.rails.at(cfg.power.rail_index(r.rail)).voltage_v;
  };
  refer(reg.host_interface, out.host.voltage_v);
  refer(reg.controller, out.controller.voltage_v);
  refer(reg.dram, out.dram.voltage_v);
  refer(reg.channel, out.flash.bus_voltage_v);
  refer(reg.nand, out.flash.voltage_v);
  return out;
}

// floor(total_pages * (1 - overprovisioning)) in integers: the fraction is taken in
// millionths, rounded to nearest, and the division rounds down to whole pages.
uint64_t DriveConfig::logical_pages() const {
  return scale_floor(ftl_flash().total_pages(), kPpm - to_ppm(ftl.overprovisioning));
}

bool DriveConfig::has_zoned() const {
  return std::any_of(namespaces.begin(), namespaces.end(),
                     [](const NamespaceConfig& n) { return n.kind == NamespaceKind::Zoned; });
}

DriveConfig DriveConfig::ftl_view() const {
  DriveConfig view = *this;
  view.flash = ftl_flash();
  view.namespaces.erase(
      std::remove_if(view.namespaces.begin(), view.namespaces.end(),
                     [](const NamespaceConfig& n) { return n.kind == NamespaceKind::Zoned; }),
      view.namespaces.end());
  return view;
}

uint64_t DriveConfig::write_buffer_units() const {
  // Units smaller than the page without a DRAM buffer are packed in the controller's SRAM: room
  // for four pages a die (docs/ftl.md#mapping-units).
  constexpr uint64_t kSramPagesPerDie = 4;
  if (dram.write_buffer_mb > 0) return (dram.write_buffer_mb << 20) / unit_bytes();
  if (units_per_page() > 1) return kSramPagesPerDie * flash.dies() * units_per_page();
  return 0;
}

uint64_t DriveConfig::addressed_units() const {
  uint64_t end = logical_bytes();
  for (const NamespaceRange& n : namespace_layout())
    end = std::max(end, n.first_byte + n.size_bytes);
  return end / unit_bytes();
}

uint64_t DriveConfig::allocated_bytes() const {
  uint64_t end = 0;
  for (const NamespaceRange& n : namespace_layout())
    if (n.kind == NamespaceKind::Conventional) end = std::max(end, n.first_byte + n.size_bytes);
  return end;
}

DriveConfig parse_drive_config(const nlohmann::json& doc, const std::string& origin) {
  DriveConfig cfg;
  Problems problems(origin);
  ObjectReader reader(doc, "", problems);
  visit_drive(cfg, reader);
  reader.reject_unvisited_keys();
  // The rules judge values: only once every one was read.
  problems.raise();
  validate(cfg, problems);
  problems.raise();
  return cfg;
}

nlohmann::json read_config_json(const std::string& path) {
  return read_json_file<ConfigError>(path);
}

DriveConfig load_drive_config(const std::string& path) {
  return parse_drive_config(read_config_json(path), path);
}

nlohmann::ordered_json to_json(const DriveConfig& cfg) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  ObjectWriter writer(out);
  visit_drive(cfg, writer);
  return out;
}

nlohmann::ordered_json config_key_table() {
  nlohmann::ordered_json table = nlohmann::ordered_json::array();
  KeyDescriber describer(table, "");
  const DriveConfig defaults;
  visit_drive(defaults, describer);
  return table;
}

std::vector<std::string> config_keys() {
  std::vector<std::string> keys;
  for (const auto& entry : config_key_table()) keys.push_back(entry["key"].get<std::string>());
  return keys;
}

}  // namespace ssd::config
