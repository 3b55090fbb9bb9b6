#include "tb/CsvTraceReader.h"

#include <limits>
#include <string_view>

namespace ssd::tb {

namespace {
constexpr uint64_t kNsPerSecond = 1'000'000'000;
}  // namespace

CsvTraceReader::CsvTraceReader(std::string path)
    : TraceReader(std::move(path), "csv", TimeUnit::kNanoseconds) {
  // A file without any line is an empty trace, like an empty SPC file.
  if (next_line() && line() != kHeader) {
    fail("header", std::string("expected \"") + kHeader + "\"" + got(line()));
  }
}

bool CsvTraceReader::next(HostRequest& out) {
  if (!next_line()) return false;
  std::string_view f[4];  // time_ns, op, offset, length
  split_record(f, 4);
  const uint64_t ns = unsigned_field(f[0], "time_ns");
  const std::string_view op = f[1];
  if (iequals(op, "read") || iequals(op, "r")) {
    out.op = IoOp::Read;
  } else if (iequals(op, "write") || iequals(op, "w")) {
    out.op = IoOp::Write;
  } else if (iequals(op, "trim") || iequals(op, "t")) {
    out.op = IoOp::Trim;
  } else {
    fail("op", "expected read, write or trim (or R, W, T)" + got(op));
  }
  const uint64_t offset = unsigned_field(f[2], "offset");
  if (offset % kSectorBytes != 0) fail("offset", "expected a multiple of 512 bytes" + got(f[2]));
  const uint64_t length = unsigned_field(f[3], "length");
  if (length == 0 || length % kSectorBytes != 0) {
    fail("length", "expected a positive multiple of 512 bytes" + got(f[3]));
  }
  if (offset > std::numeric_limits<uint64_t>::max() - length) {
    fail("offset", "request ends beyond 2^64 bytes" + got(f[2]));
  }
  out.arrival = arrival({ns / kNsPerSecond, ns % kNsPerSecond * 1000}, "time_ns");
  out.offset_bytes = offset;
  out.length_bytes = length;
  return true;
}

}  // namespace ssd::tb
