#include "tb/trace/BlkparseReader.h"

#include <string_view>

namespace ssd::tb {

BlkparseReader::BlkparseReader(std::string path, const TraceOptions& opts)
    : TraceReader(std::move(path), "blkparse", kSeconds, "time", opts) {
  if (opts.blkparse_event != 'Q' && opts.blkparse_event != 'D') {
    throw UsageError("--blkparse-event: expected Q or D" +
                     got(std::string(1, opts.blkparse_event)));
  }
}

bool BlkparseReader::device(std::string_view text, uint64_t& out) {
  const size_t comma = text.find(',');
  uint64_t major = 0;
  uint64_t minor = 0;
  if (comma == std::string_view::npos || parse_unsigned(text.substr(0, comma), major) ||
      parse_unsigned(text.substr(comma + 1), minor) || major >> 32 != 0 || minor >> 32 != 0) {
    return fail("device", "expected major,minor device numbers below 2^32", text);
  }
  out = major << 32 | minor;
  return true;
}

bool BlkparseReader::event_fields(const std::string_view* f, size_t n, TraceRecord& out) {
  if (n < 7) {
    return fail("record",
                "expected at least 7 blank-separated fields (device cpu sequence time pid "
                "action rwbs), got " +
                    std::to_string(n));
  }
  uint64_t unused = 0;
  return device(f[0], out.volume) && unsigned_field(f[1], "cpu", unused) &&
         unsigned_field(f[2], "sequence", unused) && unsigned_field(f[4], "pid", unused);
}

bool BlkparseReader::data_op(std::string_view rwbs, TraceRecord& out) {
  switch (rwbs.empty() ? 'N' : rwbs.front()) {
    case 'D':
      out.op = IoOp::Trim;
      break;
    case 'W':
      out.op = IoOp::Write;
      break;
    case 'R':
      out.op = IoOp::Read;
      break;
    default:
      return false;
  }
  out.fua = out.op == IoOp::Write && rwbs.find('F', 1) != std::string_view::npos;
  return true;
}

bool BlkparseReader::request(const std::string_view* f, size_t n, bool preflush, TraceRecord& out,
                             bool& data) {
  const bool sectors = n >= 10 && f[8] == "+";
  data = data_op(f[6].substr(preflush ? 1 : 0), out);
  if (data && !sectors && !preflush) {
    return fail("record", "expected `sector + nsect` after the rwbs field", line());
  }
  data = data && sectors;
  if (data) {
    const bool ok =
        sectors_field(f[7], "sector", out.offset_bytes) &&
        sectors_field(f[9], "nsect", out.length_bytes) &&
        (out.length_bytes == 0 || check_extent(out, "sector", f[7], "nsect", f[9], "sector count"));
    if (!ok) return false;
    data = out.length_bytes != 0;
  }
  return time_field(f[3], out.time);
}

Parsed BlkparseReader::parse(TraceRecord& out) {
  if (has_pending_) {
    has_pending_ = false;
    out = pending_;
    return Parsed::kRecord;
  }
  // dev, cpu, seq, time, pid, action, rwbs, sector, "+", nsect (then the process, unused)
  std::string_view f[10];
  while (!summary_ && next_line()) {
    const size_t n = split_blanks(line(), f, 10);
    if (f[0].substr(0, 3) == "CPU" || f[0] == "Total") {
      summary_ = true;
      break;
    }
    if (!event_fields(f, n, out)) return Parsed::kBadLine;
    if (f[5].size() != 1 || f[5].front() != options().blkparse_event) {
      ignore_line();
      continue;
    }
    // blkparse writes F first for a preflush; a flush alone is FN (F for the kernel's own
    // tracepoints), and an event without data prints no sectors.
    const bool preflush = f[6].size() > 0 && f[6].front() == 'F';
    bool data = false;
    if (!request(f, n, preflush, out, data)) return Parsed::kBadLine;
    if (!preflush) {
      if (data) return Parsed::kRecord;
      ignore_line();  // no data and no flush (N, or 0 sectors)
      continue;
    }
    if (data) {
      pending_ = out;
      has_pending_ = true;
    }
    out.op = IoOp::Flush;
    out.fua = false;
    out.offset_bytes = 0;
    out.length_bytes = 0;
    return Parsed::kRecord;
  }
  return Parsed::kEnd;
}

}  // namespace ssd::tb
