#include "tb/trace/TraceStats.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <ostream>
#include <utility>
#include <boost/program_options.hpp>

#include "common/Errors.h"
#include "tb/trace/TraceCli.h"
#include "tb/trace/TraceFactory.h"

namespace ssd::tb {

namespace {

namespace po = boost::program_options;

constexpr double kPsPerUs = 1e6;
constexpr double kKiB = 1024;

// The distinct pages touched: open addressing over one array of page numbers + 1 (0 marks a
// free slot), at most 3/4 full, so a page costs 11 to 21 bytes and no allocation of its own.
class PageSet {
 public:
  PageSet() : slots_(1024) {}

  void insert(uint64_t page) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    if (place(slots_, page + 1)) ++size_;
  }
  uint64_t size() const { return size_; }
  template <class F>
  void for_each(F f) const {
    for (const uint64_t key : slots_) {
      if (key != 0) f(key - 1);
    }
  }

 private:
  // True if `key` was not there yet.
  static bool place(std::vector<uint64_t>& slots, uint64_t key) {
    const size_t mask = slots.size() - 1;
    // A 64-bit finaliser (MurmurHash3's), so neighbouring pages spread over the table.
    uint64_t h = key;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      if (slots[i] == key) return false;
      if (slots[i] == 0) {
        slots[i] = key;
        return true;
      }
    }
  }
  void grow() {
    std::vector<uint64_t> bigger(slots_.size() * 2);
    for (const uint64_t key : slots_) {
      if (key != 0) place(bigger, key);
    }
    slots_.swap(bigger);
  }

  std::vector<uint64_t> slots_;  // a power of two long
  uint64_t size_ = 0;
};

// Counts of values in buckets 1/1024 wide relative to their value (exact below 2048): fixed
// memory whatever the number of samples. The buckets come in rows of 1024, one per power of
// two above 2048, each allocated when a value first falls in it: a single value near 2^64
// costs one row, not the 56 rows below it.
class LogHistogram {
 public:
  void add(uint64_t v) {
    const size_t i = index(v);
    std::vector<uint64_t>& row = rows_[i / kSub];
    if (row.empty()) row.resize(kSub);
    ++row[i % kSub];
    ++count_;
  }
  // The nearest-rank percentile, as the lower bound of its bucket.
  uint64_t percentile(double p) const {
    if (count_ == 0) return 0;
    uint64_t rank = static_cast<uint64_t>(std::ceil(p * static_cast<double>(count_)));
    rank = std::max<uint64_t>(rank, 1);
    uint64_t seen = 0;
    size_t last = 0;
    for (size_t r = 0; r < kRows; ++r) {
      for (size_t j = 0; j < rows_[r].size(); ++j) {
        seen += rows_[r][j];
        last = r * kSub + j;
        if (seen >= rank) return lower_bound(last);
      }
    }
    return lower_bound(last);
  }

 private:
  static constexpr int kSubBits = 10;
  static constexpr uint64_t kExact = uint64_t{2} << kSubBits;  // 2048
  static constexpr uint64_t kSub = uint64_t{1} << kSubBits;    // 1024

  static size_t index(uint64_t v) {
    if (v < kExact) return v;
    const int shift = 64 - __builtin_clzll(v) - (kSubBits + 1);  // >= 1
    return kExact + (shift - 1) * kSub + ((v >> shift) - kSub);
  }
  static uint64_t lower_bound(size_t i) {
    if (i < kExact) return i;
    const size_t j = i - kExact;
    return (kSub + j % kSub) << (j / kSub + 1);
  }

  // index(2^64 - 1) / kSub + 1: the rows of exact values, then one per power of two.
  static constexpr size_t kRows = kExact / kSub + (64 - (kSubBits + 1));
  std::array<std::vector<uint64_t>, kRows> rows_;
  uint64_t count_ = 0;
};

