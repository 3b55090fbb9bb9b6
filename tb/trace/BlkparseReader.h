#pragma once
// Linux blktrace events as blkparse prints them by default:
// `maj,min cpu seq time pid action rwbs sector + nsect [process]`.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "tb/trace/TraceReader.h"

namespace ssd::tb {

// A request is issued at its Q (queued) event, or at its D (dispatched) event with
// --blkparse-event D; every other event is ignored. rwbs names the operation by one letter,
// D (discard) a trim, W a write, R a read, N none, with flags around it as blkparse writes
// them: an F before it is a preflush (a flush the drive must do first), an F after it force
// unit access. A preflush becomes a flush request ahead of the event's data request, if any;
// other events without data (no R, W or D, or 0 sectors) are ignored. time is in decimal seconds,
// sector and nsect count sectors (--sector-bytes), and the device maj,min is the volume (major <<
// 32 | minor). The summary blkparse prints after the events (from a line starting with "CPU" or
// "Total") ends the trace.
class BlkparseReader : public TraceReader {
 public:
  explicit BlkparseReader(std::string path, const TraceOptions& opts = {});

 private:
  Parsed parse(TraceRecord& out) override;
  [[nodiscard]] bool device(std::string_view text, uint64_t& out);
  // The fields every event has (device cpu sequence time pid action rwbs), checked on each so
  // a line with one missing is an error rather than an event of another kind (the action would
  // shift into the pid's place); the device into `out`.
  [[nodiscard]] bool event_fields(const std::string_view* f, size_t n, TraceRecord& out);
  // The event's data request into `out`, `data` false where it has none (no R, W or D, or 0
  // sectors), and its time.
  [[nodiscard]] bool request(const std::string_view* f, size_t n, bool preflush, TraceRecord& out,
                             bool& data);

  // The operation rwbs names (D, W or R) into `out`, with its FUA flag; false for none (N).
  static bool data_op(std::string_view rwbs, TraceRecord& out);

  bool summary_ = false;
  // The data request of an event with a preflush, passed on after its flush.
  bool has_pending_ = false;
  TraceRecord pending_;
};

}  // namespace ssd::tb
