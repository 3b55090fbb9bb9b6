#pragma once
// `ssdtlm trace-stats`: the figures that characterise a workload (the founding study's
// workload table, docs/trace-formats.md) from one streaming pass over a trace.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

#include "tb/trace/TraceReader.h"

namespace ssd::tb {

struct TraceStats {
  std::string file;
  TraceCounters counters;
  uint64_t requests = 0, reads = 0, writes = 0, trims = 0, flushes = 0;
  uint64_t fua_writes = 0;  // writes marked force unit access
  uint64_t read_bytes = 0, write_bytes = 0, trim_bytes = 0;
  // Requests that start where the previous request of the same kind (read, write or trim)
  // ended; the first of each kind is not sequential. Flushes move no data and are neither.
  uint64_t sequential = 0;
  uint64_t footprint_pages = 0;  // distinct 4 KiB pages touched
  uint64_t span_ps = 0;          // last arrival - first arrival
  // Inter-arrival times (requests - 1 of them), in picoseconds. Mean and max are exact; the
  // percentiles (nearest rank) are within 1/1024 below the exact value.
  struct {
    double mean = 0;
    uint64_t p50 = 0, p90 = 0, p99 = 0, max = 0;
  } interarrival_ps;
  std::vector<std::string> warnings;  // the reader's (e.g. gzip data left unverified)
};

inline constexpr uint64_t kFootprintPageBytes = 4096;

// Reads `reader` to its end. Memory grows only with the footprint (about 16 bytes per
// distinct page) and the reorder window.
TraceStats compute_trace_stats(TraceReader& reader);

nlohmann::ordered_json to_json(const TraceStats& s);
std::string to_text(const TraceStats& s);

// The subcommand: `args` are the words after "trace-stats". Prints to `out`, errors to `err`
// ("ssdtlm: error: ..."); returns the exit status (0, 1 bad input, 2 usage).
int trace_stats_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace ssd::tb