double percent(uint64_t part, uint64_t whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

nlohmann::ordered_json average_kib(uint64_t bytes, uint64_t count) {
  if (count == 0) return nullptr;
  return static_cast<double>(bytes) / static_cast<double>(count) / kKiB;
}

double us(uint64_t ps) { return static_cast<double>(ps) / kPsPerUs; }

// A request of more pages than this counts as one range instead of page by page, so a
// record of 2^63 bytes takes no time and no memory.
constexpr uint64_t kLargeRequestPages = 1024;

// The distinct pages touched: small requests page by page, large ones as ranges of pages.
class Footprint {
 public:
  void add(uint64_t offset, uint64_t length) {
    const uint64_t first = offset / kFootprintPageBytes;
    const uint64_t last = (offset + length - 1) / kFootprintPageBytes;  // offset + length < 2^64
    if (last - first >= kLargeRequestPages) {
      ranges_.emplace_back(first, last);
      return;
    }
    for (uint64_t page = first; page <= last; ++page) pages_.insert(page);
  }

  // Pages in the union of the ranges, plus the single pages outside them.
  uint64_t pages() {
    std::sort(ranges_.begin(), ranges_.end());
    std::vector<std::pair<uint64_t, uint64_t>> merged;
    for (const auto& r : ranges_) {
      if (!merged.empty() && r.first <= merged.back().second + 1) {
        merged.back().second = std::max(merged.back().second, r.second);
      } else {
        merged.push_back(r);
      }
    }
    uint64_t count = 0;
    for (const auto& [first, last] : merged) count += last - first + 1;
    pages_.for_each([&](uint64_t page) {
      const auto after =
          std::upper_bound(merged.begin(), merged.end(), std::make_pair(page, ~uint64_t{0}));
      if (after == merged.begin() || std::prev(after)->second < page) ++count;
    });
    return count;
  }

 private:
  PageSet pages_;
  std::vector<std::pair<uint64_t, uint64_t>> ranges_;  // [first, last] pages
};

// Adds a request's bytes to a total; a sum beyond 2^64 - 1 bytes (16 EiB) is no real trace.
void add_bytes(uint64_t& total, uint64_t bytes, const char* what, const std::string& file) {
  if (bytes > std::numeric_limits<uint64_t>::max() - total) {
    throw InputError(file + ": " + what +
                     " bytes add up beyond 2^64 - 1 (16 EiB): not a real trace");
  }
  total += bytes;
}

}  // namespace

TraceStats compute_trace_stats(TraceReader& reader) {
  TraceStats s;
  s.file = reader.path();
  Footprint footprint;
  LogHistogram gaps;
  uint64_t next_offset[3] = {};  // per kind: where its previous request ended
  bool seen_kind[3] = {};
  uint64_t previous_ps = 0;
  unsigned __int128 gap_sum = 0;
  HostRequest r;
  while (reader.next(r)) {
    // sc_time values count the kernel's time resolution, 1 ps: the SystemC default, which
    // the simulator keeps.
    const uint64_t at = r.arrival.value();
    if (s.requests != 0) {
      const uint64_t gap = at - previous_ps;
      gaps.add(gap);
      gap_sum += gap;
      s.interarrival_ps.max = std::max(s.interarrival_ps.max, gap);
    }
    previous_ps = at;
    s.span_ps = at;
    ++s.requests;
    const auto kind = static_cast<size_t>(r.op);
    switch (r.op) {
      case IoOp::Read:
        ++s.reads;
        add_bytes(s.read_bytes, r.length_bytes, "read", s.file);
        break;
      case IoOp::Write:
        ++s.writes;
        add_bytes(s.write_bytes, r.length_bytes, "write", s.file);
        break;
      case IoOp::Trim:
        ++s.trims;
        add_bytes(s.trim_bytes, r.length_bytes, "trim", s.file);
        break;
      case IoOp::Flush:
        ++s.flushes;
        continue;
      case IoOp::Append:  // no trace format has them
      case IoOp::ZoneManage:
      case IoOp::PlacementUpdate:
      case IoOp::ZoneReport:
        continue;
    }
    if (r.fua) ++s.fua_writes;
    if (seen_kind[kind] && next_offset[kind] == r.offset_bytes) ++s.sequential;
    seen_kind[kind] = true;
    next_offset[kind] = r.offset_bytes + r.length_bytes;
    footprint.add(r.offset_bytes, r.length_bytes);
  }
  s.counters = reader.counters();
  reader.add_warnings(s.warnings);
  s.footprint_pages = footprint.pages();
  if (s.requests > 1) {
    s.interarrival_ps.mean =
        static_cast<double>(static_cast<long double>(gap_sum) / (s.requests - 1));
    s.interarrival_ps.p50 = gaps.percentile(0.50);
    s.interarrival_ps.p90 = gaps.percentile(0.90);
    s.interarrival_ps.p99 = gaps.percentile(0.99);
  }
  return s;
}

