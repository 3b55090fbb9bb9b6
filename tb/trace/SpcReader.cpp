#include "tb/trace/SpcReader.h"

#include <string_view>

namespace ssd::tb {

SpcReader::SpcReader(std::string path, const TraceOptions& opts)
    : TraceReader(std::move(path), "spc", kSeconds, "Timestamp", opts) {}

bool SpcReader::parse(TraceRecord& out) {
  if (!next_line()) return false;
  std::string_view f[5];  // ASU, LBA, Size, Opcode, Timestamp
  split_record(f, 5);
  out.volume = unsigned_field(f[0], "ASU");
  out.offset_bytes = sectors_field(f[1], "LBA");
  out.length_bytes = unsigned_field(f[2], "Size");
  check_extent(out, "LBA", f[1], "Size", f[2], "byte count");
  out.op = op_field(f[3], "Opcode", "r", "w", "expected r or w");
  out.time = time_field(f[4]);
  return true;
}

}  // namespace ssd::tb
