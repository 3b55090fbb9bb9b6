#include "tb/SpcReader.h"

#include <limits>
#include <string_view>

namespace ssd::tb {

SpcReader::SpcReader(std::string path) : TraceReader(std::move(path), "spc", TimeUnit::kSeconds) {}

bool SpcReader::next(HostRequest& out) {
  if (!next_line()) return false;
  std::string_view f[5];  // ASU, LBA, Size, Opcode, Timestamp
  split_record(f, 5);
  unsigned_field(f[0], "ASU");
  const uint64_t lba = unsigned_field(f[1], "LBA");
  const uint64_t size = unsigned_field(f[2], "Size");
  if (size == 0) fail("Size", "expected a positive byte count" + got(f[2]));
  if (lba > (std::numeric_limits<uint64_t>::max() - size) / kSectorBytes) {
    fail("LBA", "request ends beyond 2^64 bytes" + got(f[1]));
  }
  if (iequals(f[3], "r")) {
    out.op = IoOp::Read;
  } else if (iequals(f[3], "w")) {
    out.op = IoOp::Write;
  } else {
    fail("Opcode", "expected r or w" + got(f[3]));
  }
  out.arrival = arrival(seconds_field(f[4], "Timestamp"), "Timestamp");
  out.offset_bytes = lba * kSectorBytes;
  out.length_bytes = size;
  return true;
}

}  // namespace ssd::tb
