#include "tb/trace/SpcReader.h"

#include <string_view>

namespace ssd::tb {

SpcReader::SpcReader(std::string path, const TraceOptions& opts)
    : TraceReader(std::move(path), "spc", kSeconds, "Timestamp", opts) {}

Parsed SpcReader::parse(TraceRecord& out) {
  if (!next_line()) return Parsed::kEnd;
  std::string_view f[5];  // ASU, LBA, Size, Opcode, Timestamp
  return record_if(split_record(f, 5) && unsigned_field(f[0], "ASU", out.volume) &&
                   sectors_field(f[1], "LBA", out.offset_bytes) &&
                   unsigned_field(f[2], "Size", out.length_bytes) &&
                   check_extent(out, "LBA", f[1], "Size", f[2], "byte count") &&
                   op_field(f[3], "Opcode", "r", "w", "expected r or w", out.op) &&
                   time_field(f[4], out.time));
}

}  // namespace ssd::tb
