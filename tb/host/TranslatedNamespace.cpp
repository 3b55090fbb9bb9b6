#include "tb/host/TranslatedNamespace.h"

#include <stdexcept>

namespace ssd::tb {

namespace {

fw::zns::ZoneLimits limits_of(const config::NamespaceRange& ns) {
  fw::zns::ZoneLimits l;
  l.zones = uint32_t(ns.size_bytes / ns.zone_bytes);
  l.zone_size = ns.zone_bytes / ns.lba_bytes;
  l.zone_capacity = ns.zone_capacity_bytes / ns.lba_bytes;
  return l;  // the open and active limits: the config's rules held them
}

}  // namespace

TranslatedNamespace::TranslatedNamespace(const config::NamespaceRange& ns, uint32_t index)
    : ns_(index),
      lba_bytes_(ns.lba_bytes),
      zone_blocks_(ns.zone_bytes / ns.lba_bytes),
      layer_(limits_of(ns), uint32_t(ns.translation.chunk_bytes / ns.lba_bytes),
             ZoneTranslation::Shape{ns.translation.spare_zones, ns.translation.open_zones,
                                    ns.translation.gc_zones, ns.translation.free_zones}),
      waiting_(limits_of(ns).zones),
      busy_(limits_of(ns).zones, 0),
      writing_(limits_of(ns).zones, 0),
      last_write_(limits_of(ns).zones, kNoCommand) {
  stats_.chunk_bytes = ns.translation.chunk_bytes;
  stats_.open_zones = ns.translation.open_zones;
  stats_.gc_zones = ns.translation.gc_zones;
  stats_.free_zones = ns.translation.free_zones;
  stats_.spare_zones = ns.translation.spare_zones;
  stats_.capacity_bytes = layer_.capacity_blocks() * lba_bytes_;
}

bool TranslatedNamespace::submit(const HostRequest& r, const sc_core::sc_time& start,
                                 uint32_t flow) {
  // The layer works in whole logical blocks: a request is widened to those it touches.
  const uint64_t lba = r.offset_bytes / lba_bytes_;
  const uint64_t blocks = (r.offset_bytes + r.length_bytes + lba_bytes_ - 1) / lba_bytes_ - lba;
  plan_.clear();
  switch (r.op) {
    case IoOp::Read:
      layer_.read(lba, blocks, plan_);
      ++stats_.reads;
      stats_.read_bytes += r.length_bytes;
      if (plan_.empty()) ++stats_.reads_unmapped;
      break;
    case IoOp::Write:
      layer_.write(lba, blocks, plan_);
      ++stats_.writes;
      stats_.write_bytes += r.length_bytes;
      break;
    case IoOp::Trim:
      layer_.trim(lba, blocks);
      ++stats_.trims;
      break;
    case IoOp::Flush:  // the host sends a flush to the drive itself
    case IoOp::Append:
    case IoOp::ZoneManage:
    case IoOp::PlacementUpdate:
    case IoOp::ZoneReport:
      throw std::logic_error("TranslatedNamespace: not a read, write or trim");
  }
  const uint64_t id = add_request(start, flow, r.op, r.length_bytes, false);
  uint64_t collection = kNoCommand;  // the one whose commands are being queued
  for (const ZoneCommand& c : plan_) {
    if (c.gc && collection == kNoCommand)
      collection = add_request(start, flow, IoOp::Write, 0, true);
    queue(c, c.gc ? collection : id);
    if (c.op == ZoneOp::Reset) collection = kNoCommand;  // its last
  }
  const bool none = request(id).left == 0;
  if (none) end(id, start);
  return none;
}

uint64_t TranslatedNamespace::add_request(const sc_core::sc_time& start, uint32_t flow, IoOp op,
                                          uint64_t bytes, bool background) {
  Request& r = requests_.emplace_back();
  r.start = start;
  r.flow = flow;
  r.op = op;
  r.bytes = bytes;
  r.background = background;
  return request_base_ + requests_.size() - 1;
}

void TranslatedNamespace::queue(const ZoneCommand& c, uint64_t id) {
  const uint64_t command = base_ + commands_.size();
  Request& r = request(id);
  Command& q = commands_.emplace_back(Command{c, id});
  switch (c.op) {
    case ZoneOp::Read:
      q.before = uint32_t(r.read_done.size());
      r.read_done.push_back(false);
      break;
    case ZoneOp::Write:
      q.before = uint32_t(r.read_done.size());
      if (c.follows != kNoZone) q.after = last_write_[c.follows];
      last_write_[zone_of(c)] = command;
      ++r.writes;
      break;
    case ZoneOp::Reset:
      q.before = r.writes;
      break;
  }
  ++r.left;
  waiting_[zone_of(c)].push_back(command);
  zones_waiting_.insert(zone_of(c));
}

bool TranslatedNamespace::may_go(uint32_t zone) const {
  const Command& c = command(waiting_[zone].front());
  const Request& r = request(c.request);
  switch (c.cmd.op) {
    case ZoneOp::Read:
      return writing_[zone] == 0;
    case ZoneOp::Write:
      return writing_[zone] == 0 && r.reads_done_first >= c.before &&
             (c.after == kNoCommand || done(c.after));
    case ZoneOp::Reset:
      break;
  }
  return busy_[zone] == 0 && r.writes_done >= c.before;
}

std::optional<TranslatedNamespace::Next> TranslatedNamespace::next() const {
  std::optional<uint64_t> first;
  for (const uint32_t z : zones_waiting_)
    if (may_go(z) && (!first || waiting_[z].front() < *first)) first = waiting_[z].front();
  if (!first) return std::nullopt;
  const Command& c = command(*first);
  Next n{HostRequest{}, *first, request(c.request).flow};
  n.request.ns = ns_;
  n.request.offset_bytes = c.cmd.lba * lba_bytes_;
  switch (c.cmd.op) {
    case ZoneOp::Read:
      n.request.op = IoOp::Read;
      break;
    case ZoneOp::Write:
      n.request.op = IoOp::Write;
      break;
    case ZoneOp::Reset:
      n.request.op = IoOp::ZoneManage;
      n.request.zone_action = fw::zns::ZoneAction::Reset;
      break;
  }
  n.request.length_bytes = c.cmd.blocks * lba_bytes_;
  return n;
}

void TranslatedNamespace::issued(uint64_t id) {
  const Command& c = command(id);
  const uint32_t z = zone_of(c.cmd);
  waiting_[z].pop_front();  // the first of its zone's: next() gave it
  if (waiting_[z].empty()) zones_waiting_.erase(z);
  ++busy_[z];
  if (c.cmd.op != ZoneOp::Read) ++writing_[z];
}

std::optional<TranslatedNamespace::Ended> TranslatedNamespace::completed(
    uint64_t id, bool ok, const sc_core::sc_time& now) {
  Command& c = command(id);
  const uint32_t z = zone_of(c.cmd);
  --busy_[z];
  Request& r = request(c.request);
  if (c.cmd.op == ZoneOp::Read) {
    r.read_done[c.before] = true;
    while (r.reads_done_first < r.read_done.size() && r.read_done[r.reads_done_first])
      ++r.reads_done_first;
  } else {
    --writing_[z];
    if (c.cmd.op == ZoneOp::Write) ++r.writes_done;
  }
  c.done = true;
  r.ok = r.ok && ok;
  std::optional<Ended> ended;
  if (--r.left == 0) {
    if (!r.background) ended = Ended{r.flow, r.op, r.bytes, r.start, r.ok};
    end(c.request, now);  // may drop the request
  }
  while (!commands_.empty() && commands_.front().done) {
    commands_.pop_front();
    ++base_;
  }
  return ended;
}

void TranslatedNamespace::end(uint64_t id, const sc_core::sc_time& now) {
  const Request& r = request(id);
  if (!r.ok) ++stats_.failed;
  if (r.background) return;
  if (r.op == IoOp::Read) stats_.read_latency.add(now - r.start);
  if (r.op == IoOp::Write) stats_.write_latency.add(now - r.start);
  while (!requests_.empty() && requests_.front().left == 0) {
    requests_.pop_front();
    ++request_base_;
  }
}

report::TranslationStats TranslatedNamespace::figures() const {
  report::TranslationStats out = stats_;
  const ZoneTranslationStats& l = layer_.stats();
  out.host_bytes_written = l.host_blocks_written * lba_bytes_;
  out.bytes_sent = l.blocks_written * lba_bytes_;
  out.gc_bytes_copied = l.gc_blocks_copied * lba_bytes_;
  out.rmw_bytes_read = l.rmw_blocks_read * lba_bytes_;
  out.zones_reset = l.zones_reset;
  return out;
}

}  // namespace ssd::tb
