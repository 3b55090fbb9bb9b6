// The command line (README, "Exit status"): usage, --version, exit 2 for every usage or
// option-value error and 1 for bad input, options that do not apply, and the warnings a run
// gives on stderr and in report.json.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <nlohmann/json.hpp>

#include "tb/tests/TraceTestUtil.h"

namespace ssd::test {
namespace {

const std::string kConfig = source_path("configs/default.json");

nlohmann::json report_of(const std::string& dir) {
  return nlohmann::json::parse(slurp(dir + "/report.json"));
}

TEST(Cli, NoArgumentsPrintsUsage) {
  std::string out;
  EXPECT_EQ(run_ssdtlm("", out), 2);
  EXPECT_NE(out.find("Usage: ssdtlm --config FILE"), std::string::npos) << out;
}

TEST(Cli, Version) {
  std::string out;
  EXPECT_EQ(run_ssdtlm("--version", out), 0);
  EXPECT_EQ(out.rfind("ssdtlm 0.1.0 (", 0), 0u) << out;  // then the git describe of the build
}

// The progress line goes to stderr on a terminal only, unless --progress asks for it (a sweep
// reads it from a pipe); --quiet drops it, so the two together are a usage error.
TEST(Cli, ProgressOffATerminalOnlyWhenAsked) {
  const std::string run = "--config " + kConfig + " --workload rw=randwrite,count=200,seed=1 ";
  std::string out;
  ASSERT_EQ(run_ssdtlm(run + "--out " + temp_dir("no_progress"), out), 0) << out;
  EXPECT_EQ(out.find("requests (100 %)"), std::string::npos) << out;
  ASSERT_EQ(run_ssdtlm(run + "--progress --out " + temp_dir("progress"), out), 0) << out;
  EXPECT_NE(out.find("\r  200/200 requests (100 %), simulated "), std::string::npos) << out;
  EXPECT_EQ(run_ssdtlm(run + "--progress --quiet --out " + temp_dir("progress_quiet"), out), 2);
  EXPECT_NE(out.find("--progress: not with --quiet"), std::string::npos) << out;
}

// --bench prints the figures make bench reads: requests per wall and CPU second, peak memory
// and the kernel's delta cycles per request.
TEST(Cli, BenchPrintsItsFigures) {
  std::string out;
  ASSERT_EQ(run_ssdtlm("--config " + kConfig +
                           " --workload rw=randwrite,count=200,seed=1 "
                           "--quiet --bench --out " +
                           temp_dir("bench"),
                       out),
            0)
      << out;
  for (const char* line :
       {"bench: 200 host requests in ", " requests per CPU second", "bench: peak memory (max RSS) ",
        " SystemC delta cycles: ", "bench: the simulated run "})
    EXPECT_NE(out.find(line), std::string::npos) << line << " in\n" << out;
  EXPECT_EQ(out.find("bench: preconditioning "), std::string::npos) << out;
  // Preconditioned, its CPU time apart from the run's.
  ASSERT_EQ(run_ssdtlm("--config " + source_path("configs/small_gc.json") +
                           " --precondition --workload rw=randwrite,count=200,seed=1"
                           " --quiet --bench --out " +
                           temp_dir("bench_pre"),
                       out),
            0)
      << out;
  EXPECT_NE(out.find("bench: preconditioning "), std::string::npos) << out;
}

TEST(Cli, UsageAndOptionValueErrorsExit2) {
  const std::string run = "--config " + kConfig + " --out " + temp_dir("out") + " ";
  const std::string trace = "--trace " + source_path("traces/umass_financial1.head1k.csv") + " ";
  const std::pair<std::string, std::string> cases[] = {
      {run + "--workload rw=read,count=1 stray",
       "unexpected word \"stray\" (options start with --; see --help)"},
      {"--config " + kConfig + " --workload rw=read,count=1 --out \"\"",
       "--out: expected a directory name, got \"\""},
      {"--config " + kConfig + " --workload rw=read,count=1 --out " + kConfig,
       "--out: " + kConfig + " exists and is not a directory"},
      {run + "--workload rw=read,count=1 --max-requests 1",
       "--max-requests: applies only to --trace and --workload-file"},
      {run + "--workload rw=read,count=1 --qd 4", "--qd: applies only to --trace"},
      {run + "--workload rw=read,count=1 --format spc", "--format: applies only to --trace"},
      {run + "--workload rw=read,count=1 --closed-loop", "--closed-loop: applies only to --trace"},
      {run + "--workload-file " + source_path("workloads/mixed-timed-example.json") + " --qd 2",
       "--qd: applies only to --trace"},
      {run + "--workload rw=read,count=1 --precondition --precondition-random nan",
       "--precondition-random: expected a finite non-negative number, got \"nan\""},
      {run + "--workload rw=read,count=1 --precondition --precondition-random inf",
       "--precondition-random: expected a finite non-negative number, got \"inf\""},
      {run + "--workload rw=read,count=1 --precondition --precondition-random 1e300",
       "--precondition-random: must be at most 100 (times the logical capacity), got \"1e300\""},
      {run + "--workload rw=read,count=1 --precondition-random 2",
       "--precondition-random: applies only with --precondition"},
      {run + "--workload rw=read,count=1 --precondition --precondition-fill 0",
       "--precondition-fill: must be above 0 and at most 1 (of the logical capacity), got \"0\""},
      {run + "--workload rw=read,count=1 --precondition --precondition-fill 1.5",
       "--precondition-fill: must be above 0 and at most 1 (of the logical capacity), got "
       "\"1.5\""},
      {run + "--workload rw=read,count=1 --precondition --precondition-fill half",
       "--precondition-fill: expected a finite non-negative number, got \"half\""},
      {run + "--workload rw=read,count=1 --precondition-fill 0.5",
       "--precondition-fill: applies only with --precondition"},
      {run + trace + "--qd x", "--qd: expected an unsigned integer, got \"x\""},
      {run + trace + "--bogus", "unrecognised option '--bogus' (see --help)"},
      {run + trace + "--presondition",
       "unrecognised option '--presondition'; did you mean \"--precondition\"?"},
      {run + "--workload rw=read,cuont=1",
       "--workload: cuont: unknown key (rw, mix, bs, qd, "
       "count, seed, offset, size, align, namespace, zones, zone_report_every, placement, "
       "placement_update_bytes); "
       "did you mean "
       "\"count\"?"},
      {"--workload rw=read,count=1 --out x", "--config is required"},
      {"--config " + kConfig + " --workload rw=read,count=1", "--out is required"},
      // Usage is checked before the files are read: a missing config does not hide it.
      {"--config /nonexistent.json --workload rw=read,count=1 --qd 2 --out x",
       "--qd: applies only to --trace"},
  };
  for (const auto& [args, message] : cases) {
    std::string out;
    EXPECT_EQ(run_ssdtlm(args, out), 2) << args << "\n" << out;
    EXPECT_NE(out.find("ssdtlm: error: " + message), std::string::npos) << args << "\n" << out;
  }
}

TEST(Cli, InputErrorsExit1) {
  const std::string run = "--config " + kConfig + " --out " + temp_dir("out") + " ";
  std::string out;
  EXPECT_EQ(run_ssdtlm("--config /nonexistent.json --workload rw=read --out x", out), 1) << out;
  const std::string bad = write_file("bad.spc", "0,1,512,q,0\n");
  EXPECT_EQ(run_ssdtlm(run + "--trace " + bad + " --format spc", out), 1) << out;
  EXPECT_NE(out.find(bad + ":1: Opcode: "), std::string::npos) << out;
}

// The warnings go to stderr and into report.json; a run without a reason for one has none.
TEST(Cli, UnmappedReadsWarn) {
  const std::string dir = temp_dir("out");
  std::string out;
  ASSERT_EQ(
      run_ssdtlm("--config " + kConfig + " --workload rw=randread,count=200 -q --out " + dir, out),
      0)
      << out;
  const nlohmann::json warnings = report_of(dir)["warnings"];
  ASSERT_EQ(warnings.size(), 1u) << warnings;
  const std::string expected =
      "200 of 200 page reads (100 %) were of never-written pages, answered without a flash read; "
      "their latency and energy are not a flash read's (fill the drive first: --precondition)";
  EXPECT_EQ(warnings[0], expected);
  EXPECT_EQ(out, "ssdtlm: warning: " + expected + "\n");

  ASSERT_EQ(
      run_ssdtlm("--config " + kConfig + " --workload rw=randwrite,count=200 -q --out " + dir, out),
      0);
  EXPECT_EQ(report_of(dir)["warnings"], nlohmann::json::array());
  EXPECT_EQ(out, "");
}

TEST(Cli, TimesInTheWrongUnitWarn) {
  // DiskSim times in seconds, read as the default nanoseconds: 1000 requests within 1 ns.
  std::string text;
  char line[64];
  for (int i = 0; i < 1000; ++i) {
    std::snprintf(line, sizeof line, "%.6f 0 %d 8 0\n", i * 1e-6, 8 * i);
    text += line;
  }
  const std::string trace = write_file("seconds.ascii", text);
  const std::string dir = temp_dir("out");
  std::string out;
  ASSERT_EQ(
      run_ssdtlm("--config " + kConfig + " --trace " + trace + " --format disksim -q --out " + dir,
                 out),
      0)
      << out;
  const nlohmann::json warnings = report_of(dir)["warnings"];
  ASSERT_EQ(warnings.size(), 1u) << warnings;
  EXPECT_NE(warnings[0].get<std::string>().find("faster than any host issues them: are the "
                                                "trace's times in another unit (--time-unit for "
                                                "disksim)?"),
            std::string::npos)
      << warnings;
}

// A workload deeper than the drive's queue: the drive never holds more than the queue, and the
// run says so; at the queue's depth it says nothing.
TEST(Cli, QueueDepthBeyondTheDrivesQueueWarns) {
  const std::string dir = temp_dir("out");
  std::string out;
  ASSERT_EQ(
      run_ssdtlm("--config " + kConfig + " --workload rw=randwrite,qd=64,count=200 -q --out " + dir,
                 out),
      0)
      << out;
  const nlohmann::json warnings = report_of(dir)["warnings"];
  ASSERT_EQ(warnings.size(), 1u) << warnings;
  const std::string expected =
      "the workload keeps up to 64 requests outstanding (qd), more than its submission queue "
      "holds (32, host.queue_depth or host.queues): the drive never has more than 32 of them, "
      "and the figures are those of that depth";
  EXPECT_EQ(warnings[0], expected);
  EXPECT_EQ(out, "ssdtlm: warning: " + expected + "\n");

  ASSERT_EQ(
      run_ssdtlm("--config " + kConfig + " --workload rw=randwrite,qd=32,count=200 -q --out " + dir,
                 out),
      0);
  EXPECT_EQ(report_of(dir)["warnings"], nlohmann::json::array());
}

TEST(Cli, ImplausiblePowerWarns) {
  nlohmann::json cfg = nlohmann::json::parse(slurp(kConfig));
  cfg["flash"]["voltage_v"] = 3300;
  cfg["power"]["regulators"]["nand"]["currents_at"] = "supply";  // else the rail's 5 V applies
  const std::string path = write_file("3300v.json", cfg.dump());
  const std::string dir = temp_dir("out");
  std::string out;
  ASSERT_EQ(
      run_ssdtlm("--config " + path + " --workload rw=randwrite,count=50 -q --out " + dir, out), 0)
      << out;
  const nlohmann::json warnings = report_of(dir)["warnings"];
  ASSERT_EQ(warnings.size(), 1u) << warnings;
  EXPECT_NE(warnings[0].get<std::string>().find(" W is more than any SSD draws (100 W): check the "
                                                "config's voltages and currents"),
            std::string::npos)
      << warnings;
}

TEST(Cli, EnergySeriesGrowsWithActivityNotTime) {
  // Two requests 1e15 ns (11.6 days) apart: 1e8 windows of 10 ms, one row per window before.
  const std::string trace = write_file("far.ascii", "0 0 0 8 0\n1000000000000000 0 8 8 0\n");
  const std::string dir = temp_dir("out");
  std::string out;
  ASSERT_EQ(
      run_ssdtlm("--config " + kConfig + " --trace " + trace + " --format disksim -q --out " + dir,
                 out),
      0)
      << out;
  std::ifstream csv(dir + "/energy.csv");
  std::string line, last;
  int rows = 0;
  std::getline(csv, line);  // header
  while (std::getline(csv, line)) {
    ++rows;
    last = line;
  }
  EXPECT_LE(rows, 8);
  // The last row holds the second request, at 1e6 s.
  EXPECT_GE(std::stod(last.substr(last.find(',') + 1)), 1e6) << last;
}

}  // namespace
}  // namespace ssd::test
