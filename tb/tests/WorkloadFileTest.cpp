// Workload files: the JSON spec, its errors, how jobs merge, the address, size and content
// distributions (Zipf exact against its probabilities), and the shipped micro-benchmarks.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

#include "common/Errors.h"
#include "tb/tests/TraceTestUtil.h"
#include "tb/workload/JsonWorkload.h"
#include "tb/workload/WorkloadJob.h"
#include "tb/workload/Zipf.h"

namespace ssd::tb {
namespace {

using test::ps;
using test::read_all;
using test::write_file;

constexpr uint64_t kGiB = uint64_t{1} << 30;

// A job from "key=value,..." with every workload-file key allowed.
JobStream job(const std::string& spec, uint64_t capacity = kGiB) {
  std::vector<std::pair<std::string_view, std::string_view>> keys;
  std::string_view rest = spec;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const size_t eq = item.find('=');
    keys.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return JobStream(parse_job(keys, capacity, JobSyntax{"job: ", true}));
}

std::vector<HostRequest> all_of(JobStream stream) {
  std::vector<HostRequest> all;
  HostRequest r;
  while (stream.next(r)) all.push_back(r);
  return all;
}

std::string spec_error(const std::string& json, uint64_t capacity = kGiB) {
  const std::string path = write_file("w.json", json);
  try {
    JsonWorkload w(path, capacity);
  } catch (const InputError& e) {
    const std::string m = e.what();
    return m.rfind(path, 0) == 0 ? m.substr(path.size()) : m;
  }
  return "";
}

TEST(WorkloadFile, OneClosedLoopJob) {
  JsonWorkload w(write_file("w.json", R"({"seed": 3, "jobs": [
      {"name": "fill", "rw": "write", "bs": "64k", "qd": 8, "io_size": "1m"}]})"),
                 kGiB);
  EXPECT_FALSE(w.timed());
  EXPECT_EQ(w.host_queue_depth(), 8u);
  EXPECT_EQ(w.expected_count(), 16u);
  const auto all = read_all(w);
  ASSERT_EQ(all.size(), 16u);
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].offset_bytes, i * 65536);
    EXPECT_EQ(all[i].op, IoOp::Write);
    EXPECT_EQ(ps(all[i]), 0u);
  }
  nlohmann::ordered_json report;
  w.add_to_report(report);
  EXPECT_EQ(report["workload_file"]["jobs"][0]["name"], "fill");
  EXPECT_EQ(report["workload_file"]["jobs"][0]["requests"], 16);
  EXPECT_EQ(report["workload_file"]["jobs"][0]["spec"],
            "rw=write,bs=65536,qd=8,io_size=1048576,seed=" + std::to_string(derive_seed(3, 0)) +
                ",offset=0,size=1073741824");
}

TEST(WorkloadFile, TimedJobsMergeInTimeOrder) {
  // 1000 IOPS (every 1 ms) and a 2.5 ms think time; ties go to the earlier job.
  JsonWorkload w(write_file("w.json", R"({"jobs": [
      {"rw": "randread", "count": 6, "rate_iops": 1000, "qd": 2},
      {"rw": "write", "count": 3, "thinktime_us": 2500, "qd": 3}]})"),
                 kGiB);
  EXPECT_TRUE(w.timed());
  EXPECT_EQ(w.host_queue_depth(), 5u);
  const auto all = read_all(w);
  const uint64_t ms = 1'000'000'000;
  const std::pair<uint64_t, IoOp> expected[] = {
      {0, IoOp::Read},      {0, IoOp::Write},          {ms, IoOp::Read},
      {2 * ms, IoOp::Read}, {5 * ms / 2, IoOp::Write}, {3 * ms, IoOp::Read},
      {4 * ms, IoOp::Read}, {5 * ms, IoOp::Read},      {5 * ms, IoOp::Write}};
  ASSERT_EQ(all.size(), 9u);
  for (size_t i = 0; i < 9; ++i) {
    EXPECT_EQ(ps(all[i]), expected[i].first) << i;
    EXPECT_EQ(all[i].op, expected[i].second) << i;
  }
}

TEST(WorkloadFile, ClosedLoopJobsTakeTurns) {
  JsonWorkload w(write_file("w.json", R"({"jobs": [
      {"rw": "read", "count": 3, "qd": 4},
      {"rw": "write", "count": 1, "offset": "1m", "qd": 4}]})"),
                 kGiB);
  const auto all = read_all(w);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].op, IoOp::Read);
  EXPECT_EQ(all[1].op, IoOp::Write);
  EXPECT_EQ(all[1].offset_bytes, 1u << 20);
  EXPECT_EQ(all[2].op, IoOp::Read);
  EXPECT_EQ(all[3].op, IoOp::Read);
  EXPECT_EQ(w.host_queue_depth(), 8u);
}

