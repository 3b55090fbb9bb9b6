#include "firmware/zns/ZonedNamespace.h"

#include <algorithm>

namespace ssd::fw::zns {

ZonedNamespace::ZonedNamespace(const ZoneMapping& mapping, const config::FlashConfig& flash,
                               Hal& hal, uint32_t zones, uint32_t lba_bytes, Lpn first_lpn)
    : zones_(mapping.limits(zones, lba_bytes)),
      blocks_(mapping, flash, hal, zones),
      blocks_per_unit_(mapping.unit_bytes() / lba_bytes),
      first_lpn_(first_lpn),
      partial_(zones) {}

ZonedWrite ZonedNamespace::write(uint64_t lba, uint64_t blocks, uint64_t version) {
  return place(zones_.write(lba, blocks), blocks, version);
}

ZonedWrite ZonedNamespace::append(uint64_t zslba, uint64_t blocks, uint64_t version) {
  return place(zones_.append(zslba, blocks), blocks, version);
}

ZonedWrite ZonedNamespace::place(const ZoneOutcome& outcome, uint64_t blocks, uint64_t version) {
  ZonedWrite w{outcome, {}};
  if (!outcome.ok()) return w;
  const uint32_t z = zones_.zone_of(outcome.lba);
  Partial& p = partial_[z];
  const uint64_t end = outcome.lba + blocks;
  for (uint64_t lba = outcome.lba; lba < end;) {
    const uint64_t unit = lba / blocks_per_unit_;
    const uint64_t to = std::min(end, (unit + 1) * blocks_per_unit_);
    p.blocks += uint32_t(to - lba);
    p.data = PageToken{first_lpn_ + unit, version};
    lba = to;
    if (p.blocks < blocks_per_unit_) break;  // the write ends inside the unit
    const OpId op = blocks_.write(z, unit - first_unit(z), p.data, kNoOp);
    if (op != kNoOp) w.programs.push_back(op);
    p = Partial{};
  }
  return w;
}

ZonedRead ZonedNamespace::read(uint64_t lba, uint64_t blocks) {
  ZonedRead r;
  r.status = zones_.read(lba, blocks);
  if (r.status != ZoneStatus::Success) return r;
  const uint32_t z = zones_.zone_of(lba);
  const uint64_t held = blocks_.written_units(z);  // on the flash or gathering a page
  const Partial& p = partial_[z];
  const uint64_t last = (lba + blocks - 1) / blocks_per_unit_;
  for (uint64_t unit = lba / blocks_per_unit_; unit <= last; ++unit) {
    ZonedUnitRead u;
    u.unit = unit;
    const uint64_t in_zone = unit - first_unit(z);
    if (in_zone < held) {
      const ZoneBlocks::Read fr = blocks_.read(z, in_zone, u.data);
      u.op = fr.op;
      u.written = fr.written;
    } else if (in_zone == held && p.blocks > 0) {
      u.written = true;
      u.data = p.data;
    }
    r.units.push_back(u);
  }
  return r;
}

void ZonedNamespace::apply(uint32_t zone, ZoneAction action, std::vector<OpId>& ops) {
  Partial& p = partial_[zone];
  switch (action) {
    case ZoneAction::Finish: {
      if (p.blocks > 0) {  // the buffered unit goes to the flash with the rest of its blocks
        const OpId op = blocks_.write(zone, blocks_.written_units(zone), p.data, kNoOp);
        if (op != kNoOp) ops.push_back(op);
      }
      const std::vector<OpId> pads = blocks_.finish(zone);
      ops.insert(ops.end(), pads.begin(), pads.end());
      break;
    }
    case ZoneAction::Reset: {
      const std::vector<OpId> erases = blocks_.reset(zone);
      ops.insert(ops.end(), erases.begin(), erases.end());
      break;
    }
    case ZoneAction::Open:
    case ZoneAction::Close:
      return;  // the buffer keeps what it gathered
    case ZoneAction::Offline:
      break;  // the zone's data is gone
  }
  p = Partial{};
}

ZonedManage ZonedNamespace::manage(uint64_t zslba, ZoneAction action) {
  ZonedManage m;
  m.outcome = zones_.manage(zslba, action);
  if (!m.outcome.ok()) return m;
  const uint32_t z = zones_.zone_of(zslba);
  m.changed.push_back(z);
  apply(z, action, m.ops);
  return m;
}

ZonedManage ZonedNamespace::manage_all(ZoneAction action) {
  ZonedManage m;
  m.outcome.status = zones_.manage_all(action, &m.changed);
  for (const uint32_t z : m.changed) apply(z, action, m.ops);
  return m;
}

void ZonedNamespace::make_offline(uint32_t zone) {
  zones_.make_offline(zone);
  partial_.at(zone) = Partial{};
}

}  // namespace ssd::fw::zns
