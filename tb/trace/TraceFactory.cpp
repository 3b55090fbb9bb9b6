#include "tb/trace/TraceFactory.h"

#include <algorithm>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "common/Errors.h"
#include "tb/trace/BlkparseReader.h"
#include "tb/trace/CsvTraceReader.h"
#include "tb/trace/DiskSimReader.h"
#include "tb/trace/FiuReader.h"
#include "tb/trace/LineReader.h"
#include "tb/trace/MsrReader.h"
#include "tb/trace/SpcReader.h"

namespace ssd::tb {

namespace {

template <class Reader>
std::unique_ptr<TraceReader> make(const std::string& path, const TraceOptions& opts) {
  return std::make_unique<Reader>(path, opts);
}

struct Format {
  const char* name;
  std::unique_ptr<TraceReader> (*open)(const std::string&, const TraceOptions&);
};

constexpr Format kFormats[] = {
    {"spc", make<SpcReader>}, {"csv", make<CsvTraceReader>}, {"disksim", make<DiskSimReader>},
    {"msr", make<MsrReader>}, {"fiu", make<FiuReader>},      {"blkparse", make<BlkparseReader>}};

bool is_number(std::string_view s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
}

// "maj,min"
bool is_device(std::string_view s) {
  const size_t comma = s.find(',');
  uint64_t n = 0;
  return comma != std::string_view::npos && parse_unsigned(s.substr(0, comma), n) == nullptr &&
         parse_unsigned(s.substr(comma + 1), n) == nullptr;
}

// The format a record line is written in, or nullptr. The layouts differ enough in their
// separators, field counts and op spellings that one line decides.
const char* format_of(std::string_view line) {
  std::string_view f[10];
  if (line == CsvTraceReader::kHeader) return "csv";
  const size_t commas = split(line, ",", f, 10);
  if (commas == 7 && (iequals(f[3], "read") || iequals(f[3], "write"))) return "msr";
  if (commas == 5 && (iequals(f[3], "r") || iequals(f[3], "w"))) return "spc";
  const size_t blanks = split_blanks(line, f, 10);
  if (blanks == 9 && (iequals(f[5], "r") || iequals(f[5], "w")) && f[8].size() == 32) {
    return "fiu";
  }
  if (blanks >= 7 && is_device(f[0])) return "blkparse";
  if (blanks == 5 && std::all_of(f, f + 5, is_number)) return "disksim";
  return nullptr;
}

// The extent of the trace and its volumes in order of first appearance, for the options
// that need them before the replay starts.
struct Extent {
  uint64_t end = 0;
  std::vector<uint64_t> volumes;
};

Extent first_pass(const Format& format, const std::string& path, const TraceOptions& opts) {
  TraceOptions plain = opts;  // the records as the file has them, bad lines as asked
  plain.capacity_bytes = 0;
  plain.align_to_page = false;
  const std::unique_ptr<TraceReader> reader = format.open(path, plain);
  Extent extent;
  std::unordered_set<uint64_t> seen;
  TraceRecord r;
  while (reader->next_record(r)) {
    extent.end = std::max(extent.end, r.offset_bytes + r.length_bytes);
    if (seen.insert(r.volume).second) extent.volumes.push_back(r.volume);
  }
  return extent;
}

}  // namespace

const char* trace_formats() { return "spc, csv, disksim, msr, fiu, blkparse"; }

std::string detect_format(const std::string& path) {
  LineReader lines(path);
  std::string_view line;
  while (lines.next(line)) {
    const std::string_view content = trim_blanks(line);
    if (content.empty() || content.front() == '#') continue;
    if (const char* format = format_of(line)) return format;
    throw InputError(path + ":" + std::to_string(lines.line_number()) +
                     ": record: not a trace format ssdtlm knows (" + trace_formats() +
                     "); give --format" + got(line));
  }
  throw InputError(path + ": no record to detect the trace format from; give --format");
}

std::unique_ptr<TraceReader> open_trace(const std::string& path, TraceOptions opts) {
  const bool detect = opts.format == "auto";
  if (detect) opts.format = detect_format(path);
  const Format* format = nullptr;
  for (const Format& f : kFormats) {
    if (opts.format == f.name) format = &f;
  }
  if (format == nullptr) {
    throw UsageError("--format: unknown format '" + opts.format + "' (auto, " + trace_formats() +
                     ")");
  }
  if (opts.capacity_bytes != 0) {
    const bool measure = opts.fit == Fit::kScale && opts.trace_capacity == 0;
    const bool count =
        opts.volume_map == VolumeMap::kConcat && opts.volume_count == 0 && opts.volumes.empty();
    if (measure || count) {
      const Extent extent = first_pass(*format, path, opts);
      if (measure) opts.trace_capacity = std::max<uint64_t>(extent.end, 1);
      if (count) {
        opts.volumes = extent.volumes;
        if (opts.volumes.empty()) opts.volume_count = 1;  // an empty trace: one slice
      }
    }
  }
  std::unique_ptr<TraceReader> reader = format->open(path, opts);
  if (detect) reader->set_detected();
  return reader;
}

}  // namespace ssd::tb