nlohmann::ordered_json to_json(const TraceStats& s) {
  const TraceCounters& c = s.counters;
  nlohmann::ordered_json j;
  j["file"] = s.file;
  j["format"] = c.format;
  j["detected"] = c.detected;
  j["requests"] = s.requests;
  j["reads"] = s.reads;
  j["writes"] = s.writes;
  j["trims"] = s.trims;
  j["flushes"] = s.flushes;
  j["fua_writes"] = s.fua_writes;
  // Of the requests that move data, as the founding study's workload table counts them.
  j["read_pct"] = percent(s.reads, s.requests - s.flushes);
  j["sequential_pct"] = percent(s.sequential, s.requests - s.flushes);
  j["avg_read_kib"] = average_kib(s.read_bytes, s.reads);
  j["avg_write_kib"] = average_kib(s.write_bytes, s.writes);
  j["avg_trim_kib"] = average_kib(s.trim_bytes, s.trims);
  j["read_bytes"] = s.read_bytes;
  j["write_bytes"] = s.write_bytes;
  j["trim_bytes"] = s.trim_bytes;
  j["footprint_pages"] = s.footprint_pages;
  // Every page of the 2^64-byte address space is one page more than 2^64 - 1 bytes.
  constexpr uint64_t kMaxExactPages = std::numeric_limits<uint64_t>::max() / kFootprintPageBytes;
  j["footprint_bytes"] =
      s.footprint_pages <= kMaxExactPages
          ? nlohmann::ordered_json(s.footprint_pages * kFootprintPageBytes)
          : nlohmann::ordered_json(double(s.footprint_pages) * kFootprintPageBytes);
  j["span_s"] = static_cast<double>(s.span_ps) / 1e12;
  j["interarrival_us"] = {{"mean", s.interarrival_ps.mean / kPsPerUs},
                          {"p50", us(s.interarrival_ps.p50)},
                          {"p90", us(s.interarrival_ps.p90)},
                          {"p99", us(s.interarrival_ps.p99)},
                          {"max", us(s.interarrival_ps.max)}};
  j["records"] = c.records;
  j["ignored_lines"] = c.ignored;
  j["skipped_lines"] = c.skipped;
  j["skipped_messages"] = c.skipped_messages;
  j["other_volumes"] = c.other_volumes;
  j["before_start"] = c.before_start;
  j["reordered"] = c.reordered;
  j["stopped_early"] = c.stopped_early;
  j["warnings"] = s.warnings;
  return j;
}

