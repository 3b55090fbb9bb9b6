// Whatever the model refuses when it is built, --dump-config (and so the sweep's pre-check,
// tools/ssdtlm_tools/sweep.py) refuses first (issue 43): each build-time rule of model/ and
// firmware/ is broken by a shipped config with --set, and both the run's build
// (tb::run_simulation) and --dump-config refuse it, naming the key; the dump names the file.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "config/Overrides.h"
#include "tb/run/Simulation.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"

namespace ssd {
namespace {

struct BuildRule {
  const char* where;  // the source that refuses the drive as it is built
  const char* config;
  std::vector<std::string> sets;
  std::string problem;  // "<key>: <reason>" (the start of it)
};

// Every rule the build enforces (a ConfigError thrown, or a problem added, while model::Ssd
// and the firmware are built). Not here: the log-block FTLs' 32-bit logical block numbers and
// log pages, and DFTL's 32-bit translation page numbers: the config's own address-space rule
// (flash.* within kMaxPages pages, ftl.mapping_unit_bytes) refuses every drive that would
// break them.
const std::vector<BuildRule>& rules() {
  static const std::vector<BuildRule> kRules = {
      {"firmware/ftl/Dftl.cpp",
       "small_gc",
       {"ftl.type=dftl", "flash.page_bytes=2048", "dram.access_bytes=4096"},
       "dram.access_bytes: the dftl FTL needs at most flash.page_bytes (2048) for its "
       "translation pages"},
      {"firmware/ftl/Dftl.cpp",
       "small_gc",
       {"ftl.type=dftl", "ftl.map_cache_bytes=2"},
       "ftl.map_cache_bytes: the dftl FTL caches from one entry of dram.access_bytes (4) to "
       "fewer than 2^32; it holds 0"},
      {"firmware/ftl/Dftl.cpp",
       "small_gc",
       {"ftl.type=dftl", "ftl.mapping_unit_bytes=512", "ftl.map_cache_bytes=16"},
       "ftl.map_cache_bytes: the dftl FTL caches the 8 entries of a page's units at once; it "
       "holds 4"},
      {"firmware/ftl/LogBlockFtl.cpp",
       "small_gc",
       {"ftl.type=last", "ftl.last_seq_log_blocks=14"},
       "ftl.overprovisioning: the last FTL needs 65 blocks per die (48 data blocks, 16 log "
       "blocks and 1 spare for merges), the die has 64"},
      {"firmware/ftl/LogBlockLayout.cpp",
       "small_gc",
       {"ftl.type=last", "ftl.last_seq_log_blocks=13", "flash.faults.erase_fail_probability=0.01"},
       "ftl.overprovisioning: the last FTL needs 65 blocks per die (48 data blocks, 15 log "
       "blocks, 1 spare for merges and 1 to lose to flash.faults), the die has 64"},
      {"firmware/FtlFactory.cpp",
       "x25m",
       {"ftl.size_dram_from_table=false", "dram.size_mb=16"},
       "dram.size_mb: the page FTL's mapping table needs 36 MiB, more than the 16 MiB DRAM"},
      {"model/dram/Dram.cpp",
       "x25m",
       {"dram.access_bytes=64"},
       "dram.parts: no part holds the page FTL's mapping table (603979776 bytes) and the "
       "write buffer (0 MiB); the largest, \"512MB\", has 512 MiB"},
      {"model/power/PowerBudget.cpp",
       "small_gc",
       {"power_budget.enabled=true", "power_budget.max_power_w=0.01"},
       "power_budget.max_power_w: a cap of "},
      {"model/thermal/ThermalThrottle.cpp",
       "small_gc",
       {"thermal.enabled=true", "thermal.throttle.action=power_budget",
        "thermal.throttle.max_power_w=0.01"},
       "thermal.throttle.max_power_w: a cap of "},
  };
  return kRules;
}

config::DriveConfig with_sets(const BuildRule& r) {
  nlohmann::json doc =
      config::read_config_json(test::source_path(std::string("configs/") + r.config + ".json"));
  for (const std::string& s : r.sets) config::apply_override(doc, s);
  return config::parse_drive_config(doc, "t.json");
}

std::string dump_args(const BuildRule& r) {
  std::string args = "--config " + test::source_path(std::string("configs/") + r.config + ".json");
  for (const std::string& s : r.sets) args += " --set " + s;
  return args + " --dump-config";
}

// Each rule: the config reads, the build refuses it, and the dump refuses it first with the
// same problem naming the file.
TEST(BuildRules, TheDumpRefusesWhatTheBuildRefuses) {
  for (const BuildRule& r : rules()) {
    SCOPED_TRACE(std::string(r.where) + ": " + r.problem);
    config::DriveConfig cfg;
    ASSERT_NO_THROW(cfg = with_sets(r)) << "the config's own rules pass";
    tb::VectorSource src({test::request(0, tb::IoOp::Write, 0, 4096)});
    try {
      tb::run_simulation(cfg, src, tb::RunOptions{});
      ADD_FAILURE() << "the build accepted it";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("drive '" + cfg.name + "': " + r.problem),
                std::string::npos)
          << e.what();
    }
    std::string out;
    EXPECT_EQ(test::run_cli(dump_args(r), out), 1) << out;
    EXPECT_EQ(out.find('{'), std::string::npos) << "no config printed: " << out;
    EXPECT_NE(out.find("ssdtlm: error: " +
                       test::source_path(std::string("configs/") + r.config + ".json") +
                       " with --set: " + r.problem),
              std::string::npos)
        << out;
  }
}

// The build's rules come together too: those that need no model (the FTL's, the DRAM's) all
// at once before anything is built, and the power rules of the built drive all at once.
TEST(BuildRules, SeveralComeInOneMessage) {
  const auto lines = [](const std::string& args) {
    std::string out;
    EXPECT_EQ(
        test::run_cli(
            "--config " + test::source_path("configs/x25m.json") + args + " --dump-config", out),
        1);
    return out;
  };
  // FAST's log blocks leave no spare block, and its table outgrows the 4 MiB DRAM.
  std::string out = lines(
      " --set ftl.type=fast --set ftl.log_block_fraction=0.2 --set ftl.size_dram_from_table=false"
      " --set dram.size_mb=4");
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 2) << out;
  EXPECT_NE(out.find("with --set: ftl.overprovisioning: the fast FTL needs "), std::string::npos)
      << out;
  EXPECT_NE(out.find("with --set: dram.size_mb: the fast FTL's mapping table needs "),
            std::string::npos)
      << out;
  // A cap and a throttled cap, each below the drive's worst case without flash operations.
  out = lines(
      " --set power_budget.enabled=true --set power_budget.max_power_w=0.01"
      " --set thermal.enabled=true --set thermal.throttle.action=power_budget"
      " --set thermal.throttle.max_power_w=0.01");
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 2) << out;
  EXPECT_NE(out.find("with --set: power_budget.max_power_w: a cap of "), std::string::npos) << out;
  EXPECT_NE(out.find("with --set: thermal.throttle.max_power_w: a cap of "), std::string::npos)
      << out;
}

}  // namespace
}  // namespace ssd
