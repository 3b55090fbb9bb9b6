#include "tb/trace/TraceCli.h"

#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include "common/Errors.h"
#include "tb/trace/TextFields.h"
#include "tb/trace/TraceFactory.h"

namespace ssd::tb {

namespace po = boost::program_options;

namespace {

constexpr double kPsPerSecond = 1e12;

// Values are taken as text and parsed here: program_options would accept "-1" for an
// unsigned (wrapping it) and "nan" for a double. What the readers check themselves (a zero
// sector size, an empty time window) is left to them.
[[noreturn]] void bad(const char* flag, const std::string& reason) {
  throw UsageError(std::string("--") + flag + ": " + reason);
}

uint64_t unsigned_flag(const po::variables_map& vm, const char* flag) {
  const std::string& text = vm[flag].as<std::string>();
  uint64_t value = 0;
  if (const char* reason = parse_unsigned(text, value)) bad(flag, reason + got(text));
  return value;
}

uint64_t bytes_flag(const po::variables_map& vm, const char* flag) {
  const std::string& text = vm[flag].as<std::string>();
  uint64_t value = 0;
  if (const char* reason = parse_bytes(text, value)) bad(flag, reason + got(text));
  return value;
}

double number_flag(const po::variables_map& vm, const char* flag) {
  const std::string& text = vm[flag].as<std::string>();
  double value = 0;
  if (const char* reason = parse_double(text, value)) bad(flag, reason + got(text));
  return value;
}

uint64_t picoseconds_flag(const po::variables_map& vm, const char* flag) {
  const double ps = std::round(number_flag(vm, flag) * kPsPerSecond);
  // 2^64 ps is about 213 days, longer than any simulation can run.
  return ps >= 0x1p64 ? std::numeric_limits<uint64_t>::max() : static_cast<uint64_t>(ps);
}

// "N" or "MAJ:MIN" (the device numbers of FIU and blkparse traces).
uint64_t volume_id(std::string_view text) {
  const size_t colon = text.find(':');
  uint64_t major = 0;
  uint64_t minor = 0;
  if (colon == std::string_view::npos) {
    if (parse_unsigned(text, major) == nullptr) return major;
  } else if (parse_unsigned(text.substr(0, colon), major) == nullptr &&
             parse_unsigned(text.substr(colon + 1), minor) == nullptr && major >> 32 == 0 &&
             minor >> 32 == 0) {
    return major << 32 | minor;
  }
  bad("volume", "expected a volume number or MAJOR:MINOR device numbers" + got(text));
}

}  // namespace

po::options_description trace_input_options() {
  po::options_description o("Trace input (docs/trace-formats.md)");
  // One option per line:
  // clang-format off
  o.add_options()
      ("format,f", po::value<std::string>()->default_value("auto"),
       (std::string("trace format: auto (detect from the first record), ") + trace_formats())
           .c_str())
      ("time-unit", po::value<std::string>()->default_value("ns"),
       "disksim: unit of the time field: ns, us, ms or s")
      ("blkparse-event", po::value<std::string>()->default_value("Q"),
       "blkparse: the event that issues a request: Q (queued) or D (dispatched)")
      ("sector-bytes", po::value<std::string>()->default_value("512"),
       "bytes per sector of the formats that count sectors (spc LBA, disksim, fiu, blkparse)")
      ("volume", po::value<std::string>(),
       "keep only these volumes (ASU, disk, devno; MAJ:MIN for fiu and blkparse): N[,N...]")
      ("start-s", po::value<std::string>(),
       "skip records less than this many seconds after the first record")
      ("end-s", po::value<std::string>(),
       "stop at the first record this many seconds or more after the first record")
      ("max-requests", po::value<std::string>(),
       "stop after this many requests (also caps --workload-file)")
      ("skip-bad-lines", "count and skip malformed lines instead of stopping (see report.json)")
      ("reorder-window", po::value<std::string>()->default_value("0"),
       "sort records within a window of N; 0: a record out of time order is an error");
  // clang-format on
  return o;
}

po::options_description trace_replay_options() {
  po::options_description o("Trace replay");
  // One option per line:
  // clang-format off
  o.add_options()
      ("volume-map", po::value<std::string>()->default_value("overlap"),
       "overlap: every volume addresses the whole drive; concat: each volume gets an equal slice")
      ("volumes", po::value<std::string>(),
       "concat: number of slices (default: the --volume list, else a first pass counts them)")
      ("fit", po::value<std::string>()->default_value("wrap"),
       "requests beyond the drive (or the volume's slice): wrap (modulo) or scale (shrink "
       "every offset by capacity / trace capacity)")
      ("trace-capacity", po::value<std::string>(),
       "scale: bytes the trace addresses (per volume; default: a first pass measures it)")
      ("time-scale", po::value<std::string>()->default_value("1"),
       "multiply inter-arrival times by X (0.5: twice as fast)")
      ("closed-loop", "ignore timestamps: keep --qd requests outstanding")
      ("qd", po::value<std::string>(),
       "host outstanding-request limit (closed loop: default 1; open loop: default none)")
      ("align-to-page",
       "round requests out to whole flash pages (else partial pages are read-modify-written)");
  // clang-format on
  return o;
}

TraceOptions trace_options(const po::variables_map& vm) {
  TraceOptions o;
  const auto has = [&vm](const char* flag) { return vm.count(flag) != 0; };
  if (has("format")) o.format = vm["format"].as<std::string>();
  if (has("time-unit")) o.time_unit = vm["time-unit"].as<std::string>();
  if (has("blkparse-event")) {
    const std::string& e = vm["blkparse-event"].as<std::string>();
    if (e != "Q" && e != "D") bad("blkparse-event", "expected Q or D" + got(e));
    o.blkparse_event = e.front();
  }
  if (has("sector-bytes")) o.sector_bytes = bytes_flag(vm, "sector-bytes");
  if (has("volume")) {
    std::string_view list = vm["volume"].as<std::string>();
    for (;;) {
      const size_t comma = list.find(',');
      o.volumes.push_back(volume_id(list.substr(0, comma)));
      if (comma == std::string_view::npos) break;
      list.remove_prefix(comma + 1);
    }
  }
  if (has("start-s")) o.start_ps = picoseconds_flag(vm, "start-s");
  if (has("end-s")) o.end_ps = picoseconds_flag(vm, "end-s");
  if (has("max-requests")) {
    o.max_requests = unsigned_flag(vm, "max-requests");
    if (o.max_requests == 0) bad("max-requests", "expected at least 1");
  }
  o.skip_bad_lines = has("skip-bad-lines");
  if (has("reorder-window")) o.reorder_window = unsigned_flag(vm, "reorder-window");

  if (has("volume-map")) {
    const std::string& m = vm["volume-map"].as<std::string>();
    if (m == "concat") {
      o.volume_map = VolumeMap::kConcat;
    } else if (m != "overlap") {
      bad("volume-map", "expected overlap or concat" + got(m));
    }
  }
  if (has("volumes")) {
    const uint64_t n = unsigned_flag(vm, "volumes");
    if (n == 0 || n > std::numeric_limits<uint32_t>::max()) {
      bad("volumes", "expected 1 to 4294967295 volumes" + got(vm["volumes"].as<std::string>()));
    }
    if (o.volume_map != VolumeMap::kConcat) bad("volumes", "applies only to --volume-map concat");
    o.volume_count = static_cast<uint32_t>(n);
  }
  if (has("fit")) {
    const std::string& f = vm["fit"].as<std::string>();
    if (f == "scale") {
      o.fit = Fit::kScale;
    } else if (f != "wrap") {
      bad("fit", "expected wrap or scale" + got(f));
    }
  }
  if (has("trace-capacity")) {
    if (o.fit != Fit::kScale) bad("trace-capacity", "applies only to --fit scale");
    o.trace_capacity = bytes_flag(vm, "trace-capacity");
    if (o.trace_capacity == 0) bad("trace-capacity", "expected a positive byte count");
  }
  if (has("time-scale")) o.time_scale = number_flag(vm, "time-scale");
  o.closed_loop = has("closed-loop");
  if (o.closed_loop) o.queue_depth = 1;
  if (has("qd")) {
    const uint64_t qd = unsigned_flag(vm, "qd");
    if (qd == 0 || qd > std::numeric_limits<uint32_t>::max()) {
      bad("qd", "expected 1 to 4294967295 outstanding requests" + got(vm["qd"].as<std::string>()));
    }
    o.queue_depth = static_cast<uint32_t>(qd);
  }
  o.align_to_page = has("align-to-page");
  return o;
}

}  // namespace ssd::tb