std::string to_text(const TraceStats& s) {
  const nlohmann::ordered_json j = to_json(s);
  const auto kib = [](const nlohmann::ordered_json& v, const char* format) {
    char buf[32];
    if (v.is_null()) return std::string("-");
    std::snprintf(buf, sizeof buf, format, v.get<double>());
    return std::string(buf);
  };
  std::string out;
  char buf[512];
  const auto line = [&](const char* format, auto... args) {
    std::snprintf(buf, sizeof buf, format, args...);
    out += buf;
  };
  const auto n = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  line("trace-stats %s (%s%s)\n", s.file.c_str(), s.counters.format.c_str(),
       s.counters.detected ? ", detected" : "");
  line("  requests       %llu (read %llu, write %llu, trim %llu)\n", n(s.requests), n(s.reads),
       n(s.writes), n(s.trims));
  line("  read           %.2f %%\n", j["read_pct"].get<double>());
  line("  sequential     %.2f %% (start where the previous request of the same kind ended)\n",
       j["sequential_pct"].get<double>());
  line("  avg read       %s KiB\n", kib(j["avg_read_kib"], "%.2f").c_str());
  line("  avg write      %s KiB\n", kib(j["avg_write_kib"], "%.2f").c_str());
  if (s.trims != 0) line("  avg trim       %s KiB\n", kib(j["avg_trim_kib"], "%.2f").c_str());
  if (s.flushes != 0 || s.fua_writes != 0)
    line("  durability     %llu flushes, %llu FUA writes\n", n(s.flushes), n(s.fua_writes));
  line("  footprint      %llu distinct 4 KiB pages (%.2f MiB)\n", n(s.footprint_pages),
       static_cast<double>(s.footprint_pages * kFootprintPageBytes) / (kKiB * kKiB));
  line("  span           %.6f s\n", j["span_s"].get<double>());
  const auto& ia = j["interarrival_us"];
  line("  inter-arrival  us: mean %.6g, p50 %.6g, p90 %.6g, p99 %.6g, max %.6g\n",
       ia["mean"].get<double>(), ia["p50"].get<double>(), ia["p90"].get<double>(),
       ia["p99"].get<double>(), ia["max"].get<double>());
  line("  lines          %llu records, %llu ignored, %llu bad lines skipped\n",
       n(s.counters.records), n(s.counters.ignored), n(s.counters.skipped));
  for (const std::string& m : s.counters.skipped_messages) line("    skipped: %s\n", m.c_str());
  const size_t slash = s.file.find_last_of('/');
  const std::string name = slash == std::string::npos ? s.file : s.file.substr(slash + 1);
  out += "\n| workload | read % | sequential % | avg read KB | avg write KB |\n";
  out += "|---|---|---|---|---|\n";
  line("| %s | %.1f | %.1f | %s | %s |\n", name.c_str(), j["read_pct"].get<double>(),
       j["sequential_pct"].get<double>(), kib(j["avg_read_kib"], "%.1f").c_str(),
       kib(j["avg_write_kib"], "%.1f").c_str());
  return out;
}

int trace_stats_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  po::options_description visible(
      "Usage: ssdtlm trace-stats FILE [--format F] [--json] [options]\n\n"
      "Request count, read %, sequential % (a request that starts where the previous request\n"
      "of the same kind ended), average read and write size, footprint (distinct 4 KiB\n"
      "pages), span and inter-arrival times of a trace, in one streaming pass.\n\nOptions");
  visible.add_options()("help,h", "show this help")("json", "print JSON instead of text");
  visible.add(trace_input_options());
  po::options_description all;
  all.add(visible).add_options()("file", po::value<std::string>(), "the trace");
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    err << "ssdtlm: error: trace-stats: " << e.what() << " (see trace-stats --help)\n";
    return 2;
  }
  if (vm.count("help") || args.empty()) {
    (args.empty() ? err : out) << visible << '\n';
    return args.empty() ? 2 : 0;
  }
  if (!vm.count("file")) {
    err << "ssdtlm: error: trace-stats: give the trace FILE (see trace-stats --help)\n";
    return 2;
  }
  try {
    const std::unique_ptr<TraceReader> reader =
        open_trace(vm["file"].as<std::string>(), trace_options(vm));
    if (reader->counters().detected) {
      err << "ssdtlm: trace format: " << reader->counters().format << " (detected)\n";
    }
    const TraceStats stats = compute_trace_stats(*reader);
    for (const std::string& w : stats.warnings) err << "ssdtlm: warning: " << w << '\n';
    if (vm.count("json")) {
      out << to_json(stats).dump(2) << '\n';
    } else {
      out << to_text(stats);
    }
    return 0;
  } catch (const UsageError& e) {
    err << "ssdtlm: error: " << e.what() << '\n';
    return 2;
  } catch (const InputError& e) {
    err << "ssdtlm: error: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace ssd::tb
