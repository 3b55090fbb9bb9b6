// flash.idle_policy off_when_idle with the options that make the firmware wait for flash inside
// a host command (the block-mapping FTLs' spare-area reads, DFTL's translation reads, in-order
// issue waiting for a channel): the controller powered the dies off while the firmware waited
// for a command answered ahead, issued more to dies that were off, and powering them on for the
// next host command went back in time in the energy monitor. Each case is a run that failed so
// (issue 43); now each keeps every page and still saves idle energy.
#include <gtest/gtest.h>

#include <fstream>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

struct PowerOffCase {
  const char* name;
  const char* config;
  const char* overrides;
  const char* trace;  // in traces/
  const char* format;
  uint64_t lines;  // of the trace, from its start (0: all)
  const char* options;
};
void PrintTo(const PowerOffCase& c, std::ostream* os) { *os << c.name; }

// The report of the run with `policy`; the run must succeed.
nlohmann::json run(const PowerOffCase& c, const std::string& policy) {
  const std::string dir = test::temp_dir(policy);
  std::string trace = test::source_path(std::string("traces/") + c.trace);
  if (c.lines != 0) {
    std::ifstream in(trace);
    std::ofstream head(dir + "/head.trace");
    std::string line;
    for (uint64_t i = 0; i < c.lines && std::getline(in, line); ++i) head << line << '\n';
    trace = dir + "/head.trace";
  }
  std::string out;
  const int rc =
      test::run_cli(std::string("--config ") + test::source_path(c.config) + " " + c.overrides +
                        " --set flash.idle_policy=" + policy + " --trace " + trace + " --format " +
                        c.format + " " + c.options + " --quiet --no-series --out " + dir + "/out",
                    out);
  EXPECT_EQ(rc, 0) << c.name << " " << policy << ": " << out;
  return nlohmann::json::parse(test::slurp(dir + "/out/report.json"));
}

double dies_idle_j(const nlohmann::json& report) {
  double j = 0;
  for (const auto& [component, states] : report["energy_j"].items())
    if (component.find(".w") != std::string::npos) j += states["idle"].get<double>();
  return j;
}

class DiePowerOff : public ::testing::TestWithParam<PowerOffCase> {};

TEST_P(DiePowerOff, KeepsEveryPageAndSavesIdleEnergy) {
  const nlohmann::json off = run(GetParam(), "off_when_idle");
  EXPECT_GT(off["scoreboard"]["pages_checked"].get<uint64_t>(), 0u);
  EXPECT_EQ(off["scoreboard"]["mismatches"].get<uint64_t>(), 0u);
  const nlohmann::json on = run(GetParam(), "always_on");
  EXPECT_LT(dies_idle_j(off), dies_idle_j(on));
}

INSTANTIATE_TEST_SUITE_P(
    Issue43, DiePowerOff,
    ::testing::Values(PowerOffCase{"block", "configs/small_gc.json", "--set ftl.type=block",
                                   "umass_financial1.head10k.spc", "spc", 183, ""},
                      PowerOffCase{"bast", "configs/default.json", "--set ftl.type=bast",
                                   "umass_financial1.head10k.spc", "spc", 0, ""},
                      PowerOffCase{"in_order", "configs/small_gc.json",
                                   "--set controller.issue_order=in_order",
                                   "umass_financial1.head10k.spc", "spc", 0, "--max-requests 5377"},
                      PowerOffCase{"dftl", "configs/default.json", "--set ftl.type=dftl",
                                   "tpcc_like.msr.csv", "msr", 0, ""}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace ssd
