#include "firmware/zns/Zones.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssd::fw::zns {

const char* to_string(ZoneState s) {
  switch (s) {
    case ZoneState::Empty:
      return "empty";
    case ZoneState::ImplicitlyOpened:
      return "implicitly_opened";
    case ZoneState::ExplicitlyOpened:
      return "explicitly_opened";
    case ZoneState::Closed:
      return "closed";
    case ZoneState::Full:
      return "full";
    case ZoneState::ReadOnly:
      return "read_only";
    case ZoneState::Offline:
      return "offline";
  }
  return "?";
}

const char* to_string(ZoneStatus s) {
  switch (s) {
    case ZoneStatus::Success:
      return "success";
    case ZoneStatus::InvalidOpcode:
      return "invalid command opcode";
    case ZoneStatus::InvalidField:
      return "invalid field in command";
    case ZoneStatus::LbaOutOfRange:
      return "LBA out of range";
    case ZoneStatus::BoundaryError:
      return "zone boundary error";
    case ZoneStatus::Full:
      return "zone is full";
    case ZoneStatus::ReadOnly:
      return "zone is read only";
    case ZoneStatus::Offline:
      return "zone is offline";
    case ZoneStatus::InvalidWrite:
      return "zone invalid write";
    case ZoneStatus::TooManyActive:
      return "too many active zones";
    case ZoneStatus::TooManyOpen:
      return "too many open zones";
    case ZoneStatus::InvalidTransition:
      return "invalid zone state transition";
  }
  return "?";
}

const char* to_string(ZoneAction a) {
  switch (a) {
    case ZoneAction::Close:
      return "close";
    case ZoneAction::Finish:
      return "finish";
    case ZoneAction::Open:
      return "open";
    case ZoneAction::Reset:
      return "reset";
    case ZoneAction::Offline:
      return "offline";
  }
  return "?";
}

Zones::Zones(const ZoneLimits& limits) : limits_(limits) {
  const auto fail = [](const std::string& why) { throw std::invalid_argument("zones: " + why); };
  if (limits.zones == 0) fail("a zoned namespace needs a zone");
  if (limits.zone_size == 0) fail("zone_size must be at least one block");
  if (limits.zone_capacity == 0 || limits.zone_capacity > limits.zone_size)
    fail("zone_capacity (" + std::to_string(limits.zone_capacity) + ") must be in [1, zone_size " +
         std::to_string(limits.zone_size) + "]");
  if (limits.max_active != 0 && (limits.max_open == 0 || limits.max_open > limits.max_active))
    fail("max_open (" + std::to_string(limits.max_open) + ") must be in [1, max_active " +
         std::to_string(limits.max_active) + "] when max_active limits the active zones");
  if (limits.zone_size > ~uint64_t(0) / limits.zones) fail("zones x zone_size overflows");
  zones_.resize(limits.zones);
  for (uint32_t z = 0; z < limits.zones; ++z)
    zones_[z].start = zones_[z].write_pointer = z * limits.zone_size;
  by_state_[int(ZoneState::Empty)] = limits.zones;
}

ZoneOutcome Zones::write(uint64_t lba, uint64_t blocks) {
  const uint64_t total = uint64_t(zones()) * limits_.zone_size;
  if (blocks == 0) return {ZoneStatus::InvalidField};
  if (lba >= total || blocks > total - lba) return {ZoneStatus::LbaOutOfRange};
  return write_at(zone_of(lba), lba, blocks);
}

ZoneOutcome Zones::append(uint64_t zslba, uint64_t blocks) {
  if (blocks == 0) return {ZoneStatus::InvalidField};
  if (zslba >= uint64_t(zones()) * limits_.zone_size) return {ZoneStatus::LbaOutOfRange};
  if (zslba % limits_.zone_size != 0) return {ZoneStatus::InvalidField};
  const uint32_t z = zone_of(zslba);
  // The state's errors come first: a full zone's write pointer says nothing.
  return write_at(z, zones_[z].write_pointer, blocks);
}

