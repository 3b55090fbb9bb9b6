// Preconditioning (--precondition): the drive is filled functionally before measuring, so an
// aged drive garbage-collects where a pristine one does not, and every counter starts at 0.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "tb/run/Simulation.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/WorkloadGenerator.h"

namespace ssd {
namespace {

nlohmann::ordered_json run(const std::string& ftl, bool precondition, const std::string& spec) {
  config::DriveConfig cfg = test::shipped("small_gc");
  cfg.ftl.type = test::choice<config::FtlType>(ftl);
  cfg = config::parse_drive_config(config::to_json(cfg), "test");
  auto src = tb::make_workload(spec, cfg.logical_bytes());
  tb::RunOptions o;
  o.precondition = precondition;
  o.precondition_random = 0.5;
  const auto r = tb::run_simulation(cfg, *src, o);
  EXPECT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
  return r.report;
}

TEST(Precondition, AgedDriveCollectsGarbageWherePristineDoesNot) {
  for (const char* ftl : {"page", "dftl"}) {
    const std::string spec = "rw=randwrite,bs=4k,qd=8,seed=2,count=1500";
    const auto pristine = run(ftl, false, spec), aged = run(ftl, true, spec);
    EXPECT_EQ(pristine["gc"]["runs"].get<uint64_t>(), 0u) << ftl;
    EXPECT_EQ(pristine["precondition"]["done"], false);
    EXPECT_GT(aged["gc"]["runs"].get<uint64_t>(), 0u) << ftl;
    EXPECT_GT(aged["waf"].get<double>(), pristine["waf"].get<double>()) << ftl;
    EXPECT_EQ(aged["precondition"]["pages_written"].get<uint64_t>(),
              aged["drive"]["logical_bytes"].get<uint64_t>() / 4096 * 3 / 2);
    EXPECT_GT(aged["erase_counts"]["max"].get<uint64_t>(), 0u) << "wear from preconditioning stays";
  }
}

TEST(Precondition, CountersStartAtZeroAndReadsHitVersionZeroData) {
  for (const char* ftl : {"page", "dftl"}) {
    const auto r = run(ftl, true, "rw=randread,bs=4k,qd=4,seed=3,count=500");
    EXPECT_EQ(r["firmware"]["commands"].get<uint64_t>(), 500u) << ftl;
    EXPECT_EQ(r["firmware"]["page_writes"].get<uint64_t>(), 0u);
    EXPECT_EQ(r["firmware"]["unmapped_reads"].get<uint64_t>(), 0u) << "every page is in flash";
    EXPECT_EQ(r["flash_ops"]["program"].get<uint64_t>(), 0u) << ftl;
    EXPECT_EQ(r["flash_ops"]["erase"].get<uint64_t>(), 0u) << ftl;
    EXPECT_EQ(r["gc"]["victims"].get<uint64_t>(), 0u);
    EXPECT_EQ(r["energy_by_work_j"]["gc"].get<double>(), 0.0);
    EXPECT_EQ(r["scoreboard"]["pages_checked"].get<uint64_t>(), 500u);
    // Reads cost what they cost on a fresh drive: one flash read each (page FTL) and no
    // preconditioning time before the first.
    if (std::string(ftl) == "page") {
      EXPECT_EQ(r["flash_ops"]["read"].get<uint64_t>(), 500u);
      EXPECT_EQ(r["dram_accesses"].get<uint64_t>(), 500u);
    }
    EXPECT_LT(r["sim_time_s"].get<double>(), 1.0);
  }
}

TEST(Precondition, CommandLineOptions) {
  const std::string dir = test::temp_dir("cli");
  const std::string base = std::string(SSDTLM_BINARY) + " --config " +
                           test::source_path("configs/small_gc.json") +
                           " --workload rw=randread,count=10 -q --out " + dir;
  ASSERT_EQ(std::system((base + " --precondition --precondition-random 0.25").c_str()), 0);
  const auto r = nlohmann::json::parse(std::ifstream(dir + "/report.json"));
  EXPECT_EQ(r["precondition"]["done"], true);
  EXPECT_EQ(r["precondition"]["random_fraction"].get<double>(), 0.25);
  EXPECT_EQ(r["firmware"]["unmapped_reads"].get<uint64_t>(), 0u);
  EXPECT_EQ(r["precondition"]["fill_fraction"].get<double>(), 1.0);
  // Filled to a quarter, no random part: a quarter of the pages written, the reads of the
  // others find nothing.
  ASSERT_EQ(
      std::system(
          (base + " --precondition --precondition-fill 0.25 --precondition-random 0").c_str()),
      0);
  const auto quarter = nlohmann::json::parse(std::ifstream(dir + "/report.json"));
  EXPECT_EQ(quarter["precondition"]["fill_fraction"].get<double>(), 0.25);
  const uint64_t logical = test::shipped("small_gc").logical_units();
  EXPECT_EQ(quarter["precondition"]["pages_written"].get<uint64_t>(), logical / 4);
  EXPECT_GT(quarter["firmware"]["unmapped_reads"].get<uint64_t>(), 0u);
  const int rc = std::system((base + " --precondition-random -1 2>/dev/null").c_str());
  EXPECT_EQ(WEXITSTATUS(rc), 2) << "usage error";
  ASSERT_EQ(std::system((base + " --precondition --precondition-mode simulate").c_str()), 0);
  for (const char* bad :
       {" --precondition --precondition-mode fast", " --precondition-mode bulk"}) {
    const int status = std::system((base + bad + " 2>/dev/null").c_str());
    EXPECT_EQ(WEXITSTATUS(status), 2) << bad;
  }
}

}  // namespace
}  // namespace ssd
