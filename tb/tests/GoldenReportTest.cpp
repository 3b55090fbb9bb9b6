// Golden reports: a few small runs of the executable, each through different paths of the
// model, whose report.json must match byte for byte the one committed under tb/tests/golden/.
// Work that should change no figure (optimisation, refactoring) is checked by these.
//
// A change that is meant to alter figures regenerates them on purpose (then review the diff):
//   SSDTLM_UPDATE_GOLDEN=1 ctest --test-dir build -R GoldenReport
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

// A native CSV trace of reads, writes and trims of 4-16 KiB, 20 us apart, to the first
// `hot_pages` pages: no shipped trace and no workload has trims.
void write_hot_mix(const std::string& path, uint64_t n, uint64_t seed, uint64_t hot_pages) {
  std::ofstream out(path);
  out << "time_ns,op,offset,length\n";
  const char* ops[] = {"read", "write", "trim"};
  for (const tb::HostRequest& r : test::hot_mix(n, seed, hot_pages)) {
    out << std::llround(r.arrival.to_seconds() * 1e9) << ',' << ops[int(r.op)] << ','
        << r.offset_bytes << ',' << r.length_bytes << '\n';
  }
}

// small_gc with another FTL, every default written out.
std::string small_gc_with(const std::string& dir, const std::string& ftl) {
  config::DriveConfig cfg = test::shipped("small_gc");
  cfg.ftl.type = test::choice<config::FtlType>(ftl);
  std::string path = dir + "/small_gc_" + ftl + ".json";
  std::ofstream(path) << config::to_json(cfg).dump(2) << '\n';
  return path;
}

// Runs `args` from directory `cwd` into a fresh directory and compares its report.json with
// golden/<name>.json. The report names a trace by the path it was given: a trace is given
// relative to `cwd`, so the golden file does not depend on where the tree or temp dir is.
// The `provenance` object is left out: it names the commit, the paths of the command line and
// a digest of the effective config, none of them a figure of the model (CliTest checks it).
void expect_golden(const std::string& name, const std::string& args, const std::string& cwd = ".") {
  const std::string dir = test::temp_dir(name);
  const std::filesystem::path was = std::filesystem::current_path();
  std::filesystem::current_path(cwd);
  std::string log;
  const int rc =
      test::run_cli(args + " --reproducible --no-series --quiet --out " + dir + "/out", log);
  std::filesystem::current_path(was);
  ASSERT_EQ(rc, 0) << log;
  const std::string raw = test::slurp(dir + "/out/report.json");
  ASSERT_FALSE(raw.empty());
  nlohmann::ordered_json report = nlohmann::ordered_json::parse(raw);
  ASSERT_TRUE(report.contains("provenance"));
  report.erase("provenance");
  const std::string got = report.dump(2) + "\n";
  const std::string golden = test::source_path("tb/tests/golden/" + name + ".json");
  if (std::getenv("SSDTLM_UPDATE_GOLDEN")) {
    std::ofstream(golden, std::ios::binary) << got;
    return;
  }
  const std::string want = test::slurp(golden);
  ASSERT_FALSE(want.empty()) << golden << " missing (SSDTLM_UPDATE_GOLDEN=1 writes it)";
  if (got == want) return;
  // The first differing line says which figure moved.
  std::istringstream g(got), w(want);
  std::string gl, wl;
  for (int line = 1;; ++line) {
    const bool more_g = bool(std::getline(g, gl)), more_w = bool(std::getline(w, wl));
    if (gl != wl || more_g != more_w) {
      ADD_FAILURE() << golden << " line " << line << ": want\n" << wl << "\ngot\n" << gl;
      return;
    }
    if (!more_g) break;
  }
}

std::string config(const std::string& name) {
  return " --config " + test::source_path("configs/" + name + ".json");
}

// Page FTL, open-loop trace replay with partial-page requests (read-modify-writes).
TEST(GoldenReport, DefaultDriveFinancial1) {
  expect_golden("default_financial1",
                config("default") +
                    " --trace traces/umass_financial1.head10k.spc --format spc --max-requests 2000",
                test::source_path(""));
}

// The founding study's block mapping (replacement blocks, spare-area reads, folds) on its
// 4x4 case-study drive, the Financial1 excerpt's first 2,000 requests.
TEST(GoldenReport, CaseStudyBlockMappingFinancial1) {
  expect_golden("case_4x4_block_financial1",
                config("case_4x4") +
                    " --set ftl.type=block --trace traces/umass_financial1.head10k.spc"
                    " --format spc --max-requests 2000",
                test::source_path(""));
}

// The NVMe drive as shipped (write buffer, SLC cache, multi-plane, cache program, reads first,
// suspend, the NAND part's ordering rules, incremental GC): 4 KiB requests on 16 KiB pages
// (read-modify-writes) in 32 MiB, closed loop at QD 32.
TEST(GoldenReport, NvmeRandomReadWrite) {
  expect_golden("nvme_randrw", config("nvme_tlc_1tb") +
                                   " --workload rw=randrw,mix=0.5,bs=4k,qd=32,count=4000,seed=3,"
                                   "size=32m");
}

// DFTL on a drive preconditioned by simulation: translation traffic and garbage collection.
TEST(GoldenReport, SmallGcDftlPreconditioned) {
  const std::string dir = test::temp_dir("config");
  expect_golden("small_gc_dftl_precondition",
                " --config " + small_gc_with(dir, "dftl") +
                    " --precondition --precondition-random 0.5 --precondition-mode simulate"
                    " --workload rw=randrw,mix=0.3,bs=8k,qd=8,count=3000,seed=5");
}

// DFTL preconditioned in bulk, its cache small enough to miss: the translation pages, the
// directory and the cache as the bulk model lays them out.
TEST(GoldenReport, SmallGcDftlBulkPreconditioned) {
  const std::string dir = test::temp_dir("config");
  expect_golden("small_gc_dftl_bulk",
                " --config " + small_gc_with(dir, "dftl") +
                    " --set ftl.map_cache_bytes=2048 --precondition --precondition-random 1.5"
                    " --workload rw=randrw,mix=0.3,bs=8k,qd=8,count=3000,seed=5");
}

// Page FTL on a preconditioned drive: reads, writes and trims of a hot region under GC.
TEST(GoldenReport, SmallGcPageTrims) {
  const std::string dir = test::temp_dir("trace");
  write_hot_mix(dir + "/hot_mix.csv", 3000, 11, 2000);
  expect_golden("small_gc_page_trims",
                config("small_gc") + " --precondition --trace hot_mix.csv --format csv", dir);
}

// The NVMe drive scaled down and preconditioned, with program/erase suspend, without cache
// program (a staged program keeps a die from suspending) or write buffer (it destages when no
// read is waiting): GC queues a victim's copies at every die, so the scheduler's block
// chains, multi-plane waits and suspensions work under deep queues.
TEST(GoldenReport, NvmeAgedSuspend) {
  expect_golden("nvme_aged_suspend",
                config("nvme_tlc_1tb") +
                    " --set flash.blocks_per_plane=150 --set flash.pages_per_block=192"
                    " --set ftl.overprovisioning=0.2 --set controller.suspend_for_reads=true"
                    " --set flash.cache_program=false --set dram.write_buffer_mb=0"
                    " --precondition --workload rw=randrw,mix=0.7,bs=4k,qd=32,count=3000,seed=1");
}

}  // namespace
}  // namespace ssd
