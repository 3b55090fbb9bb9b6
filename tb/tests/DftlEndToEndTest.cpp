// Whole-drive runs of the page and dftl FTLs: the scoreboard through heavy GC, and a
// regression on a real trace excerpt checking the report's invariants.
#include <gtest/gtest.h>

#include "tb/RequestSourceFactory.h"
#include "tb/Simulation.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

config::DriveConfig drive(const std::string& ftl) {
  config::DriveConfig c = test::shipped("small_gc");
  c.ftl.type = ftl;
  c.ftl.map_cache_bytes = 1024;  // 256 entries: misses and evictions all the time
  return config::parse_drive_config(config::to_json(c), "test");
}

nlohmann::ordered_json run(const config::DriveConfig& cfg, tb::RequestSource& src) {
  const auto r = tb::run_simulation(cfg, src, tb::RunOptions{});
  EXPECT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
  EXPECT_EQ(r.report["scoreboard"]["mismatches"].get<uint64_t>(), 0u);
  return r.report;
}

// The identities every page-level run satisfies; DFTL adds its translation pages.
void check_invariants(const nlohmann::ordered_json& r, const std::string& ftl) {
  const auto& f = r["flash_ops"];
  const uint64_t host = r["firmware"]["page_writes"].get<uint64_t>();
  const uint64_t tw = r["dftl"]["translation_writes"].get<uint64_t>();
  const uint64_t tr = r["dftl"]["translation_reads"].get<uint64_t>();
  ASSERT_GT(host, 0u);
  EXPECT_GE(r["waf"].get<double>(), 1.0);
  // programs = host pages x WAF = host pages + GC copies + WL copies + translation writes.
  EXPECT_EQ(f["program"].get<uint64_t>(), host + f["gc_copy"].get<uint64_t>() +
                                              r["wear_leveling"]["pages_copied"].get<uint64_t>() +
                                              tw)
      << ftl;
  EXPECT_NEAR(r["waf"].get<double>() * double(host), double(f["program"].get<uint64_t>()), 1e-6);
  // reads = mapped host page reads + read-modify-write reads + copies + translation reads.
  const uint64_t host_reads =
      r["firmware"]["page_reads"].get<uint64_t>() - r["firmware"]["unmapped_reads"].get<uint64_t>();
  EXPECT_EQ(f["read"].get<uint64_t>(), host_reads + r["firmware"]["rmw_reads"].get<uint64_t>() +
                                           f["gc_copy"].get<uint64_t>() +
                                           r["wear_leveling"]["pages_copied"].get<uint64_t>() + tr)
      << ftl;
  // Every erase is a GC victim or a wear-levelling move; the erase counts add up to them.
  EXPECT_EQ(f["erase"].get<uint64_t>(),
            r["gc"]["victims"].get<uint64_t>() + r["wear_leveling"]["moves"].get<uint64_t>());
  const double blocks = double(r["drive"]["raw_bytes"].get<uint64_t>()) / 4096 / 32;
  EXPECT_NEAR(r["erase_counts"]["mean"].get<double>() * blocks, double(f["erase"].get<uint64_t>()),
              1e-6);
  if (ftl == "dftl") {
    const double hit = r["dftl"]["hit_ratio"].get<double>();
    EXPECT_GE(hit, 0.0);
    EXPECT_LE(hit, 1.0);
    EXPECT_GT(tw + tr, 0u);
    EXPECT_GT(r["energy_by_work_j"]["mapping"].get<double>(), 0.0);
  } else {
    EXPECT_EQ(tw + tr, 0u);
    EXPECT_TRUE(r["dftl"]["hit_ratio"].is_null());
  }
}

TEST(DftlEndToEnd, ScoreboardHoldsOnRandomOverwritesOfThreeCapacities) {
  for (const char* ftl : {"page", "dftl"}) {
    const auto cfg = drive(ftl);
    const uint64_t count = cfg.logical_pages() * 3 * 4 / 3;  // 75 % writes: 3x capacity
    auto src =
        tb::make_workload("rw=randrw,mix=0.25,bs=4k,qd=16,seed=7,count=" + std::to_string(count),
                          cfg.logical_bytes());
    const auto r = run(cfg, *src);
    EXPECT_GT(r["gc"]["victims"].get<uint64_t>(), 100u) << ftl;
    check_invariants(r, ftl);
  }
}

TEST(DftlEndToEnd, ScoreboardHoldsOnSequentialOverwrites) {
  for (const char* ftl : {"page", "dftl"}) {
    const auto cfg = drive(ftl);
    const uint64_t count = cfg.logical_bytes() * 3 / 65536 * 5 / 4;
    auto src = tb::make_workload("rw=rw,mix=0.2,bs=64k,qd=4,count=" + std::to_string(count),
                                 cfg.logical_bytes());
    const auto r = run(cfg, *src);
    EXPECT_GT(r["flash_ops"]["erase"].get<uint64_t>(), 0u) << ftl;
    check_invariants(r, ftl);
    // The CMT caches entries, not pages: new sequential pages miss one by one, but one
    // eviction's translation write cleans every dirty neighbour cached with it.
    if (std::string(ftl) == "dftl") {
      EXPECT_LT(16 * r["dftl"]["translation_writes"].get<uint64_t>(),
                r["dftl"]["cmt_misses"].get<uint64_t>());
    }
  }
}

TEST(DftlEndToEnd, Financial1RegressionInvariants) {
  for (const char* ftl : {"page", "dftl"}) {
    const auto cfg = drive(ftl);
    tb::TraceOptions o;
    o.format = "spc";
    auto src = tb::open_trace(test::source_path("traces/umass_financial1.head10k.spc"), o);
    const auto r = run(cfg, *src);
    EXPECT_EQ(r["requests"]["count"].get<uint64_t>(), 10000u);
    check_invariants(r, ftl);
  }
}

}  // namespace
}  // namespace ssd