TEST(WorkloadFile, JobsGetTheirOwnSeedsAndTheStreamRepeats) {
  const std::string spec = R"({"seed": 11, "jobs": [{"rw": "randread", "count": 50},
                                                    {"rw": "randread", "count": 50}]})";
  JsonWorkload a(write_file("a.json", spec), kGiB);
  JsonWorkload b(write_file("b.json", spec), kGiB);
  const auto x = read_all(a);
  const auto y = read_all(b);
  ASSERT_EQ(x.size(), 100u);
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(x[i].offset_bytes, y[i].offset_bytes) << i;
  size_t same = 0;  // the two jobs alternate: equal offsets would mean equal seeds
  for (size_t i = 0; i < x.size(); i += 2) same += x[i].offset_bytes == x[i + 1].offset_bytes;
  EXPECT_LT(same, 3u);
}

TEST(WorkloadFile, MaxRequestsStopsEarly) {
  JsonWorkload w(write_file("w.json", R"({"jobs": [{"rw": "write", "count": 100}]})"), kGiB, 7);
  EXPECT_EQ(w.expected_count(), 7u);
  EXPECT_EQ(read_all(w).size(), 7u);
  nlohmann::ordered_json report;
  w.add_to_report(report);
  EXPECT_EQ(report["workload_file"]["stopped_early"], true);
}

TEST(WorkloadFile, Errors) {
  const std::pair<const char*, const char*> cases[] = {
      {"{", ":1:2: invalid JSON: "},
      {"[1]", ": expected a JSON object with \"jobs\""},
      {R"({"jobs": [], "x": 1})", ": x: unknown key (description, seed, jobs)"},
      {R"({"jobs": []})", ": jobs: expected a non-empty array of jobs"},
      {R"({"jobs": [3]})", ": jobs[0]: expected an object of key: value"},
      {R"({"seed": -4, "jobs": [{}]})", ": seed: expected an unsigned integer, got \"-4\""},
      {R"({"jobs": [{"qd": true}]})", ": jobs[0].qd: expected a number or a string, got true"},
      {R"({"jobs": [{"depth": 4}]})",
       ": jobs[0].depth: unknown key (rw, mix, bs, qd, count, seed, offset, size, align, "
       "namespace, zones, zone_report_every, placement, placement_update_bytes, "
       "name, io_size, rate_iops, thinktime_us, distribution, dedupe_percentage, "
       "compress_percentage, queue)"},
      {R"({"jobs": [{"bs": "64k-4k"}]})",
       ": jobs[0].bs: expected MIN-MAX with MIN <= MAX, got \"64k-4k\""},
      {R"({"jobs": [{"bs": "4k/1:8k"}]})", ": jobs[0].bs: expected SIZE/WEIGHT, got \"8k\""},
      {R"({"jobs": [{"bs": "4k/0"}]})",
       ": jobs[0].bs: expected a positive total weight, got \"4k/0\""},
      {R"({"jobs": [{"bs": "1000-4k"}]})",
       ": jobs[0].bs: expected a positive multiple of 512 bytes, got \"1000\""},
      {R"({"jobs": [{"rw": "read", "distribution": "zipf:1.2"}]})",
       ": jobs[0].distribution: applies only to random patterns"},
      {R"({"jobs": [{"rw": "randread", "distribution": "zipf:0"}]})",
       ": jobs[0].distribution: expected zipf:THETA with 0 < THETA <= 40, got \"zipf:0\""},
      {R"({"jobs": [{"rw": "randread", "distribution": "hotspot:1.5:0.5"}]})",
       ": jobs[0].distribution: expected hotspot:FRACTION:PROBABILITY with 0 < FRACTION < 1 and "
       "PROBABILITY <= 1, got \"hotspot:1.5:0.5\""},
      {R"({"jobs": [{"rw": "randread", "distribution": "pareto:0.5"}]})",
       ": jobs[0].distribution: expected uniform, zipf:THETA or hotspot:FRACTION:PROBABILITY, "
       "got \"pareto:0.5\""},
      {R"({"jobs": [{"rate_iops": 10, "thinktime_us": 5}]})",
       ": jobs[0].thinktime_us: give rate_iops or thinktime_us, not both"},
      {R"({"jobs": [{"rate_iops": 0}]})",
       ": jobs[0].rate_iops: expected 2.2e-7 to 1e12 requests per second, got \"0\""},
      {R"({"jobs": [{"dedupe_percentage": 101}]})",
       ": jobs[0].dedupe_percentage: expected a percentage in [0, 100], got \"101\""},
      {R"({"jobs": [{"count": 4.0}]})",
       ": jobs[0].count: expected an unsigned integer, got \"4.0\""},
      {R"({"jobs": [{"count": 1}, {"count": 1, "rate_iops": 5}]})",
       ": jobs[1]: a timed job among closed-loop ones: the host replays one stream, either by "
       "arrival time (every job has rate_iops or thinktime_us) or closed loop (none has)"},
      {R"({"jobs": [{"size": "2g"}]})",
       ": jobs[0].size: offset + size exceeds the capacity of 1073741824 bytes, got \"2g\""},
  };
  for (const auto& [json, message] : cases) {
    const std::string m = spec_error(json);
    EXPECT_EQ(m.substr(0, std::string(message).size()), message) << json << "\n" << m;
  }
  EXPECT_EQ(spec_error("").substr(0, 20), ":1:1: invalid JSON: ");
}

