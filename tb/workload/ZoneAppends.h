#pragma once
// A job's zone appends (rw=zoneappend, on a zoned namespace): the job writes `zones` zones of its
// span side by side, each request an append of its size to one of them drawn at random; a zone
// whose capacity the job has sent gives way to the span's next zone not being written, which
// is reset first when it holds data (the log wraps), so the job runs for any count. Reads (the
// job's mix) go to a zone of the span drawn at random, within what the job has sent it.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "tb/host/HostRequest.h"

namespace ssd::tb {

struct ZoneSpan {
  uint64_t offset = 0;  // the span's first byte in the namespace: a zone's first
  uint32_t zones = 0;   // zones in the span
  uint64_t zone_bytes = 0;
  uint64_t capacity_bytes = 0;
  uint32_t written_side_by_side = 1;  // the job's `zones`
};

class ZoneAppends {
 public:
  explicit ZoneAppends(const ZoneSpan& span);

  // The next request's op, offset and length (`length`: the drawn size, a multiple of the
  // namespace's logical block): a reset the log's wrap needs, else a read (`read`) or an append.
  // `uniform(n)` draws in [0, n).
  void next(HostRequest& out, bool read, uint64_t length,
            const std::function<uint64_t(uint64_t)>& uniform);
  // A Report Zones of the span: all its zones' states, from its first, in a buffer for them.
  void report(HostRequest& out) const;

 private:
  uint64_t start(uint32_t zone) const { return span_.offset + zone * span_.zone_bytes; }
  // The zone after the one in `slot` filled: the span's next one no other slot writes.
  uint32_t take_next(uint32_t slot);

  ZoneSpan span_;
  std::vector<uint64_t> sent_;     // bytes appended to each zone since its reset
  std::vector<uint32_t> writing_;  // the zone each slot writes
  uint32_t next_ = 0;              // the next zone to take, modulo the span's
  std::optional<uint32_t> reset_;  // a zone to reset before the next request
};

}  // namespace ssd::tb
