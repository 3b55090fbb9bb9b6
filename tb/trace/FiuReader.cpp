#include "tb/trace/FiuReader.h"

#include <string_view>

namespace ssd::tb {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  const char lower = static_cast<char>(c | 0x20);
  if (lower >= 'a' && lower <= 'f') return lower - 'a' + 10;
  return -1;
}

}  // namespace

FiuReader::FiuReader(std::string path, const TraceOptions& opts)
    : TraceReader(std::move(path), "fiu", kNanoseconds, "ts", opts) {}

bool FiuReader::parse(TraceRecord& out) {
  if (!next_line()) return false;
  std::string_view f[9];  // ts, pid, process, lba, size, rw, major, minor, md5
  split_blank_record(f, 9);
  out.time = time_of_units(unsigned_field(f[0], "ts"));
  unsigned_field(f[1], "pid");
  out.offset_bytes = sectors_field(f[3], "lba");
  out.length_bytes = sectors_field(f[4], "size");
  check_extent(out, "lba", f[3], "size", f[4], "sector count");
  out.op = op_field(f[5], "rw", "r", "w", "expected R or W");
  const uint64_t major = unsigned_field(f[6], "major");
  const uint64_t minor = unsigned_field(f[7], "minor");
  if (major >> 32 != 0) fail("major", "expected a device number below 2^32" + got(f[6]));
  if (minor >> 32 != 0) fail("minor", "expected a device number below 2^32" + got(f[7]));
  out.volume = major << 32 | minor;
  const std::string_view md5 = f[8];
  if (md5.size() != 2 * out.fingerprint.size())
    fail("md5", "expected 32 hexadecimal digits" + got(md5));
  for (size_t i = 0; i < out.fingerprint.size(); ++i) {
    const int high = hex_digit(md5[2 * i]);
    const int low = hex_digit(md5[2 * i + 1]);
    if (high < 0 || low < 0) fail("md5", "expected 32 hexadecimal digits" + got(md5));
    out.fingerprint[i] = static_cast<uint8_t>(high << 4 | low);
  }
  out.has_fingerprint = true;
  return true;
}

}  // namespace ssd::tb
