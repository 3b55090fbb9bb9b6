#pragma once
// Linux blktrace events as blkparse prints them by default:
// `maj,min cpu seq time pid action rwbs sector + nsect [process]`.
#include <string>

#include "tb/trace/TraceReader.h"

namespace ssd::tb {

// A request is issued at its Q (queued) event, or at its D (dispatched) event with
// --blkparse-event D; every other event is ignored, and so are events without data (flushes:
// no R, W or D in rwbs, or 0 sectors). rwbs D (discard) is a trim, else W a write, else R a
// read. time is in decimal seconds, sector and nsect count sectors (--sector-bytes), and the
// device maj,min is the volume (major << 32 | minor). The summary blkparse prints after the
// events (from a line starting with "CPU" or "Total") ends the trace.
class BlkparseReader : public TraceReader {
 public:
  explicit BlkparseReader(std::string path, const TraceOptions& opts = {});

 private:
  bool parse(TraceRecord& out) override;
  uint64_t device(std::string_view text) const;

  bool summary_ = false;
};

}  // namespace ssd::tb