TEST(WorkloadFile, DeepNestingIsRefused) {
  // 75,000 levels overflowed the stack when the error message dumped the value.
  const std::string path =
      write_file("deep.json", R"({"jobs": [{"rw": )" + std::string(75000, '[') +
                                  std::string(75000, ']') + "}]}");
  try {
    JsonWorkload w(path, kGiB);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), (path + ": JSON nested more than 64 levels deep (no config or "
                                   "workload file needs more than a few)")
                               .c_str());
  }
  // Within the limit, a structured value is named by its type, not dumped.
  EXPECT_EQ(spec_error(R"({"jobs": [{"rw": [[1]]}]})"),
            ": jobs[0].rw: expected a number or a string, got array");
}

// Found by fuzz_workload_file: a number beyond a double threw nlohmann's out_of_range, which
// no caller expected (the harness aborted; the CLI printed it without the file name).
TEST(WorkloadFile, NumberBeyondADoubleIsAnInputError) {
  EXPECT_EQ(spec_error(R"({"jobs": [{"rw": "read", "count": 1e400}]})"),
            ": invalid JSON: [json.exception.out_of_range.406] number overflow parsing '1e400'");
}

TEST(WorkloadFile, MissingFile) {
  try {
    JsonWorkload w("/nonexistent/w.json", kGiB);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/w.json: cannot open: No such file or directory");
  }
}

TEST(WorkloadJobs, DefaultAmountIsOnePassOverTheSpan) {
  const auto all = all_of(job("rw=write,bs=64k,offset=1m,size=1m"));
  ASSERT_EQ(all.size(), 16u);
  EXPECT_EQ(all.front().offset_bytes, 1u << 20);
  EXPECT_EQ(all.back().offset_bytes, (1u << 20) + 15 * 65536);
}

TEST(WorkloadJobs, IoSizeEndsAtTheRequestThatReachesIt) {
  const auto all = all_of(job("rw=randwrite,bs=4k-64k,io_size=1m,seed=5"));
  uint64_t bytes = 0;
  for (const HostRequest& r : all) bytes += r.length_bytes;
  EXPECT_GE(bytes, 1u << 20);
  EXPECT_LT(bytes - all.back().length_bytes, 1u << 20);
}

TEST(WorkloadJobs, SizeRangeIsUniformOverSectorMultiples) {
  std::map<uint64_t, uint64_t> sizes;
  for (const HostRequest& r : all_of(job("rw=randread,bs=4k-8k,count=90000"))) {
    ++sizes[r.length_bytes];
    ASSERT_EQ(r.offset_bytes % 4096, 0u);  // align defaults to the smallest size
  }
  ASSERT_EQ(sizes.size(), 9u);  // 4096, 4608, ..., 8192
  EXPECT_EQ(sizes.begin()->first, 4096u);
  EXPECT_EQ(sizes.rbegin()->first, 8192u);
  for (const auto& [size, n] : sizes) EXPECT_NEAR(double(n), 10000.0, 500) << size;  // 5 sigma
}

TEST(WorkloadJobs, SizeSplitFollowsTheWeights) {
  std::map<uint64_t, uint64_t> sizes;
  for (const HostRequest& r : all_of(job("rw=write,bs=4k/70:64k/20:1m/10,count=100000"))) {
    ++sizes[r.length_bytes];
  }
  EXPECT_NEAR(double(sizes[4096]), 70000, 750);
  EXPECT_NEAR(double(sizes[65536]), 20000, 650);
  EXPECT_NEAR(double(sizes[1 << 20]), 10000, 480);
  EXPECT_EQ(sizes.size(), 3u);
}

