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

Parsed FiuReader::parse(TraceRecord& out) {
  if (!next_line()) return Parsed::kEnd;
  std::string_view f[9];  // ts, pid, process, lba, size, rw, major, minor, md5
  uint64_t ns = 0;
  uint64_t pid = 0;  // checked, not used
  uint64_t major = 0;
  uint64_t minor = 0;
  const bool ok = split_blank_record(f, 9) && unsigned_field(f[0], "ts", ns) &&
                  unsigned_field(f[1], "pid", pid) &&
                  sectors_field(f[3], "lba", out.offset_bytes) &&
                  sectors_field(f[4], "size", out.length_bytes) &&
                  check_extent(out, "lba", f[3], "size", f[4], "sector count") &&
                  op_field(f[5], "rw", "r", "w", "expected R or W", out.op) &&
                  unsigned_field(f[6], "major", major) && unsigned_field(f[7], "minor", minor) &&
                  check_device(major, "major", f[6]) && check_device(minor, "minor", f[7]) &&
                  md5_field(f[8], out.fingerprint);
  out.time = time_of_units(ns);
  out.volume = major << 32 | minor;
  out.has_fingerprint = true;
  return record_if(ok);
}

bool FiuReader::check_device(uint64_t number, std::string_view field, std::string_view text) {
  return number >> 32 == 0 || fail(field, "expected a device number below 2^32", text);
}

bool FiuReader::md5_field(std::string_view text, Fingerprint& out) {
  bool hex = text.size() == 2 * out.size();
  for (size_t i = 0; hex && i < out.size(); ++i) {
    const int high = hex_digit(text[2 * i]);
    const int low = hex_digit(text[2 * i + 1]);
    hex = high >= 0 && low >= 0;
    if (hex) out[i] = static_cast<uint8_t>(high << 4 | low);
  }
  return hex || fail("md5", "expected 32 hexadecimal digits", text);
}

}  // namespace ssd::tb
