#include "tb/trace/MsrReader.h"

#include <string_view>

namespace ssd::tb {

MsrReader::MsrReader(std::string path, const TraceOptions& opts)
    : TraceReader(std::move(path), "msr", kFiletimeTicks, "Timestamp", opts) {}

Parsed MsrReader::parse(TraceRecord& out) {
  if (!next_line()) return Parsed::kEnd;
  // Timestamp, Hostname, DiskNumber, Type, Offset, Size, ResponseTime
  std::string_view f[7];
  uint64_t ticks = 0;
  uint64_t response_time = 0;  // checked, not used
  const bool ok = split_record(f, 7) && unsigned_field(f[0], "Timestamp", ticks) &&
                  (!f[1].empty() || fail("Hostname", "expected a name", f[1])) &&
                  unsigned_field(f[2], "DiskNumber", out.volume) &&
                  op_field(f[3], "Type", "read", "write", "expected Read or Write", out.op) &&
                  unsigned_field(f[4], "Offset", out.offset_bytes) &&
                  unsigned_field(f[5], "Size", out.length_bytes) &&
                  check_extent(out, "Offset", f[4], "Size", f[5], "byte count") &&
                  unsigned_field(f[6], "ResponseTime", response_time);
  out.time = time_of_units(ticks);
  return record_if(ok);
}

}  // namespace ssd::tb