ZoneStatus Zones::read(uint64_t lba, uint64_t blocks) const {
  const uint64_t total = uint64_t(zones()) * limits_.zone_size;
  if (blocks == 0) return ZoneStatus::InvalidField;
  if (lba >= total || blocks > total - lba) return ZoneStatus::LbaOutOfRange;
  const uint32_t z = zone_of(lba);
  if (zone_of(lba + blocks - 1) != z) return ZoneStatus::BoundaryError;
  if (zones_[z].state == ZoneState::Offline) return ZoneStatus::Offline;
  return ZoneStatus::Success;
}

ZoneOutcome Zones::write_at(uint32_t z, uint64_t lba, uint64_t blocks) {
  ZoneDescriptor& d = zones_[z];
  switch (d.state) {
    case ZoneState::Full:
      return {ZoneStatus::Full};
    case ZoneState::ReadOnly:
      return {ZoneStatus::ReadOnly};
    case ZoneState::Offline:
      return {ZoneStatus::Offline};
    default:
      break;
  }
  if (lba != d.write_pointer) return {ZoneStatus::InvalidWrite};
  if (blocks > end_of_capacity(z) - lba) return {ZoneStatus::BoundaryError};
  ZoneOutcome out;
  out.lba = lba;
  if (!opened(d.state)) {
    out.status = take_open_resources(z, out.closed);
    if (!out.ok()) return out;
    set_state(z, ZoneState::ImplicitlyOpened);
    ++counts_.implicit_opens;
  }
  d.write_pointer += blocks;
  if (d.write_pointer == end_of_capacity(z)) {
    set_state(z, ZoneState::Full);
    ++counts_.filled;
  }
  return out;
}

ZoneStatus Zones::take_open_resources(uint32_t z, uint32_t& closed) {
  // An empty zone needs an active resource as well; a closed one holds it already. Checked
  // first: closing another zone frees no active resource.
  if (!active(zones_[z].state) && limits_.max_active != 0 && active_ >= limits_.max_active)
    return ZoneStatus::TooManyActive;
  if (limits_.max_open != 0 && open_ >= limits_.max_open) {
    if (implicit_order_.empty()) return ZoneStatus::TooManyOpen;
    closed = implicit_order_.front();
    set_state(closed, ZoneState::Closed);
    ++counts_.implicit_closes;
  }
  return ZoneStatus::Success;
}

void Zones::set_state(uint32_t z, ZoneState to) {
  const ZoneState from = zones_[z].state;
  if (from == to) return;
  open_ = open_ - uint32_t(opened(from)) + uint32_t(opened(to));
  active_ = active_ - uint32_t(active(from)) + uint32_t(active(to));
  if (from == ZoneState::ImplicitlyOpened)
    implicit_order_.erase(std::find(implicit_order_.begin(), implicit_order_.end(), z));
  if (to == ZoneState::ImplicitlyOpened) implicit_order_.push_back(z);
  --by_state_[int(from)];
  ++by_state_[int(to)];
  zones_[z].state = to;
}

ZoneReport Zones::report(uint64_t lba, ZoneReportFilter filter, uint32_t most, bool partial) const {
  if (lba >= uint64_t(zones()) * limits_.zone_size) return {ZoneStatus::LbaOutOfRange, 0, {}};
  if (filter > ZoneReportFilter::Offline) return {ZoneStatus::InvalidField, 0, {}};
  ZoneReport r;
  for (uint32_t z = zone_of(lba); z < zones(); ++z) {
    // Each state's filter value is its place in ZoneState, plus one.
    if (filter != ZoneReportFilter::All && int(zones_[z].state) + 1 != int(filter)) continue;
    if (r.listed.size() < most)
      r.listed.push_back(z);
    else if (partial)
      break;
    ++r.zones;
  }
  if (partial) r.zones = r.listed.size();
  return r;
}

