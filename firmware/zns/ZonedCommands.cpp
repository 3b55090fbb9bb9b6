#include "firmware/zns/ZonedCommands.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "firmware/Firmware.h"

namespace ssd::fw::zns {

ZonedCommands::ZonedCommands(const config::DriveConfig& cfg, Hal& hal)
    : hal_(hal),
      unit_bytes_(cfg.unit_bytes()),
      t_page_(cfg.controller.fw_per_page_us(), sc_core::SC_US) {
  const std::vector<config::NamespaceRange> layout = cfg.namespace_layout();
  uint32_t first_block = cfg.ftl_flash().blocks_per_plane;  // the zoned bands follow the FTL's
  for (std::size_t i = 0; i < cfg.namespaces.size(); ++i) {
    const config::NamespaceConfig& n = cfg.namespaces[i];
    if (n.kind != config::NamespaceKind::Zoned) continue;
    Space s;
    s.first_byte = layout[i].first_byte;
    s.size_bytes = layout[i].size_bytes;
    s.lba_bytes = n.zones.lba_bytes;
    s.cache_pages = n.zones.write_cache_bytes / cfg.flash.page_bytes;
    s.first_lpn = s.first_byte / unit_bytes_;
    s.mapping = std::make_unique<ZoneMapping>(n.zones, cfg.flash, unit_bytes_, first_block);
    s.ns = std::make_unique<ZonedNamespace>(*s.mapping, cfg.flash, hal, n.zones.count,
                                            n.zones.lba_bytes, s.first_lpn);
    first_block += uint32_t(config::zone_geometry(n.zones, cfg.flash).blocks_per_plane);
    spaces_.push_back(std::move(s));
  }
  ZonedCommandStats& c = stats_;
  // A figure of the zones' flash side, summed over the namespaces.
  const auto flash = [this](uint64_t ZoneFlashStats::*field) {
    return [this, field] {
      return sum([field](const ZonedNamespace& n) { return n.flash().stats().*field; });
    };
  };
  statistics_.group("zoned")
      .counter("reads", StatUnit::Commands, "Reads of zoned namespaces served.", c.reads)
      .counter("writes", StatUnit::Commands, "Writes at zones' write pointers served.", c.writes)
      .counter("appends", StatUnit::Commands, "Zone appends served.", c.appends)
      .counter("zone_actions", StatUnit::Commands,
               "Zone management actions served (open, close, finish, reset, offline).",
               c.zone_actions)
      .counter("zone_reports", StatUnit::Commands, "Report Zones commands served.", c.zone_reports)
      .counter("refused", StatUnit::Commands,
               "Commands refused: the zone state machine's refusals, trims, partial blocks.",
               c.refused)
      .counter("cache_waits", StatUnit::Commands,
               "Writes acknowledged only once older data in the write cache was programmed "
               "(zones.write_cache_bytes full).",
               c.cache_waits)
      .derived("units_written", StatUnit::Units, "Units the zones took, in the buffer or on flash.",
               flash(&ZoneFlashStats::units_written))
      .derived("pages_programmed", StatUnit::Pages, "Pages the zones programmed, data or padding.",
               flash(&ZoneFlashStats::pages_programmed))
      .derived("units_padded", StatUnit::Units,
               "Unit slots finished zones programmed without data.",
               flash(&ZoneFlashStats::units_padded))
      .derived("blocks_erased", StatUnit::Blocks, "Blocks zone resets erased.",
               flash(&ZoneFlashStats::blocks_erased))
      .derived(
          "zones_filled", StatUnit::None, "Zones made full by writes reaching their capacity.",
          [this] { return sum([](const ZonedNamespace& n) { return n.zones().counts().filled; }); })
      .derived("zones_reset", StatUnit::None, "Zones made empty by reset actions.",
               [this] { return double(zones_reset()); })
      .derived("open_zones", StatUnit::None, "Zones open at the end of the run.",
               [this] { return double(open_zones()); });
}

void ZonedCommands::acknowledge(Space& s, const std::vector<OpId>& programs, Completion& done) {
  if (s.cache_pages == 0) {
    done.ops.insert(done.ops.end(), programs.begin(), programs.end());
    return;
  }
  // The cache frees in the order it was written: what the flash holds by now leaves it, and past
  // its capacity the write waits for the oldest programs.
  while (!s.cached.empty() && hal_.ended_by_now(s.cached.front())) s.cached.pop_front();
  s.cached.insert(s.cached.end(), programs.begin(), programs.end());
  if (s.cached.size() <= s.cache_pages) return;
  ++stats_.cache_waits;
  while (s.cached.size() > s.cache_pages) {
    done.ops.push_back(s.cached.front());
    s.cached.pop_front();
  }
}

uint32_t ZonedCommands::open_zones() const {
  return uint32_t(*sum([](const ZonedNamespace& n) { return n.zones().open_zones(); }));
}

uint64_t ZonedCommands::zones_reset() const {
  return uint64_t(*sum([](const ZonedNamespace& n) { return n.zones().counts().resets; }));
}

ZonedCommands::Space& ZonedCommands::space_of(uint64_t offset_bytes) {
  for (Space& s : spaces_)
    if (offset_bytes - s.first_byte < s.size_bytes) return s;
  throw std::logic_error("zoned namespaces: byte " + std::to_string(offset_bytes) +
                         " lies in none");
}

void ZonedCommands::refuse(ZoneStatus status, Completion& done) {
  ++stats_.refused;
  done.failed = true;
  done.status = uint16_t(status);
}

void ZonedCommands::execute(const HostCommand& cmd, Completion& done,
                            std::vector<PageToken>* read_data) {
  Space& s = space_of(cmd.offset_bytes);
  if (cmd.op == CommandOp::ZoneManage) {
    manage(s, cmd, done);
    return;
  }
  if (cmd.op == CommandOp::ZoneReport) {
    report(s, cmd, done);
    return;
  }
  const uint64_t offset = cmd.offset_bytes - s.first_byte;
  // Zoned commands address whole logical blocks; a trim frees nothing (zones are reset).
  if (cmd.op == CommandOp::Trim || cmd.length_bytes == 0 || offset % s.lba_bytes != 0 ||
      cmd.length_bytes % s.lba_bytes != 0) {
    refuse(ZoneStatus::InvalidField, done);
    return;
  }
  const uint64_t lba = offset / s.lba_bytes;
  const uint64_t blocks = cmd.length_bytes / s.lba_bytes;
  // The firmware's step per unit covered, as for a conventional namespace's (no mapping look-up:
  // a zone's units lie where its write pointer put them).
  hal_.ftl_work(cmd.offset_bytes / unit_bytes_);
  const uint64_t units =
      (cmd.offset_bytes + cmd.length_bytes - 1) / unit_bytes_ - cmd.offset_bytes / unit_bytes_ + 1;
  hal_.compute(t_page_ * double(units));
  if (cmd.op == CommandOp::Write || cmd.op == CommandOp::Append) {
    // The pages a write completes are programmed once all its data is in the buffer.
    hal_.program_data_at(hal_.host_data_at(cmd.length_bytes));
    const bool append = cmd.op == CommandOp::Append;
    const ZonedWrite w =
        append ? s.ns->append(lba, blocks, cmd.version) : s.ns->write(lba, blocks, cmd.version);
    if (!w.outcome.ok()) {
      refuse(w.outcome.status, done);
      return;
    }
    ++(append ? stats_.appends : stats_.writes);
    if (append) done.appended_lba = w.outcome.lba;
    acknowledge(s, w.programs, done);
    done.at = hal_.host_data_at(cmd.length_bytes);
    return;
  }
  const ZonedRead r = s.ns->read(lba, blocks);
  if (r.status != ZoneStatus::Success) {
    refuse(r.status, done);
    return;
  }
  for (const ZonedUnitRead& u : r.units) {
    if (u.op != kNoOp) done.ops.push_back(u.op);
    if (read_data) read_data->push_back(u.written ? u.data : PageToken{s.first_lpn + u.unit, 0});
  }
  ++stats_.reads;
}

void ZonedCommands::manage(Space& s, const HostCommand& cmd, Completion& done) {
  const uint64_t offset = cmd.offset_bytes - s.first_byte;
  if (!cmd.select_all && offset % s.lba_bytes != 0) {
    refuse(ZoneStatus::InvalidField, done);
    return;
  }
  hal_.ftl_work(cmd.select_all ? Hal::kAllUnits : cmd.offset_bytes / unit_bytes_);
  const ZonedManage m = cmd.select_all ? s.ns->manage_all(cmd.zone_action)
                                       : s.ns->manage(offset / s.lba_bytes, cmd.zone_action);
  // The firmware's step per zone descriptor it changed.
  hal_.compute(t_page_ * double(m.changed.size()));
  if (!m.outcome.ok()) {
    refuse(m.outcome.status, done);
    return;
  }
  ++stats_.zone_actions;
  done.ops.insert(done.ops.end(), m.ops.begin(), m.ops.end());
}

void ZonedCommands::report(const Space& s, const HostCommand& cmd, Completion& done) {
  // The buffer holds the header at least (NVMe's Number of Dwords: smaller transfers nothing).
  if (cmd.length_bytes < kZoneReportEntryBytes) {
    refuse(ZoneStatus::InvalidField, done);
    return;
  }
  const uint64_t most = cmd.length_bytes / kZoneReportEntryBytes - 1;
  const ZoneReport r = s.ns->zones().report(
      (cmd.offset_bytes - s.first_byte) / s.lba_bytes, cmd.report_filter,
      uint32_t(std::min<uint64_t>(most, s.ns->zones().zones())), cmd.partial_report);
  if (r.status != ZoneStatus::Success) {
    refuse(r.status, done);
    return;
  }
  // The descriptors come from the zone table in DRAM, one access each.
  if (!r.listed.empty()) hal_.dram_access(uint32_t(r.listed.size()), false);
  ++stats_.zone_reports;
  done.zones_reported = r.zones;
  for (const uint32_t z : r.listed) done.zones.push_back(s.ns->zones().zone(z));
}

}  // namespace ssd::fw::zns
