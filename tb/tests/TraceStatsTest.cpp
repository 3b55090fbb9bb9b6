// trace-stats: its figures on every shipped excerpt against an independent computation, its
// output, the memory of a 5-million-line trace, and the readers' speed.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>
#include <nlohmann/json.hpp>

#include "tb/tests/TraceTestUtil.h"
#include "tb/trace/TraceFactory.h"
#include "tb/trace/TraceStats.h"

namespace ssd::tb {
namespace {

using test::write_file;

// A record as the test parses it, independently of the readers.
struct Rec {
  uint64_t ps;
  char op;  // 'r' or 'w'
  uint64_t offset;
  uint64_t length;
};

uint64_t round_ps(long double v) { return static_cast<uint64_t>(std::llround(v)); }

// Each format parsed with stream extraction, which the readers do not use.
std::vector<Rec> parse_independently(const std::string& path, const std::string& format,
                                     long double ps_per_unit) {
  std::ifstream in(path);
  std::vector<Rec> recs;
  std::string line;
  uint64_t first_msr = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    Rec r{};
    if (format == "csv") {
      if (line == "time_ns,op,offset,length") continue;
      std::replace(line.begin(), line.end(), ',', ' ');
      std::istringstream s(line);
      std::string op;
      s >> r.ps >> op >> r.offset >> r.length;
      r.ps *= 1000;
      r.op = op == "read" ? 'r' : 'w';
    } else if (format == "spc") {
      std::replace(line.begin(), line.end(), ',', ' ');
      std::istringstream s(line);
      std::string asu, op, t;
      uint64_t lba = 0;
      s >> asu >> lba >> r.length >> op >> t;
      r.offset = lba * 512;
      r.op = static_cast<char>(std::tolower(op[0]));
      r.ps = round_ps(std::stold(t) * 1e12L);
    } else if (format == "disksim") {
      std::istringstream s(line);
      std::string t;
      uint64_t dev = 0, lba = 0, size = 0, flags = 0;
      s >> t >> dev >> lba >> size >> flags;
      r = {round_ps(std::stold(t) * ps_per_unit), (flags & 1) ? 'r' : 'w', lba * 512, size * 512};
    } else if (format == "msr") {
      std::replace(line.begin(), line.end(), ',', ' ');
      std::istringstream s(line);
      uint64_t ts = 0;
      std::string host, disk, type;
      s >> ts >> host >> disk >> type >> r.offset >> r.length;
      if (recs.empty()) first_msr = ts;
      r.ps = (ts - first_msr) * 100'000;
      r.op = type == "Read" ? 'r' : 'w';
    } else if (format == "fiu") {
      std::istringstream s(line);
      uint64_t ts = 0, pid = 0, lba = 0, size = 0;
      std::string process, rw;
      s >> ts >> pid >> process >> lba >> size >> rw;
      r = {ts * 1000, rw == "R" ? 'r' : 'w', lba * 512, size * 512};
    } else if (format == "blkparse") {
      std::istringstream s(line);
      std::string dev, cpu, seq, t, pid, action, rwbs, plus;
      uint64_t sector = 0, n = 0;
      s >> dev >> cpu >> seq >> t >> pid >> action >> rwbs >> sector >> plus >> n;
      r = {round_ps(std::stold(t) * 1e12L), rwbs.find('W') != std::string::npos ? 'w' : 'r',
           sector * 512, n * 512};
    }
    recs.push_back(r);
  }
  const uint64_t first = recs.empty() ? 0 : recs.front().ps;
  for (Rec& r : recs) r.ps -= first;
  return recs;
}

struct Figures {
  uint64_t requests = 0, reads = 0, writes = 0, sequential = 0, footprint = 0;
  uint64_t read_bytes = 0, write_bytes = 0, span_ps = 0;
  std::vector<uint64_t> gaps;  // sorted
};

Figures compute(const std::vector<Rec>& recs) {
  Figures f;
  std::unordered_set<uint64_t> pages;
  uint64_t end[2] = {};
  bool seen[2] = {};
  for (size_t i = 0; i < recs.size(); ++i) {
    const Rec& r = recs[i];
    const int k = r.op == 'w';
    ++f.requests;
    (k ? f.writes : f.reads) += 1;
    (k ? f.write_bytes : f.read_bytes) += r.length;
    if (seen[k] && end[k] == r.offset) ++f.sequential;
    seen[k] = true;
    end[k] = r.offset + r.length;
    for (uint64_t b = r.offset / 4096; b * 4096 < r.offset + r.length; ++b) pages.insert(b);
    if (i > 0) f.gaps.push_back(r.ps - recs[i - 1].ps);
  }
  f.footprint = pages.size();
  f.span_ps = recs.empty() ? 0 : recs.back().ps;
  std::sort(f.gaps.begin(), f.gaps.end());
  return f;
}

uint64_t nearest_rank(const std::vector<uint64_t>& sorted, double p) {
  const auto k = static_cast<size_t>(std::ceil(p * static_cast<double>(sorted.size())));
  return sorted[std::max<size_t>(k, 1) - 1];
}

nlohmann::json stats_json(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  EXPECT_EQ(trace_stats_main(args, out, err), 0) << err.str();
  return nlohmann::json::parse(out.str());
}

void check_excerpt(const std::string& file, const std::string& format, long double ps_per_unit,
                   const std::vector<std::string>& extra = {}) {
  SCOPED_TRACE(file);
  const std::string path = test::source_path("traces/" + file);
  std::vector<std::string> args = {path, "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const nlohmann::json j = stats_json(args);
  const Figures f = compute(parse_independently(path, format, ps_per_unit));
  EXPECT_EQ(j["format"], format);
  EXPECT_EQ(j["requests"], f.requests);
  EXPECT_EQ(j["reads"], f.reads);
  EXPECT_EQ(j["writes"], f.writes);
  EXPECT_DOUBLE_EQ(j["read_pct"].get<double>(), 100.0 * f.reads / f.requests);
  EXPECT_DOUBLE_EQ(j["sequential_pct"].get<double>(), 100.0 * f.sequential / f.requests);
  EXPECT_DOUBLE_EQ(j["avg_read_kib"].get<double>(), f.read_bytes / 1024.0 / f.reads);
  EXPECT_DOUBLE_EQ(j["avg_write_kib"].get<double>(), f.write_bytes / 1024.0 / f.writes);
  EXPECT_EQ(j["footprint_pages"], f.footprint);
  EXPECT_NEAR(j["span_s"].get<double>(), f.span_ps / 1e12, 1e-12);
  const auto& ia = j["interarrival_us"];
  long double sum = 0;
  for (const uint64_t g : f.gaps) sum += g;
  EXPECT_NEAR(ia["mean"].get<double>(), static_cast<double>(sum / f.gaps.size() / 1e6L),
              1e-9 * ia["mean"].get<double>());
  EXPECT_DOUBLE_EQ(ia["max"].get<double>(), f.gaps.back() / 1e6);
  // Percentiles: the histogram's bucket lower bound, at most 1/1024 below the exact value.
  for (const auto& [key, p] :
       {std::pair<const char*, double>{"p50", 0.5}, {"p90", 0.9}, {"p99", 0.99}}) {
    const double exact = nearest_rank(f.gaps, p) / 1e6;
    EXPECT_LE(ia[key].get<double>(), exact * (1 + 1e-12)) << key;
    EXPECT_GE(ia[key].get<double>(), exact * (1 - 1.0 / 1024) - 1e-12) << key;
  }
}

TEST(TraceStats, SpcExcerptMatchesIndependentFigures) {
  check_excerpt("umass_financial1.head10k.spc", "spc", 0);
}

TEST(TraceStats, CsvExcerptMatchesIndependentFigures) {
  check_excerpt("umass_financial1.head1k.csv", "csv", 0);
}

TEST(TraceStats, DiskSimExcerptsMatchIndependentFigures) {
  check_excerpt("umass_financial1.head10k.disksim.ascii", "disksim", 1e3L);
  check_excerpt("ms_msnfs.disk5.head20k.ascii", "disksim", 1e9L, {"--time-unit", "ms"});
}

TEST(TraceStats, MsrExcerptMatchesIndependentFigures) {
  check_excerpt("msr_hm_0.slice.csv", "msr", 0);
}

TEST(TraceStats, FiuExcerptMatchesIndependentFigures) {
  check_excerpt("fiu_mail.head10k.txt", "fiu", 0);
}

TEST(TraceStats, BlkparseExcerptMatchesIndependentFigures) {
  check_excerpt("fiu_mail.head2k.blkparse.txt", "blkparse", 0);
}

TEST(TraceStats, Financial1AgainstThePublishedFigures) {
  // /work/shared/traces/README.md: 40.8 % reads, 6.09 and 4.92 KiB, 260 s.
  const nlohmann::json j =
      stats_json({test::source_path("traces/umass_financial1.head10k.spc"), "--json"});
  EXPECT_NEAR(j["read_pct"].get<double>(), 40.8, 0.05);
  EXPECT_NEAR(j["avg_read_kib"].get<double>(), 6.09, 0.005);
  EXPECT_NEAR(j["avg_write_kib"].get<double>(), 4.92, 0.005);
  EXPECT_NEAR(j["span_s"].get<double>(), 259.6, 0.05);
}

TEST(TraceStats, TextOutputHasTheWorkloadTableRow) {
  std::string out;
  ASSERT_EQ(test::run_ssdtlm("trace-stats " + test::source_path("traces/msr_hm_0.slice.csv"), out),
            0)
      << out;
  EXPECT_NE(out.find("ssdtlm: trace format: msr (detected)"), std::string::npos) << out;
  EXPECT_NE(out.find("  requests       7016 (read 5820, write 1196, trim 0)\n"), std::string::npos)
      << out;
  EXPECT_NE(out.find("| workload | read % | sequential % | avg read KB | avg write KB |\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("| msr_hm_0.slice.csv | 83.0 | "), std::string::npos) << out;
}

TEST(TraceStats, SubcommandErrors) {
  std::string out;
  EXPECT_EQ(test::run_ssdtlm("trace-stats", out), 2);
  EXPECT_NE(out.find("Usage: ssdtlm trace-stats FILE"), std::string::npos) << out;
  EXPECT_EQ(test::run_ssdtlm("trace-stats --json", out), 2);
  EXPECT_NE(out.find("give the trace FILE"), std::string::npos) << out;
  EXPECT_EQ(test::run_ssdtlm("trace-stats x y", out), 2) << out;
  const std::string bad = write_file("bad.spc", "0,1,512,r,0\n0,1,512,q,1\n");
  EXPECT_EQ(test::run_ssdtlm("trace-stats " + bad, out), 1);
  EXPECT_NE(out.find("ssdtlm: error: " + bad + ":2: Opcode: expected r or w, got \"q\""),
            std::string::npos)
      << out;
  EXPECT_EQ(test::run_ssdtlm("trace-stats " + bad + " --skip-bad-lines --json", out), 0) << out;
  EXPECT_NE(out.find("\"skipped_lines\": 1"), std::string::npos) << out;
}

// `lines` lines made by `line(i, buffer)`, written through one buffer.
std::string write_lines(const std::string& name, uint64_t lines,
                        const std::function<void(uint64_t, char*)>& line,
                        const std::string& header = "") {
  std::string path = write_file(name, header);
  std::ofstream out(path, std::ios::binary | std::ios::app);
  std::string chunk;
  char buf[256];
  for (uint64_t i = 0; i < lines; ++i) {
    line(i, buf);
    chunk += buf;
    if (chunk.size() > (1u << 20)) {
      out << chunk;
      chunk.clear();
    }
  }
  out << chunk;
  return path;
}

// DiskSim records with increasing, uneven times and 4 KiB requests within 512 MiB, so the
// footprint (and the page set's memory) stays bounded whatever the length.
void disksim_line(uint64_t i, char* buf) {
  std::snprintf(buf, 256, "%" PRIu64 " 0 %" PRIu64 " 8 %d\n", i * 1000 + i % 7 * 100,
                i * 2654435761u % (1u << 17) * 8, i % 3 == 0 ? 0 : 1);
}

// What a command cost its process tree.
struct ChildUsage {
  long peak_rss_kib = -1;  // -1: the command failed
  double cpu_s = 0;
};

// Runs `command` in a shell from a fresh child process and returns the peak resident memory
// and CPU time of its children (getrusage RUSAGE_CHILDREN counts only children waited for,
// and a forked process starts with none, so earlier tests' children do not count).
ChildUsage usage_of(const std::string& command) {
  ChildUsage u;
  int fds[2];
  if (::pipe(fds) != 0) return u;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    const int rc = std::system(command.c_str());
    rusage ru{};
    ::getrusage(RUSAGE_CHILDREN, &ru);
    ChildUsage c;
    c.peak_rss_kib = WIFEXITED(rc) && WEXITSTATUS(rc) == 0 ? ru.ru_maxrss : -1;
    c.cpu_s = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
              static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
    const ssize_t written = ::write(fds[1], &c, sizeof c);
    ::_exit(written == sizeof c ? 0 : 1);
  }
  ::close(fds[1]);
  if (::read(fds[0], &u, sizeof u) != sizeof u) u = ChildUsage{};
  ::close(fds[0]);
  ::waitpid(pid, nullptr, 0);
  return u;
}

TEST(TraceStats, FiveMillionLinesInBoundedMemory) {
  constexpr uint64_t kLines = 5'000'000;
  const std::string big = write_lines("big.ascii", kLines, disksim_line);
  const std::string small = write_lines("small.ascii", 1000, disksim_line);
  const std::string json = write_file("big.json", "");
  const std::string stats = std::string(SSDTLM_BINARY) + " trace-stats --format disksim --json ";
  const ChildUsage big_run = usage_of(stats + big + " >" + json);
  const ChildUsage small_run = usage_of(stats + small + " >/dev/null");
  const nlohmann::json j = nlohmann::json::parse(test::slurp(json));
  EXPECT_EQ(j["requests"], kLines);  // it did read every line
  EXPECT_EQ(j["footprint_pages"], 1u << 17);
  ASSERT_GT(big_run.peak_rss_kib, 0);
  ASSERT_GT(small_run.peak_rss_kib, 0);
  std::printf(
      "5M-line trace-stats: peak RSS %.1f MB (1000 lines: %.1f MB), %.2f CPU s, "
      "%.0f ns/line\n",
      big_run.peak_rss_kib / 1024.0, small_run.peak_rss_kib / 1024.0, big_run.cpu_s,
      big_run.cpu_s * 1e9 / kLines);
  RecordProperty("peak_rss_kib", std::to_string(big_run.peak_rss_kib));
#ifndef SSDTLM_SANITIZE  // AddressSanitizer's shadow memory alone is about 100 MB here
  EXPECT_LT(big_run.peak_rss_kib, 100 * 1024);
#endif
  // Bounded: the 5M-line run needs hardly more than a 1000-line one (the page set of 2^17
  // pages is 4 MiB).
  EXPECT_LT(big_run.peak_rss_kib - small_run.peak_rss_kib, 16 * 1024);
}

}  // namespace
}  // namespace ssd::tb

namespace ssd::tb {
namespace {

TraceStats stats_of(const std::string& path) {
  const std::unique_ptr<TraceReader> reader = open_trace(path, test::with_format("spc"));
  return compute_trace_stats(*reader);
}

TEST(TraceStats, HugeRequestsCountAsRanges) {
  // One read of 2^63 bytes: page by page it never finished (2^51 pages).
  const std::string one = test::write_file("huge.spc", "0,0,9223372036854775808,r,0\n");
  const TraceStats s = stats_of(one);
  EXPECT_EQ(s.footprint_pages, uint64_t{1} << 51);
  EXPECT_EQ(s.read_bytes, uint64_t{1} << 63);
  // A range, single pages inside and outside it, and a second range overlapping the first:
  // pages 0-1999 and 1000-2999 (8 MiB requests), pages 2 and 5000.
  const std::string mixed = test::write_file(
      "mixed.spc", "0,0,8192000,w,0\n0,16,4096,w,1\n0,40000,4096,w,2\n0,8000,8192000,w,3\n");
  EXPECT_EQ(stats_of(mixed).footprint_pages, 3000u + 1u);
}

TEST(TraceStats, ByteTotalsBeyond2To64AreAnError) {
  const std::string two =
      test::write_file("two.spc", "0,0,9223372036854775808,r,0\n0,0,9223372036854775808,r,1\n");
  try {
    stats_of(two);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 (two + ": read bytes add up beyond 2^64 - 1 (16 EiB): not a real trace").c_str());
  }
}

}  // namespace
}  // namespace ssd::tb
