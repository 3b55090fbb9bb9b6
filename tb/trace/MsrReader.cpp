#include "tb/trace/MsrReader.h"

#include <string_view>

namespace ssd::tb {

MsrReader::MsrReader(std::string path, const TraceOptions& opts)
    : TraceReader(std::move(path), "msr", kFiletimeTicks, "Timestamp", opts) {}

bool MsrReader::parse(TraceRecord& out) {
  if (!next_line()) return false;
  // Timestamp, Hostname, DiskNumber, Type, Offset, Size, ResponseTime
  std::string_view f[7];
  split_record(f, 7);
  out.time = time_of_units(unsigned_field(f[0], "Timestamp"));
  if (f[1].empty()) fail("Hostname", "expected a name" + got(f[1]));
  out.volume = unsigned_field(f[2], "DiskNumber");
  out.op = op_field(f[3], "Type", "read", "write", "expected Read or Write");
  out.offset_bytes = unsigned_field(f[4], "Offset");
  out.length_bytes = unsigned_field(f[5], "Size");
  check_extent(out, "Offset", f[4], "Size", f[5], "byte count");
  unsigned_field(f[6], "ResponseTime");
  return true;
}

}  // namespace ssd::tb
