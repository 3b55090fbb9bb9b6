#include "tb/workload/ZoneAppends.h"

#include <algorithm>

namespace ssd::tb {

ZoneAppends::ZoneAppends(const ZoneSpan& span)
    : span_(span), sent_(span.zones, 0), next_(span.written_side_by_side % span.zones) {
  for (uint32_t z = 0; z < span.written_side_by_side; ++z) writing_.push_back(z);
}

uint32_t ZoneAppends::take_next(uint32_t slot) {
  for (;;) {
    const uint32_t z = next_;
    next_ = (next_ + 1) % span_.zones;
    if (z == writing_[slot] || std::find(writing_.begin(), writing_.end(), z) == writing_.end())
      return z;
  }
}

void ZoneAppends::report(HostRequest& out) const {
  out.op = IoOp::ZoneReport;
  out.select_all = false;
  out.offset_bytes = span_.offset;
  out.length_bytes = fw::zns::kZoneReportEntryBytes * (uint64_t(span_.zones) + 1);
  out.report_filter = fw::zns::ZoneReportFilter::All;
  out.partial_report = false;
}

void ZoneAppends::next(HostRequest& out, bool read, uint64_t length,
                       const std::function<uint64_t(uint64_t)>& uniform) {
  out.select_all = false;
  if (reset_) {
    out.op = IoOp::ZoneManage;
    out.zone_action = fw::zns::ZoneAction::Reset;
    out.offset_bytes = start(*reset_);
    out.length_bytes = 0;
    sent_[*reset_] = 0;
    reset_.reset();
    return;
  }
  if (read) {
    // Within what the zone was sent (aligned as the sizes are); a zone not written yet reads
    // as zeroes from its start.
    const uint32_t z = uint32_t(uniform(span_.zones));
    const uint64_t have = sent_[z];
    out.op = IoOp::Read;
    out.length_bytes = std::min(length, have == 0 ? span_.capacity_bytes : have);
    out.offset_bytes = start(z);
    if (have > out.length_bytes) out.offset_bytes += uniform(have / length) * length;
    return;
  }
  const uint32_t slot = uint32_t(uniform(writing_.size()));
  const uint32_t z = writing_[slot];
  out.op = IoOp::Append;
  out.offset_bytes = start(z);
  out.length_bytes = std::min(length, span_.capacity_bytes - sent_[z]);
  sent_[z] += out.length_bytes;
  if (sent_[z] < span_.capacity_bytes) return;
  const uint32_t taken = take_next(slot);
  writing_[slot] = taken;
  if (sent_[taken] > 0) reset_ = taken;
}

}  // namespace ssd::tb
