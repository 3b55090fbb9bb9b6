#include "tb/trace/CsvTraceReader.h"

#include <string_view>

namespace ssd::tb {

CsvTraceReader::CsvTraceReader(std::string path, const TraceOptions& opts)
    : TraceReader(std::move(path), "csv", kNanoseconds, "time_ns", opts) {
  // A file without any line is an empty trace, like an empty SPC file. Without the header
  // it is not this format: no line of it can be trusted, so this stops even --skip-bad-lines.
  if (next_line() && line() != kHeader) {
    throw InputError(where("header", std::string("expected \"") + kHeader + "\"" + got(line())));
  }
}

bool CsvTraceReader::parse(TraceRecord& out) {
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
  // Bytes, whatever --sector-bytes says, but whole 512-byte sectors.
  out.offset_bytes = unsigned_field(f[2], "offset");
  if (out.offset_bytes % kSectorBytes != 0) {
    fail("offset", "expected a multiple of 512 bytes" + got(f[2]));
  }
  out.length_bytes = unsigned_field(f[3], "length");
  if (out.length_bytes % kSectorBytes != 0) {
    fail("length", "expected a positive multiple of 512 bytes" + got(f[3]));
  }
  check_extent(out, "offset", f[2], "length", f[3], "multiple of 512 bytes");
  out.time = time_of_units(ns);
  return true;
}

}  // namespace ssd::tb