TEST(WorkloadJobs, HotspotSendsItsShareToTheHotRegion) {
  // 1 GiB of 4 KiB blocks; the first 10 % get 90 % of the requests.
  uint64_t hot = 0;
  const auto all = all_of(job("rw=randread,count=100000,distribution=hotspot:0.1:0.9"));
  const uint64_t hot_end = static_cast<uint64_t>(262144 * 0.1) * 4096;
  std::set<uint64_t> cold_offsets;
  for (const HostRequest& r : all) {
    if (r.offset_bytes < hot_end) {
      ++hot;
    } else {
      cold_offsets.insert(r.offset_bytes);
    }
  }
  EXPECT_NEAR(double(hot) / double(all.size()), 0.9, 0.005);
  EXPECT_GT(*cold_offsets.rbegin(), kGiB - kGiB / 100);  // the cold part spans the rest
}

TEST(WorkloadJobs, ZipfGoldenSequence) {
  // Computed independently (Python: an mt19937_64, the same rejection-inversion with the C
  // library's log and exp).
  const auto all = all_of(job("rw=randread,bs=4k,size=4m,count=12,seed=42,distribution=zipf:1.1"));
  const uint64_t expected[] = {4096,  16384,  4096,   1007616, 0,       1536000,
                               24576, 122880, 282624, 106496,  3653632, 36864};
  ASSERT_EQ(all.size(), 12u);
  for (size_t i = 0; i < 12; ++i) EXPECT_EQ(all[i].offset_bytes, expected[i]) << i;
  std::mt19937_64 rng(7);
  ZipfSampler zipf(1'000'000, 0.8);
  const uint64_t ranks[] = {1972, 12, 555708, 98, 488792, 765595, 448, 75};
  for (const uint64_t k : ranks) EXPECT_EQ(zipf(rng), k);
}

// Pearson's chi-square of `draws` samples of a sampler with `theta` against the exact Zipf
// probabilities with `reference` over n ranks.
double zipf_chi_square(uint64_t n, double theta, double reference, uint64_t draws) {
  std::vector<double> p(n);
  double h = 0;
  for (uint64_t k = 1; k <= n; ++k) h += std::pow(double(k), -reference);
  for (uint64_t k = 1; k <= n; ++k) p[k - 1] = std::pow(double(k), -reference) / h;
  std::vector<uint64_t> seen(n);
  std::mt19937_64 rng(3);
  const ZipfSampler zipf(n, theta);
  for (uint64_t i = 0; i < draws; ++i) {
    const uint64_t k = zipf(rng);
    EXPECT_GE(k, 1u);
    EXPECT_LE(k, n);
    ++seen[k - 1];
  }
  double chi = 0;
  for (uint64_t k = 0; k < n; ++k) {
    const double e = p[k] * double(draws);
    chi += (double(seen[k]) - e) * (double(seen[k]) - e) / e;
  }
  return chi;
}

