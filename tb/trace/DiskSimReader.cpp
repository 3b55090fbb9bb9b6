#include "tb/trace/DiskSimReader.h"

#include <string_view>

namespace ssd::tb {

DiskSimReader::DiskSimReader(std::string path, const TraceOptions& opts)
    : TraceReader(std::move(path), "disksim", time_unit_named(opts.time_unit), "time", opts) {}

bool DiskSimReader::parse(TraceRecord& out) {
  if (!next_line()) return false;
  std::string_view f[5];  // time, devno, lba, size, flags
  split_blank_record(f, 5);
  out.time = time_field(f[0]);
  out.volume = unsigned_field(f[1], "devno");
  out.offset_bytes = sectors_field(f[2], "lba");
  out.length_bytes = sectors_field(f[3], "size");
  check_extent(out, "lba", f[2], "size", f[3], "sector count");
  out.op = (unsigned_field(f[4], "flags") & 1) != 0 ? IoOp::Read : IoOp::Write;
  return true;
}

}  // namespace ssd::tb
