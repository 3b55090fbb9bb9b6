// A full disk is an error: every file the CLI writes, stopped by a file-size limit (ulimit -f
// with SIGXFSZ ignored, so a write past it fails as on a full disk), makes the run exit 1 with
// a message naming the file, and leaves no output that looks complete.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tb/tests/TraceTestUtil.h"

namespace ssd::test {
namespace {

namespace fs = std::filesystem;

// Runs ssdtlm with files limited to `limit_kib` (sh's ulimit -f counts 512-byte blocks); under
// timeout, as the gzip request log once retried its failed write forever.
int run_limited(const std::string& args, std::string& out, int limit_kib) {
  return run_ssdtlm(
      args, out,
      "trap '' XFSZ; ulimit -f " + std::to_string(2 * limit_kib) + "; exec timeout 120 ");
}

// Entries of `dir` whose name starts with `prefix`.
int entries(const std::string& dir, const std::string& prefix) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir))
    n += e.path().filename().string().rfind(prefix, 0) == 0;
  return n;
}

struct Output {
  const char* file;     // its name in --out
  const char* options;  // what writes it (the others that come before it left out)
  int limit_kib;
};

void PrintTo(const Output& o, std::ostream* os) { *os << o.file; }

class FullDisk : public ::testing::TestWithParam<Output> {};

// Each output is larger than its limit; the run writes report.json (28 KB) last, so the error
// is the output's own. Where the output is larger than report.json, the limit is too (32 KiB):
// nothing else could fail the run. The target directory is left as it was (absent), no staging
// directory stays.
TEST_P(FullDisk, TheRunFailsNamingTheFile) {
  const Output& o = GetParam();
  const std::string parent = temp_dir("t");
  const std::string dir = parent + "/out";
  std::string out;
  EXPECT_EQ(run_limited("--config " + source_path("configs/default.json") +
                            " --workload rw=randwrite,count=3000 -q --reproducible --out " + dir +
                            " " + o.options,
                        out, o.limit_kib),
            1)
      << out;
  EXPECT_NE(out.find("ssdtlm: error: "), std::string::npos) << out;
  EXPECT_NE(out.find(std::string("/") + o.file + ": write failed"), std::string::npos) << out;
  EXPECT_FALSE(fs::exists(dir));
  EXPECT_EQ(entries(parent, ".out.ssdtlm-tmp."), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Outputs, FullDisk,
    ::testing::Values(Output{"report.json", "--no-series", 2}, Output{"energy.csv", "", 2},
                      Output{"timeline.csv", "--no-series --timeline 10", 32},
                      Output{"current.vcd", "--no-series --vcd", 32},
                      Output{"current.fst", "--no-series --fst", 2},
                      Output{"requests.csv", "--no-series --request-log csv", 32},
                      Output{"requests.csv.gz", "--no-series --request-log gz", 32}),
    [](const ::testing::TestParamInfo<Output>& info) {
      std::string name = info.param.file;
      for (char& c : name)
        if (c == '.') c = '_';
      return name;
    });

const std::string kAging = "--config " + source_path("configs/small_gc.json") +
                           " --workload rw=randwrite,count=200 -q --no-series --precondition ";

// --save-state: the run stops; no state file stays, nor its temporary.
TEST(FullDisk, SavedStateFailsTheRun) {
  const std::string dir = temp_dir("t");
  std::string out;
  EXPECT_EQ(
      run_limited(kAging + "--save-state " + dir + "/aged.state --out " + dir + "/out", out, 8), 1)
      << out;
  EXPECT_NE(out.find("ssdtlm: error: " + dir +
                     "/aged.state: cannot save the drive's state: write failed"),
            std::string::npos)
      << out;
  EXPECT_EQ(entries(dir, "aged.state"), 0);
  EXPECT_FALSE(fs::exists(dir + "/out"));
}

// The state cache is best effort: the run goes on with a warning naming the file (its outputs
// are whole), and the cache holds no file cut short.
TEST(FullDisk, StateCacheEntryIsAWarning) {
  const std::string dir = temp_dir("t");
  std::string out;
  EXPECT_EQ(run_limited(kAging + "--state-cache " + dir + "/cache --out " + dir + "/out", out, 64),
            0)
      << out;
  EXPECT_NE(out.find("ssdtlm: warning: " + dir + "/cache/"), std::string::npos) << out;
  EXPECT_NE(out.find(".state: cannot save the drive's state: write failed"), std::string::npos)
      << out;
  EXPECT_EQ(entries(dir + "/cache", ""), 0);
  EXPECT_TRUE(fs::exists(dir + "/out/report.json"));
}

// The summary on stdout, redirected to a full disk.
TEST(FullDisk, StandardOutputFailsTheRun) {
  const std::string dir = temp_dir("t");
  const int rc =
      std::system((std::string(SSDTLM_BINARY) + " --config " + source_path("configs/default.json") +
                   " --workload rw=randwrite,count=200 --no-series --out " + dir +
                   "/out >/dev/full 2>" + dir + "/stderr")
                      .c_str());
  EXPECT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 1) << rc;
  EXPECT_EQ(slurp(dir + "/stderr"), "ssdtlm: error: standard output: write failed\n");
}

}  // namespace
}  // namespace ssd::test