TEST(WorkloadJobs, ZipfMatchesItsExactProbabilities) {
  // 49 degrees of freedom: P(chi-square > 85.4) = 0.001. Fixed seeds, so no flakiness; an
  // approximate sampler (e.g. Gray et al.'s) fails this at n = 50 for theta > 1.
  for (const double theta : {0.5, 0.99, 1.0, 1.2, 2.5}) {
    EXPECT_LT(zipf_chi_square(50, theta, theta, 500'000), 85.4) << theta;
  }
  // The test can fail: a sampler off by 0.02 in theta is caught.
  EXPECT_GT(zipf_chi_square(50, 1.22, 1.2, 500'000), 85.4);
}

TEST(WorkloadJobs, ZipfOverAWholeDriveIsFast) {
  // 2^28 blocks of 4 KiB (1 TiB): no table, O(1) per draw.
  std::mt19937_64 rng(1);
  const ZipfSampler zipf(uint64_t{1} << 28, 1.0);
  uint64_t ones = 0;
  for (int i = 0; i < 200'000; ++i) ones += zipf(rng) == 1;
  // P(1) = 1 / H(2^28) with H(n) ~ ln n + 0.5772 + 1 / 2n.
  const double p1 = 1 / (std::log(double(uint64_t{1} << 28)) + 0.5772156649);
  EXPECT_NEAR(double(ones) / 200'000, p1, 5 * std::sqrt(p1 / 200'000));
}

TEST(WorkloadJobs, PortableFunctionsMatchTheCLibrary) {
  // Within a few units in the last place (2^-52 = 2.2e-16) of glibc's.
  constexpr double kUlps = 8 * 0x1p-52;
  std::mt19937_64 rng(1);
  for (int i = 0; i < 100'000; ++i) {
    const double x = std::ldexp(unit_interval(rng) + 0.5, static_cast<int>(rng() % 120) - 60);
    EXPECT_NEAR(portable_log(x), std::log(x), kUlps * std::max(1.0, std::fabs(std::log(x))));
    const double y = (unit_interval(rng) - 0.5) * 80;
    EXPECT_NEAR(portable_exp(y), std::exp(y), kUlps * std::exp(y));
    const double z = (unit_interval(rng) - 0.5) * 1.5;
    EXPECT_NEAR(portable_log1p(z), std::log1p(z), kUlps * std::fabs(std::log1p(z)));
    EXPECT_NEAR(portable_expm1(z), std::expm1(z), kUlps * std::fabs(std::expm1(z)));
  }
}

TEST(WorkloadJobs, DedupeRatioHolds) {
  const auto all = all_of(
      job("rw=randrw,mix=0.2,count=100000,dedupe_percentage=30,compress_percentage=60,seed=4"));
  std::set<Fingerprint> seen;
  uint64_t writes = 0;
  uint64_t duplicates = 0;
  for (const HostRequest& r : all) {
    if (r.op == IoOp::Read) {
      EXPECT_FALSE(r.has_fingerprint);
      continue;
    }
    ASSERT_TRUE(r.has_fingerprint);
    EXPECT_EQ(r.compressible_percent, 60);
    ++writes;
    duplicates += !seen.insert(r.fingerprint).second;
  }
  EXPECT_GT(writes, 79000u);
  EXPECT_NEAR(double(duplicates) / double(writes), 0.30, 0.005);
}

TEST(WorkloadJobs, ContentOffByDefault) {
  for (const HostRequest& r : all_of(job("rw=write,count=10"))) EXPECT_FALSE(r.has_fingerprint);
}

// The study's micro-benchmark matrix: sequential and random, reads and writes, 4 KiB to
// 16 MiB, and the burst test.
TEST(WorkloadSpecs, MicroBenchmarksCoverTheMatrix) {
  const std::string dir = test::source_path("workloads/micro/");
  for (const char* pattern : {"seqread", "seqwrite", "randread", "randwrite"}) {
    for (const auto& [size, bytes] : {std::pair<const char*, uint64_t>{"4k", 4096},
                                      {"16k", 16384},
                                      {"64k", 65536},
                                      {"256k", 262144},
                                      {"1m", 1 << 20},
                                      {"4m", 4 << 20},
                                      {"16m", 16 << 20}}) {
      const std::string path = dir + pattern + "-" + size + ".json";
      SCOPED_TRACE(path);
      JsonWorkload w(path, 64 * kGiB);
      EXPECT_FALSE(w.timed());
      EXPECT_EQ(w.expected_count(), kGiB / bytes);
      HostRequest r;
      ASSERT_TRUE(w.next(r));
      EXPECT_EQ(r.length_bytes, bytes);
      EXPECT_EQ(r.op,
                std::string(pattern).find("read") != std::string::npos ? IoOp::Read : IoOp::Write);
    }
  }
  JsonWorkload burst(test::source_path("workloads/burst-randwrite-4m-1g.json"), 64 * kGiB);
  EXPECT_EQ(burst.expected_count(), 256u);
}

TEST(WorkloadSpecs, ShippedSpecsRunAndLandInReportJson) {
  for (const char* spec :
       {"micro/seqwrite-4k.json", "micro/randread-64k.json", "micro/randwrite-16m.json",
        "burst-randwrite-4m-1g.json", "mixed-timed-example.json"}) {
    SCOPED_TRACE(spec);
    const std::string dir = test::temp_dir("out");
    std::string out;
    ASSERT_EQ(test::run_ssdtlm("--config " + test::source_path("configs/default.json") +
                                   " --workload-file " + test::source_path("workloads/") + spec +
                                   " --max-requests 40 --out " + dir,
                               out),
              0)
        << out;
    const auto report = nlohmann::json::parse(test::slurp(dir + "/report.json"));
    EXPECT_EQ(report["requests"]["count"], 40);
    EXPECT_GT(report["bandwidth_mbps"].get<double>(), 0);
    EXPECT_GT(report["energy_total_j"].get<double>(), 0);
    EXPECT_EQ(report["workload_file"]["max_requests"], 40);
    EXPECT_EQ(report["workload"],
              "workload file " + test::source_path("workloads/") + spec +
                  (std::string(spec) == "mixed-timed-example.json" ? " (2 jobs)" : " (1 job)"));
  }
}

}  // namespace
}  // namespace ssd::tb
