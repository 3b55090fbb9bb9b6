// The latency distribution of a run: report.json's log histograms and the per-request log
// (--request-log), plain and gzip-compressed.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <nlohmann/json.hpp>

#include "tb/tests/TraceTestUtil.h"

namespace ssd::test {
namespace {

const std::string kConfig = source_path("configs/default.json");

nlohmann::json run_report(const std::string& dir, const std::string& extra = "") {
  std::string log;
  EXPECT_EQ(run_ssdtlm("--config " + kConfig +
                           " --workload rw=randrw,mix=0.5,count=500,seed=2 --quiet --no-series "
                           "--precondition --precondition-random 0 --out " +
                           dir + " " + extra,
                       log),
            0)
      << log;
  return nlohmann::json::parse(slurp(dir + "/report.json"));
}

// The buckets hold every sample, in increasing edges a tenth of a decade apart.
TEST(LatencyHistogram, BucketsHoldEverySample) {
  const nlohmann::json r = run_report(temp_dir("out"));
  EXPECT_EQ(r["latency_histogram_us"]["buckets_per_decade"], 10);
  for (const char* kind : {"read", "write"}) {
    const nlohmann::json& h = r["latency_histogram_us"][kind];
    uint64_t total = 0;
    double last = 0;
    for (std::size_t i = 0; i < h["count"].size(); ++i) {
      total += h["count"][i].get<uint64_t>();
      const double edge = h["upper_us"][i].get<double>();
      EXPECT_GT(edge, last);
      const double k = std::log10(edge) * 10;
      EXPECT_NEAR(k, std::round(k), 1e-6) << edge;
      last = edge;
    }
    EXPECT_EQ(total, r["latency_us"][kind]["count"].get<uint64_t>()) << kind;
    EXPECT_GE(last, r["latency_us"][kind]["max"].get<double>()) << kind;
    EXPECT_LT(last / std::pow(10.0, 0.1), r["latency_us"][kind]["max"].get<double>()) << kind;
  }
}

// One line per request, whose latencies are the report's: same count and mean per kind.
void expect_log_matches(std::istream& in, const nlohmann::json& r) {
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line.substr(0, line.find(",host_queue_us")),
            "arrival_us,start_us,completion_us,op,offset,size,latency_us,flow,status");
  std::map<std::string, std::pair<uint64_t, double>> by_op;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string f[9];
    for (auto& x : f) std::getline(fields, x, ',');
    const double arrival = std::stod(f[0]), start = std::stod(f[1]), done = std::stod(f[2]);
    EXPECT_LE(arrival, start) << line;
    EXPECT_LE(start, done) << line;
    EXPECT_NEAR(std::stod(f[6]), done - arrival, 1e-6) << line;
    EXPECT_GT(std::stoull(f[5]), 0u) << line;
    EXPECT_EQ(f[7], "host") << line;  // one flow
    EXPECT_EQ(f[8], "ok") << line;
    by_op[f[3]].first += 1;
    by_op[f[3]].second += std::stod(f[6]);
  }
  for (const char* kind : {"read", "write"}) {
    const auto& l = r["latency_us"][kind];
    EXPECT_EQ(by_op[kind].first, l["count"].get<uint64_t>()) << kind;
    EXPECT_NEAR(by_op[kind].second / double(by_op[kind].first), l["mean"].get<double>(), 1e-6);
  }
}

TEST(RequestLog, CsvHasEveryRequest) {
  const std::string dir = temp_dir("out");
  const nlohmann::json r = run_report(dir, "--request-log csv");
  std::ifstream in(dir + "/requests.csv");
  expect_log_matches(in, r);
  EXPECT_FALSE(std::filesystem::exists(dir + "/requests.csv.gz"));
}

TEST(RequestLog, GzipWhenAsked) {
  const std::string dir = temp_dir("out");
  const nlohmann::json r = run_report(dir, "--request-log gz");
  std::ifstream file(dir + "/requests.csv.gz", std::ios::binary);
  boost::iostreams::filtering_istream in;
  in.push(boost::iostreams::gzip_decompressor());
  in.push(file);
  expect_log_matches(in, r);
  // A later run without the log leaves none from this one (the outputs are one set).
  run_report(dir);
  EXPECT_FALSE(std::filesystem::exists(dir + "/requests.csv.gz"));
}

TEST(RequestLog, BadFormatIsAUsageError) {
  std::string out;
  EXPECT_EQ(run_ssdtlm("--config " + kConfig + " --workload rw=read,count=1 --out " +
                           temp_dir("out") + " --request-log zip",
                       out),
            2);
  EXPECT_NE(out.find("--request-log: expected csv or gz, got \"zip\""), std::string::npos) << out;
}

}  // namespace
}  // namespace ssd::test