ZoneOutcome Zones::manage(uint64_t zslba, ZoneAction action) {
  if (zslba >= uint64_t(zones()) * limits_.zone_size) return {ZoneStatus::LbaOutOfRange};
  if (zslba % limits_.zone_size != 0) return {ZoneStatus::InvalidField};
  ZoneOutcome out;
  out.status = apply(zone_of(zslba), action, out);
  return out;
}

ZoneStatus Zones::apply(uint32_t z, ZoneAction action, ZoneOutcome& out) {
  ZoneDescriptor& d = zones_[z];
  const ZoneState s = d.state;
  switch (action) {
    case ZoneAction::Open:
      if (s == ZoneState::ExplicitlyOpened) return ZoneStatus::Success;
      if (s != ZoneState::Empty && s != ZoneState::Closed && s != ZoneState::ImplicitlyOpened)
        return ZoneStatus::InvalidTransition;
      if (s != ZoneState::ImplicitlyOpened) {
        const ZoneStatus st = take_open_resources(z, out.closed);
        if (st != ZoneStatus::Success) return st;
      }
      set_state(z, ZoneState::ExplicitlyOpened);
      ++counts_.explicit_opens;
      return ZoneStatus::Success;
    case ZoneAction::Close:
      if (s == ZoneState::Closed) return ZoneStatus::Success;
      if (!opened(s)) return ZoneStatus::InvalidTransition;
      set_state(z, ZoneState::Closed);
      ++counts_.closes;
      return ZoneStatus::Success;
    case ZoneAction::Finish:
      if (s == ZoneState::Full) return ZoneStatus::Success;
      if (s != ZoneState::Empty && !active(s)) return ZoneStatus::InvalidTransition;
      set_state(z, ZoneState::Full);
      d.write_pointer = end_of_capacity(z);
      ++counts_.finishes;
      return ZoneStatus::Success;
    case ZoneAction::Reset:
      if (s == ZoneState::Empty) return ZoneStatus::Success;
      if (s != ZoneState::Full && !active(s)) return ZoneStatus::InvalidTransition;
      set_state(z, ZoneState::Empty);
      d.write_pointer = d.start;
      ++counts_.resets;
      return ZoneStatus::Success;
    case ZoneAction::Offline:
      if (s == ZoneState::Offline) return ZoneStatus::Success;
      if (s != ZoneState::ReadOnly) return ZoneStatus::InvalidTransition;
      set_state(z, ZoneState::Offline);
      return ZoneStatus::Success;
  }
  return ZoneStatus::InvalidField;
}

ZoneStatus Zones::manage_all(ZoneAction action, std::vector<uint32_t>* changed) {
  const auto applies = [&](ZoneState s) {
    switch (action) {
      case ZoneAction::Close:
        return opened(s);
      case ZoneAction::Finish:
        return active(s);
      case ZoneAction::Open:
        return s == ZoneState::Closed;
      case ZoneAction::Reset:
        return active(s) || s == ZoneState::Full;
      case ZoneAction::Offline:
        return s == ZoneState::ReadOnly;
    }
    return false;
  };
  // Opening every closed zone: all of them or none.
  if (action == ZoneAction::Open && limits_.max_open != 0 &&
      count(ZoneState::Closed) > limits_.max_open - open_)
    return ZoneStatus::TooManyOpen;
  for (uint32_t z = 0; z < zones(); ++z) {
    if (!applies(zones_[z].state)) continue;
    ZoneOutcome out;
    apply(z, action, out);
    if (changed) changed->push_back(z);
  }
  return ZoneStatus::Success;
}

void Zones::make_read_only(uint32_t zone) {
  if (zones_[zone].state != ZoneState::Offline) set_state(zone, ZoneState::ReadOnly);
}

void Zones::make_offline(uint32_t zone) { set_state(zone, ZoneState::Offline); }

}  // namespace ssd::fw::zns
