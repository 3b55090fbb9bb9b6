#include "tb/host/HostZones.h"

#include <algorithm>
#include <limits>

namespace ssd::tb {

using fw::zns::ZoneAction;
using fw::zns::ZoneReportFilter;
using fw::zns::ZoneState;

namespace {
// A management action's updates all complete or none do.
constexpr fw::Lpn kAllPages = std::numeric_limits<fw::Lpn>::max();
}  // namespace

HostZones::HostZones(const std::vector<config::NamespaceRange>& namespaces, uint64_t page_bytes,
                     ip::Scoreboard& scoreboard)
    : page_bytes_(page_bytes), scoreboard_(scoreboard) {
  for (const config::NamespaceRange& n : namespaces) {
    if (n.kind != config::NamespaceKind::Zoned) {
      space_of_.push_back(-1);
      continue;
    }
    space_of_.push_back(int(spaces_.size()));
    Space s;
    s.first_byte = n.first_byte;
    s.zone_bytes = n.zone_bytes;
    s.capacity_blocks = n.zone_capacity_bytes / n.lba_bytes;
    s.lba_bytes = n.lba_bytes;
    s.zones.resize(n.size_bytes / n.zone_bytes);
    spaces_.push_back(std::move(s));
  }
}

fw::Lpn HostZones::first_page(const Space& s, uint32_t z, uint64_t block) const {
  return (s.first_byte + z * s.zone_bytes + block * s.lba_bytes) / page_bytes_;
}

fw::Lpn HostZones::end_page(const Space& s, uint32_t z, uint64_t block) const {
  return (s.first_byte + z * s.zone_bytes + block * s.lba_bytes + page_bytes_ - 1) / page_bytes_;
}

bool HostZones::may_issue(const HostRequest& r) const {
  const Space& s = spaces_[std::size_t(space_of_[r.ns])];
  if (s.managing_all) return false;
  if ((r.op == IoOp::ZoneManage && r.select_all) || r.op == IoOp::ZoneReport)
    return s.in_flight == 0;
  const uint64_t z = r.offset_bytes / s.zone_bytes;
  if (z >= s.zones.size()) return true;  // the drive refuses it
  const Zone& zone = s.zones[z];
  if (zone.managing) return false;
  return r.op != IoOp::ZoneManage || zone.in_flight == 0;
}

void HostZones::issued(const HostRequest& r, const fw::HostCommand& cmd,
                       std::vector<ip::Scoreboard::Watch>& watches) {
  Space& s = space(r.ns);
  ++s.in_flight;
  if (r.op == IoOp::ZoneManage && r.select_all) {
    s.managing_all = true;
    for (uint32_t z = 0; z < s.zones.size(); ++z) manage_issued(s, z, r, cmd.version, watches);
    return;
  }
  if (r.op == IoOp::ZoneReport) {
    s.managing_all = true;  // the zones stay as they are until it answers
    return;
  }
  const uint32_t z = uint32_t(r.offset_bytes / s.zone_bytes);
  if (z >= s.zones.size()) {
    // Past the namespace's zones (a zone action's offset): the drive refuses it.
    scoreboard_.command_issued(cmd, page_bytes_, watches);
    return;
  }
  Zone& zone = s.zones[z];
  ++zone.in_flight;
  const uint64_t blocks = r.length_bytes / s.lba_bytes;
  switch (r.op) {
    case IoOp::ZoneManage:
      zone.managing = true;
      manage_issued(s, z, r, cmd.version, watches);
      return;
    case IoOp::Append: {
      // Its data lands at the write pointer, which lies between the furthest end of what
      // completed and the blocks completed and in flight.
      const uint64_t highest =
          std::min(s.capacity_blocks, zone.done_blocks + zone.in_flight_blocks + blocks);
      zone.in_flight_blocks += blocks;
      if (zone.furthest < highest)
        scoreboard_.updates_issued(first_page(s, z, zone.furthest), end_page(s, z, highest),
                                   cmd.version, watches);
      return;
    }
    case IoOp::Write:
      zone.in_flight_blocks += blocks;
      break;
    case IoOp::Read:
    case IoOp::Trim:
    case IoOp::Flush:
    case IoOp::PlacementUpdate:  // the host sends none to a zoned namespace
    case IoOp::ZoneReport:
      break;
  }
  scoreboard_.command_issued(cmd, page_bytes_, watches);
}

void HostZones::manage_issued(Space& s, uint32_t z, const HostRequest& r, uint64_t version,
                              std::vector<ip::Scoreboard::Watch>& watches) {
  // A reset's zone then reads as zeroes; the other actions change no data (a finish's padding
  // reads as never written).
  const Zone& zone = s.zones[z];
  if (r.zone_action == ZoneAction::Reset && zone.furthest > 0)
    scoreboard_.updates_issued(first_page(s, z, 0), end_page(s, z, zone.furthest), version,
                               watches);
}

void HostZones::completed(const model::HostCommandExt& ext,
                          const std::vector<ip::Scoreboard::Watch>& watches,
                          const std::string* flow) {
  const fw::HostCommand& cmd = ext.cmd;
  Space& s = space(ext.ns);
  --s.in_flight;
  const uint64_t offset = cmd.offset_bytes - s.first_byte;  // the drive's bytes, in the namespace
  const bool ok = ext.ok && ext.status == 0;
  if (cmd.op == fw::CommandOp::ZoneManage && cmd.select_all) {
    s.managing_all = false;
    scoreboard_.updates_settled(watches, cmd.version, 0, ok ? kAllPages : 0);
    for (uint32_t z = 0; z < s.zones.size(); ++z) managed(s, z, cmd.zone_action, ok);
    return;
  }
  if (cmd.op == fw::CommandOp::ZoneReport) {
    s.managing_all = false;
    if (ok) check_report(s, ext, flow);
    return;
  }
  const uint32_t z = uint32_t(offset / s.zone_bytes);
  if (z >= s.zones.size()) {
    scoreboard_.command_completed(cmd, watches, ext.read_data, !ext.ok, flow);
    return;
  }
  Zone& zone = s.zones[z];
  --zone.in_flight;
  const uint64_t blocks = cmd.length_bytes / s.lba_bytes;
  switch (cmd.op) {
    case fw::CommandOp::ZoneManage:
      zone.managing = false;
      scoreboard_.updates_settled(watches, cmd.version, 0, ok ? kAllPages : 0);
      managed(s, z, cmd.zone_action, ok);
      return;
    case fw::CommandOp::Append: {
      zone.in_flight_blocks -= blocks;
      fw::Lpn first = 0, stop = 0;
      if (ok) {
        const uint64_t at = ext.appended_lba * s.lba_bytes - uint64_t(z) * s.zone_bytes;
        const uint64_t from = at / s.lba_bytes;
        first = first_page(s, z, from);
        stop = end_page(s, z, from + blocks);
        const bool expected = !watches.empty() && watches.front().lpn <= first &&
                              stop <= watches.back().lpn + 1 &&
                              ext.appended_lba * s.lba_bytes / s.zone_bytes == z;
        if (!expected)
          scoreboard_.mismatch("zone append of " + std::to_string(blocks) + " blocks to zone " +
                                   std::to_string(z) + " landed at block " +
                                   std::to_string(ext.appended_lba) +
                                   ", where no write pointer of the zone could have been",
                               flow);
        zone.done_blocks += blocks;
        zone.furthest = std::max(zone.furthest, from + blocks);
      }
      scoreboard_.updates_settled(watches, cmd.version, first, stop);
      return;
    }
    case fw::CommandOp::Write:
      zone.in_flight_blocks -= blocks;
      if (ok) {
        zone.done_blocks += blocks;
        zone.furthest = std::max(zone.furthest, (offset - z * s.zone_bytes) / s.lba_bytes + blocks);
      }
      break;
    case fw::CommandOp::Read:
    case fw::CommandOp::Trim:
    case fw::CommandOp::Flush:
    case fw::CommandOp::PlacementUpdate:
    case fw::CommandOp::ZoneReport:
      break;
  }
  scoreboard_.command_completed(cmd, watches, ext.read_data, !ext.ok, flow);
}

void HostZones::check_report(const Space& s, const model::HostCommandExt& ext,
                             const std::string* flow) {
  const fw::HostCommand& cmd = ext.cmd;
  const uint64_t zone_blocks = s.zone_bytes / s.lba_bytes;
  const uint32_t from = uint32_t((cmd.offset_bytes - s.first_byte) / s.zone_bytes);
  const uint64_t room = cmd.length_bytes / fw::zns::kZoneReportEntryBytes - 1;
  std::string wrong;
  // All zones, not partial: the Number of Zones is every zone from the first on, and the
  // descriptors as many as the buffer holds.
  if (cmd.report_filter == ZoneReportFilter::All) {
    const uint64_t all = s.zones.size() - from;
    const uint64_t listed = std::min(room, all);
    if (ext.zones.size() != listed || ext.zones_reported != (cmd.partial_report ? listed : all))
      wrong = "listed " + std::to_string(ext.zones.size()) + " zones of " +
              std::to_string(ext.zones_reported) + ", where " + std::to_string(listed) + " of " +
              std::to_string(cmd.partial_report ? listed : all) + " were due";
  }
  uint64_t last = 0;
  for (std::size_t i = 0; i < ext.zones.size() && wrong.empty(); ++i) {
    const fw::zns::ZoneDescriptor& d = ext.zones[i];
    const uint64_t z = d.start / zone_blocks;
    const Zone& zone = s.zones.at(std::min<std::size_t>(z, s.zones.size() - 1));
    const std::string name = "zone " + std::to_string(z) + " (" + fw::zns::to_string(d.state) + ")";
    const bool has_pointer = d.state != ZoneState::Full && d.state != ZoneState::ReadOnly &&
                             d.state != ZoneState::Offline;
    if (d.start % zone_blocks != 0 || z >= s.zones.size() || z < from || (i > 0 && z <= last))
      wrong = name + " out of place: the zones from " + std::to_string(from) + " on, in order";
    else if (cmd.report_filter != ZoneReportFilter::All &&
             int(d.state) + 1 != int(cmd.report_filter))
      wrong = name + " does not match the report's filter";
    else if (has_pointer && d.write_pointer - d.start != zone.done_blocks)
      wrong = name + " has its write pointer at block " +
              std::to_string(d.write_pointer - d.start) +
              ", where the host's completed writes end at " + std::to_string(zone.done_blocks);
    else if (zone.done_blocks == s.capacity_blocks && d.state != ZoneState::Full)
      wrong = name + " is not full, though the host's writes filled it";
    last = z;
  }
  if (!wrong.empty()) scoreboard_.mismatch("zone report: " + wrong, flow);
}

void HostZones::managed(Space& s, uint32_t z, ZoneAction action, bool ok) {
  Zone& zone = s.zones[z];
  if (!ok) return;
  if (action == ZoneAction::Reset) {
    zone.done_blocks = zone.furthest = 0;
  } else if (action == ZoneAction::Finish && zone.furthest > 0) {
    // Full: its write pointer at the capacity (a finish of an empty zone, explicitly opened,
    // is invisible here: appends to it fail, which settles them as never having happened).
    zone.done_blocks = zone.furthest = s.capacity_blocks;
  }
}

}  // namespace ssd::tb
