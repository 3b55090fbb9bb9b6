#include "tb/trace/DiskSimReader.h"

#include <string_view>

namespace ssd::tb {

DiskSimReader::DiskSimReader(std::string path, const TraceOptions& opts)
    : TraceReader(std::move(path), "disksim", time_unit_named(opts.time_unit), "time", opts) {}

Parsed DiskSimReader::parse(TraceRecord& out) {
  if (!next_line()) return Parsed::kEnd;
  std::string_view f[5];  // time, devno, lba, size, flags
  uint64_t flags = 0;
  const bool ok = split_blank_record(f, 5) && time_field(f[0], out.time) &&
                  unsigned_field(f[1], "devno", out.volume) &&
                  sectors_field(f[2], "lba", out.offset_bytes) &&
                  sectors_field(f[3], "size", out.length_bytes) &&
                  check_extent(out, "lba", f[2], "size", f[3], "sector count") &&
                  unsigned_field(f[4], "flags", flags);
  out.op = (flags & 1) != 0 ? IoOp::Read : IoOp::Write;
  return record_if(ok);
}

}  // namespace ssd::tb
