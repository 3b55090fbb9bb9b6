// A trace's writes through placement handles (ftl.fdp) from the command line: by volume
// (--trace-placement with --volume-flows) and by address range (--trace-placement-ranges), with
// the options' errors.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

// The command line's small_gc with two placement handles.
std::string fdp_cli() {
  return "--config " + test::source_path("configs/small_gc.json") +
         " --set ftl.fdp.enabled=true --set ftl.fdp.handles=2 --no-series";
}

// A trace's volumes as flows, each through its own handle (--trace-placement), and the option's
// errors.
TEST(Placement, TraceVolumesNameTheirHandles) {
  const std::string dir = test::temp_dir("fdp-trace");
  const std::string spc = test::source_path("traces/umass_financial1.head10k.spc");
  const std::string cfg = fdp_cli();
  std::string out;
  ASSERT_EQ(test::run_cli(cfg + " --trace " + spc +
                              " --volume 0,1 --volume-flows --trace-placement 1,0 --out " + dir,
                          out),
            0)
      << out;
  const nlohmann::json r = nlohmann::json::parse(test::slurp(dir + "/report.json"));
  const nlohmann::json& h = r["fdp"]["per_handle"];
  EXPECT_GT(h[0]["host_bytes"].get<double>(), 0);
  EXPECT_GT(h[1]["host_bytes"].get<double>(), 0);
  EXPECT_EQ(h[0]["host_bytes"].get<double>() + h[1]["host_bytes"].get<double>(),
            r["fdp"]["host_bytes_written"].get<double>());
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
  EXPECT_EQ(test::run_cli(cfg + " --trace " + spc + " --trace-placement 2 --out " + dir, out), 2);
  EXPECT_NE(out.find("--trace-placement: handle 2: expected 0 to 1 (namespace ns1's 2 placement "
                     "handles)"),
            std::string::npos)
      << out;
  EXPECT_EQ(test::run_cli("--config " + test::source_path("configs/small_gc.json") + " --trace " +
                              spc + " --trace-placement 0 --out " + dir,
                          out),
            2);
  EXPECT_NE(out.find("--trace-placement: the drive has no placement handles"), std::string::npos)
      << out;
  EXPECT_EQ(
      test::run_cli(cfg + " --workload rw=read,count=1 --trace-placement 0 --out " + dir, out), 2);
  EXPECT_NE(out.find("--trace-placement: applies only with --trace"), std::string::npos) << out;
}

// One trace's address ranges through handles of their own (--trace-placement-ranges): every
// write of the first 8 MiB through handle 1, the rest through handle 0; and the option's errors.
TEST(Placement, TraceAddressRangesNameTheirHandles) {
  const std::string dir = test::temp_dir("fdp-ranges");
  const std::string spc = test::source_path("traces/umass_financial1.head10k.spc");
  const std::string cfg = fdp_cli();
  std::string out;
  ASSERT_EQ(test::run_cli(cfg + " --trace " + spc + " --trace-placement-ranges 0-8m:1 --out " +
                              dir + " --request-log csv",
                          out),
            0)
      << out;
  const nlohmann::json r = nlohmann::json::parse(test::slurp(dir + "/report.json"));
  // The request log's writes, by whether they start in the range: the pages each touches (the
  // host bytes FDP counts, page_writes x 4 KiB).
  uint64_t in_range = 0, elsewhere = 0;
  std::istringstream log(test::slurp(dir + "/requests.csv"));
  std::string line;
  std::getline(log, line);
  while (std::getline(log, line)) {
    std::vector<std::string> f;
    std::istringstream cells(line);
    for (std::string c; std::getline(cells, c, ',');) f.push_back(c);
    if (f.at(3) != "write") continue;
    const uint64_t offset = std::stoull(f.at(4)), end = offset + std::stoull(f.at(5));
    ((offset < 8 * 1024 * 1024) ? in_range : elsewhere) +=
        ((end - 1) / 4096 - offset / 4096 + 1) * 4096;
  }
  ASSERT_GT(in_range, 0u);
  ASSERT_GT(elsewhere, 0u);
  const nlohmann::json& h = r["fdp"]["per_handle"];
  EXPECT_EQ(h[1]["host_bytes"].get<uint64_t>(), in_range);
  EXPECT_EQ(h[0]["host_bytes"].get<uint64_t>(), elsewhere);
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
  for (const auto& [ranges, message] : std::vector<std::pair<std::string, std::string>>{
           {"0-8m",
            "expected FIRST-END:HANDLE items (bytes, a handle 0 to 65535) separated by "
            "commas, got \"0-8m\""},
           {"8m-4m:1", "a range ends at or before its first byte"},
           {"0-8m:1,4m-12m:0", "ranges must come in address order, apart"},
           {"0-8m:2", "handle 2: expected 0 to 1 (namespace ns1's 2 placement handles)"},
           {"0-1g:1", "a range ends at byte 1073741824, past the"}}) {
    EXPECT_EQ(
        test::run_cli(
            cfg + " --trace " + spc + " --trace-placement-ranges " + ranges + " --out " + dir, out),
        2)
        << ranges;
    EXPECT_NE(out.find("--trace-placement-ranges: " + message), std::string::npos) << out;
  }
  EXPECT_EQ(test::run_cli(cfg +
                              " --workload rw=write,count=1 --trace-placement-ranges 0-8m:1 "
                              "--out " +
                              dir,
                          out),
            2);
  EXPECT_NE(out.find("--trace-placement-ranges: applies only to one --trace"), std::string::npos)
      << out;
}

}  // namespace
}  // namespace ssd
