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

Parsed CsvTraceReader::parse(TraceRecord& out) {
  if (!next_line()) return Parsed::kEnd;
  std::string_view f[4];  // time_ns, op, offset, length
  uint64_t ns = 0;
  const bool ok =
      split_record(f, 4) && unsigned_field(f[0], "time_ns", ns) && op_of(f[1], out.op) &&
      bytes_field(f[2], "offset", "expected a multiple of 512 bytes", out.offset_bytes) &&
      bytes_field(f[3], "length", "expected a positive multiple of 512 bytes", out.length_bytes) &&
      check_extent(out, "offset", f[2], "length", f[3], "multiple of 512 bytes");
  out.time = time_of_units(ns);
  return record_if(ok);
}

bool CsvTraceReader::op_of(std::string_view text, IoOp& out) {
  if (iequals(text, "read") || iequals(text, "r")) {
    out = IoOp::Read;
  } else if (iequals(text, "write") || iequals(text, "w")) {
    out = IoOp::Write;
  } else if (iequals(text, "trim") || iequals(text, "t")) {
    out = IoOp::Trim;
  } else {
    return fail("op", "expected read, write or trim (or R, W, T)", text);
  }
  return true;
}

bool CsvTraceReader::bytes_field(std::string_view text, std::string_view field,
                                 const char* expected, uint64_t& out) {
  return unsigned_field(text, field, out) &&
         (out % kSectorBytes == 0 || fail(field, expected, text));
}

}  // namespace ssd::tb
