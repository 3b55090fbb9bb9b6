// The block-mapped FTL family (block, bast, bast_star, fast, last) as a whole: data integrity
// and the program/erase identities on FakeHal under a mixed workload, whole-drive runs with
// the scoreboard (random overwrites of 3x the capacity, sequential overwrites), a regression
// on the shipped Financial1 trace, table sizes and the block budget.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <string>

#include "common/Errors.h"
#include "tb/run/Simulation.h"
#include "tb/tests/LogFtlRig.h"
#include "tb/workload/WorkloadGenerator.h"

namespace ssd {
namespace {

using test::LogFtlRig;

const char* const kTypes[] = {"block", "bast", "bast_star", "fast", "last"};

// Every erase is a data block replaced by a merge (at most one per merge), a log block
// cleaned, or a wear-levelling swap's cold block.
void expect_erases_match_merges(const std::string& type, uint64_t erases, uint64_t switches,
                                uint64_t partials, uint64_t fulls, uint64_t log_erases,
                                uint64_t swaps) {
  ASSERT_GE(erases, log_erases + swaps) << type;
  EXPECT_LE(erases - log_erases - swaps, switches + partials + fulls) << type;
  if (type == "block") {
    // Every copy-on-update or fold erases the old data block, and a fold the replacement block.
    EXPECT_EQ(erases, fulls + log_erases) << type;
    EXPECT_EQ(switches + partials + swaps, 0u) << type;
  }
}

// Sequential runs of 1-16 pages, single random pages, reads and trims over 4 dies; 3x the
// capacity written.
TEST(FtlFamily, MixedWorkloadKeepsEveryPageOnFakeHal) {
  for (const char* type : kTypes) {
    SCOPED_TRACE(type);
    LogFtlRig rig(test::log_drive(type, 4, 32, 8, 0.25, 0.03));
    const uint64_t pages = rig.cfg().logical_pages();
    std::mt19937_64 rng(3);
    uint64_t written = 0;
    while (written < 3 * pages) {
      const fw::Lpn start = rng() % pages;
      switch (rng() % 10) {
        case 0:
          rig.trim(start);
          break;
        case 1:
        case 2:
          rig.check(start);
          break;
        case 3:
        case 4:
        case 5: {
          const uint64_t n = std::min<uint64_t>(1 + rng() % 16, pages - start);
          rig.write_range(start, n);
          written += n;
          break;
        }
        default:
          rig.write(start);
          ++written;
      }
    }
    rig.check_all();
    rig.expect_program_identity();
    const auto& s = rig.log_stats();
    EXPECT_GT(s.merges_full, 0u);
    // bast_star cleans a log block only once it is full, and runs starting at random offsets
    // seldom fill one: its writes fall back to copy-on-update (full merges) instead.
    const std::string t = type;
    if (t != "block" && t != "bast_star") {
      EXPECT_GT(s.merges_switch + s.merges_partial, 0u);
    }
    expect_erases_match_merges(type, rig.stats().blocks_erased, s.merges_switch, s.merges_partial,
                               s.merges_full, s.log_blocks_erased,
                               rig.figure("merges", "wl_swaps"));
  }
}

config::DriveConfig small_gc(const std::string& type) {
  auto cfg = test::shipped("small_gc");
  cfg.ftl.type = test::choice<config::FtlType>(type);
  return cfg;
}

// Report invariants every run of these FTLs must meet.
void expect_report_invariants(const std::string& type, const nlohmann::ordered_json& rep) {
  const auto& m = rep["merges"];
  const uint64_t host = rep["firmware"]["page_writes"].get<uint64_t>();
  const uint64_t programs = rep["flash_ops"]["program"].get<uint64_t>();
  ASSERT_GT(host, 0u) << type;
  const double waf = rep["waf"].get<double>();
  EXPECT_GE(waf, 1.0) << type;
  const double data_pages = double(rep["requests"]["write_bytes"].get<uint64_t>()) /
                            double(rep["drive"]["page_bytes"].get<uint64_t>());
  EXPECT_NEAR(data_pages * waf, double(programs), 1e-6 * double(programs)) << type;
  EXPECT_EQ(programs, host + m["pages_copied"].get<uint64_t>() + m["pages_padded"].get<uint64_t>() +
                          rep["wear_leveling"]["pages_copied"].get<uint64_t>() +
                          rep["flash_ops"]["gc_copy"].get<uint64_t>())
      << type;
  // Only bast_star swaps.
  EXPECT_EQ(m.contains("wl_swaps"), type == "bast_star") << type;
  expect_erases_match_merges(type, rep["flash_ops"]["erase"].get<uint64_t>(),
                             m["switch"].get<uint64_t>(), m["partial"].get<uint64_t>(),
                             m["full"].get<uint64_t>(), m["log_blocks_erased"].get<uint64_t>(),
                             m.value("wl_swaps", uint64_t(0)));
  EXPECT_EQ(rep["scoreboard"]["mismatches"].get<uint64_t>(), 0u) << type;
}

nlohmann::ordered_json run(const config::DriveConfig& cfg, const std::string& spec) {
  auto src = tb::make_workload(spec, cfg.logical_bytes());
  const tb::RunResult r = tb::run_simulation(cfg, *src, tb::RunOptions{});
  EXPECT_TRUE(r.data_intact) << to_string(cfg.ftl.type) << ": " << r.report["scoreboard"].dump();
  return r.report;
}

TEST(FtlFamily, ScoreboardHoldsThroughMergesOnRandomOverwrites) {
  for (const char* type : kTypes) {
    const auto cfg = small_gc(type);
    const uint64_t pages = cfg.logical_pages();
    const uint64_t count = pages * 3 * 4 / 3;  // 75 % writes: 3x capacity written
    const auto rep =
        run(cfg, "rw=randrw,mix=0.25,bs=4k,qd=16,seed=7,count=" + std::to_string(count));
    EXPECT_EQ(rep["drive"]["ftl"].get<std::string>(), type);
    EXPECT_GE(rep["requests"]["write"].get<uint64_t>(), 3 * pages * 98 / 100) << type;
    EXPECT_GT(rep["merges"]["full"].get<uint64_t>(), 1000u) << type;
    EXPECT_GT(rep["flash_ops"]["erase"].get<uint64_t>(), 1000u) << type;
    EXPECT_GT(rep["scoreboard"]["pages_checked"].get<uint64_t>(), pages) << type;
    EXPECT_GT(rep["energy_by_work_j"]["merge"].get<double>(), 0.0) << type;
    expect_report_invariants(type, rep);
  }
}

TEST(FtlFamily, ScoreboardHoldsOnSequentialOverwrites) {
  for (const char* type : kTypes) {
    const auto cfg = small_gc(type);
    // 80 % writes of 64 KB on one cursor: the capacity is overwritten 3x.
    const uint64_t count = cfg.logical_bytes() * 3 / 65536 * 5 / 4;
    const auto rep = run(cfg, "rw=rw,mix=0.2,bs=64k,qd=4,count=" + std::to_string(count));
    EXPECT_GT(rep["scoreboard"]["pages_checked"].get<uint64_t>(), 1000u) << type;
    EXPECT_GT(rep["flash_ops"]["erase"].get<uint64_t>(), 0u) << type;
    expect_report_invariants(type, rep);
    // Whole sequential blocks: the log-block FTLs switch; the block FTL copies on update.
    if (std::string(type) == "block") {
      EXPECT_GT(rep["merges"]["full"].get<uint64_t>(), 0u);
    } else {
      EXPECT_GT(rep["merges"]["switch"].get<uint64_t>(), 0u) << type;
    }
  }
}

// Pure sequential overwrites are where log blocks shine: every full log block switches, so
// the write amplification of the FTLs with a sequential log stays near 1.
TEST(FtlFamily, PureSequentialWritesSwitchWithoutCopies) {
  for (const char* type : {"bast", "fast", "last"}) {
    const auto cfg = small_gc(type);
    const uint64_t count = cfg.logical_bytes() * 2 / 65536;
    const auto rep = run(cfg, "rw=write,bs=64k,qd=4,count=" + std::to_string(count));
    EXPECT_EQ(rep["merges"]["full"].get<uint64_t>(), 0u) << type;
    EXPECT_EQ(rep["merges"]["pages_copied"].get<uint64_t>(), 0u) << type;
    EXPECT_EQ(rep["merges"]["switch"].get<uint64_t>(), 2 * cfg.logical_pages() / 32) << type;
    EXPECT_DOUBLE_EQ(rep["waf"].get<double>(), 1.0) << type;
    expect_report_invariants(type, rep);
  }
}

using test::run_cli;

// The shipped Financial1 excerpt (OLTP: small random writes) on the small drive, wrapped into
// its 24 MiB: each FTL completes it with its data intact and a consistent report.
TEST(FtlFamily, Financial1TraceRegression) {
  const std::string trace = test::source_path("traces/umass_financial1.head10k.spc");
  for (const char* type : kTypes) {
    const std::string dir = test::temp_dir(type);
    std::ofstream(dir + "/drive.json") << config::to_json(small_gc(type)).dump(2);
    std::string out;
    ASSERT_EQ(run_cli("--config " + dir + "/drive.json --trace " + trace +
                          " --format spc --quiet --out " + dir + "/out",
                      out),
              0)
        << type << ": " << out;
    const auto rep = nlohmann::ordered_json::parse(test::slurp(dir + "/out/report.json"));
    EXPECT_EQ(rep["requests"]["count"].get<uint64_t>(), 10000u) << type;
    EXPECT_EQ(rep["drive"]["ftl"].get<std::string>(), type);
    EXPECT_GT(rep["merges"]["full"].get<uint64_t>() + rep["merges"]["partial"].get<uint64_t>() +
                  rep["merges"]["switch"].get<uint64_t>(),
              0u)
        << type;
    expect_report_invariants(type, rep);
  }
}

TEST(FtlFamily, MappingTableCountsBlockEntriesAndLogPages) {
  // small_gc: 6144 logical pages = 192 logical blocks of 32 pages, 48 per die, 4 dies;
  // log blocks per die: ceil(0.03 x 48) = 2 (bast, bast_star), 1 + 2 (fast), 4 + 2 (last);
  // block: one entry per replacement block (2 per die), found by spare areas, not a log map.
  const std::pair<const char*, uint64_t> expected[] = {{"block", 192 + 2 * 4},
                                                       {"bast", 192 + 2 * 4 * 32},
                                                       {"bast_star", 192 + 2 * 4 * 32},
                                                       {"fast", 192 + 3 * 4 * 32},
                                                       {"last", 192 + 6 * 4 * 32}};
  for (const auto& [type, entries] : expected) {
    const auto cfg = small_gc(type);
    test::FakeHal hal(cfg.flash);
    EXPECT_EQ(fw::make_ftl(cfg, hal)->mapping_table_bytes(), entries * 4) << type;
  }
}

TEST(FtlFamily, TooFewBlocksPerDieIsAConfigError) {
  auto cfg = small_gc("last");
  cfg.ftl.last_seq_log_blocks = 14;  // 48 data + 14 + 2 log + 1 spare = 65 > 64
  test::FakeHal hal(cfg.flash);
  try {
    fw::make_ftl(cfg, hal);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "the last FTL needs 65 blocks per die (48 data blocks, 16 log blocks and 1 "
                  "spare for merges), the die has 64"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace ssd
