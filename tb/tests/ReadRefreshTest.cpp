// Read refresh (ftl.read_refresh, docs/reliability.md#read-refresh): the firmware's estimate of a
// block's bit errors is the NAND's formula on its own records; a read that takes it to the
// threshold queues the block, and the rewrite moves exactly the block's valid units and erases
// it, losing nothing. End to end, a read-only run rewrites blocks as their reads disturb them,
// and scans find old data no read touches.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include "common/Errors.h"
#include "firmware/ftl/PageFtl.h"
#include "firmware/gc/ReadRefresh.h"
#include "tb/tests/CliReport.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

constexpr double kBase = 1e-4, kDisturb = 1e-6;
constexpr double kCodewordBits = 1024 * 8;

// small_gc (4 dies of 64 blocks of 32 pages) on aging NAND whose errors grow only with reads:
// a block's estimate is (kBase + kDisturb r) x 8192 bits after r reads, 20 errors per codeword
// at r = 2341.4, so its 2342nd read queues it.
config::DriveConfig drive() {
  config::DriveConfig c = test::shipped("small_gc");
  config::ReliabilityConfig& r = c.flash.reliability;
  r.enabled = true;
  r.rber_base = kBase;
  r.rber_disturb = kDisturb;
  r.disturb_wear_exponent = 0;  // the wear does not scale it
  c.ftl.read_refresh.enabled = true;
  c.ftl.read_refresh.errors_per_codeword = 20;
  return config::parse_drive_config(config::to_json(c), "test");
}
constexpr uint64_t kReadsToQueue = 2342;

TEST(ReadRefresh, TheEstimateIsTheNandsFormulaOnTheFirmwaresRecords) {
  config::DriveConfig c = drive();
  config::ReliabilityConfig& r = c.flash.reliability;
  r.rber_wear = 2e-7;
  r.wear_exponent = 1.5;
  r.rber_retention = 3e-8;
  r.retention_wear_exponent = 0.5;
  r.retention_time_exponent = 0.7;
  r.pe_cycles = 1000;
  r.retention_days = 30;
  r.temperature_c = 55;
  r.rber_by_page_type = {1.0, 1.5, 2.5};  // as a TLC part's (not validated here)
  test::FakeHal hal(c.flash);
  fw::ReadRefresh refresh(c, hal);
  refresh.opened(1, 7, sc_core::sc_time(2, sc_core::SC_SEC));
  for (int i = 0; i < 10; ++i) refresh.read(1, 7, 12, sc_core::sc_time(3, sc_core::SC_SEC));
  const sc_core::sc_time now(2 + 86400, sc_core::SC_SEC);  // a day after it was opened
  // By hand: c = 12 + 1000 erases, t = 1 day x Arrhenius(25 C -> 55 C at 1.1 eV), r = 10, at the
  // page type that errs most (2.5).
  const double a = std::exp(1.1 / 8.617333262e-5 * (1 / 298.15 - 1 / 328.15));
  const auto by_hand = [&](double cycles, double days, double reads) {
    const double rate = kBase + 2e-7 * std::pow(cycles, 1.5) +
                        3e-8 * std::pow(cycles, 0.5) * std::pow(days * a, 0.7) + kDisturb * reads;
    return rate * 2.5 * kCodewordBits;
  };
  EXPECT_NEAR(refresh.estimate(1, 7, 12, now), by_hand(1012, 1, 10), 1e-9);
  // A block not opened in the run holds data from before it: retention_days old at its start.
  EXPECT_NEAR(refresh.estimate(1, 8, 3, now), by_hand(1003, 30 + 86402.0 / 86400, 0), 1e-9);
  EXPECT_EQ(refresh.reads(1, 7), 10u);
  refresh.erased(1, 7);
  EXPECT_EQ(refresh.reads(1, 7), 0u);
}

// With run_temperature "die" the run's time ages data as the die's sensor integrates it (here a
// die at 70 C throughout), data from before the run its retention_days at temperature_c first.
TEST(ReadRefresh, OnTheDiesTemperatureTheRunsTimeAgesDataAsItsSensorSays) {
  config::DriveConfig c = drive();
  config::ReliabilityConfig& r = c.flash.reliability;
  r.rber_retention = 3e-8;
  r.retention_wear_exponent = 0;
  r.retention_time_exponent = 0.7;
  r.retention_days = 30;
  r.temperature_c = 55;
  r.run_temperature = config::RunTemperature::Die;
  test::FakeHal hal(c.flash);
  const double hot = config::retention_acceleration(r, 70.0);
  hal.retention_factor = hot;
  fw::ReadRefresh refresh(c, hal);
  hal.compute(sc_core::sc_time(2, sc_core::SC_SEC));
  refresh.opened(1, 7, sc_core::sc_time(2, sc_core::SC_SEC));
  hal.compute(sc_core::sc_time(86400, sc_core::SC_SEC));  // a day later
  const double storage = std::exp(1.1 / 8.617333262e-5 * (1 / 298.15 - 1 / 328.15));
  const auto by_hand = [&](double reference_days) {
    return (kBase + 3e-8 * std::pow(reference_days, 0.7)) * kCodewordBits;
  };
  const sc_core::sc_time ignored;  // the sensors read the present
  EXPECT_NEAR(refresh.estimate(1, 7, 0, ignored), by_hand(hot), 1e-9);
  EXPECT_NEAR(refresh.estimate(1, 8, 0, ignored), by_hand(30 * storage + hot * 86402 / 86400),
              1e-9);
}

TEST(ReadRefresh, TheReadThatCrossesTheThresholdQueuesTheBlockOnce) {
  test::FakeHal hal(drive().flash);
  fw::ReadRefresh refresh(drive(), hal);
  const sc_core::sc_time t;
  for (uint64_t i = 1; i < kReadsToQueue; ++i) refresh.read(2, 5, 0, t);
  EXPECT_FALSE(refresh.next(2));
  EXPECT_EQ(refresh.queued_by_reads, 0u);
  refresh.read(2, 5, 0, t);
  ASSERT_TRUE(refresh.next(2));
  EXPECT_EQ(*refresh.next(2), 5u);
  EXPECT_EQ(refresh.queued_by_reads, 1u);
  refresh.read(2, 5, 0, t);  // still due: queued once
  EXPECT_EQ(refresh.queued_by_reads, 1u);
  // Erased before its rewrite (GC took it): its entry is void.
  refresh.erased(2, 5);
  EXPECT_FALSE(refresh.next(2));
}

struct Filled {
  Filled() : cfg(drive()), hal(cfg.flash), ftl(cfg, hal) {
    for (fw::Lpn l = 0; l < cfg.logical_pages(); ++l)
      ftl.write(l, fw::PageToken{l, l + 1}, fw::kNoOp);
  }
  // Where the unit of `lpn` is: the flash read its look-up issues.
  fw::Ppa where(fw::Lpn lpn) {
    fw::PageToken t;
    ftl.read(lpn, t);
    return hal.ops().back().ppa;
  }
  config::DriveConfig cfg;
  test::FakeHal hal;
  fw::PageFtl ftl;
};

TEST(ReadRefresh, ARefreshMovesExactlyTheBlocksValidUnitsAndErasesIt) {
  Filled d;
  const fw::Ppa at = d.where(0);  // the first read of its block
  ASSERT_TRUE(d.ftl.blocks().full(at.die, at.block));
  // Some of the block's data rewritten by the host: fewer valid units to move.
  std::set<fw::Lpn> rewritten;
  for (fw::Lpn l = 0; l < d.cfg.logical_pages(); ++l) {
    const fw::Ppa p = d.where(l);
    if (p.die == at.die && p.block == at.block && l % 3 == 0) rewritten.insert(l);
  }
  for (fw::Lpn l : rewritten) d.ftl.write(l, fw::PageToken{l, 1000 + l}, fw::kNoOp);
  const uint32_t valid = d.ftl.blocks().valid_pages(at.die, at.block);
  ASSERT_GT(valid, 0u);
  ASSERT_LT(valid, d.cfg.flash.pages_per_block);
  fw::Lpn kept = 1;  // a unit of the block the host did not rewrite
  while (rewritten.count(kept) || d.where(kept).die != at.die || d.where(kept).block != at.block)
    ++kept;
  const uint64_t reads_so_far = d.ftl.read_refresh().reads(at.die, at.block);
  for (uint64_t i = reads_so_far; i < kReadsToQueue; ++i) d.where(kept);
  EXPECT_EQ(d.ftl.read_refresh().queued_by_reads, 1u);
  EXPECT_EQ(d.ftl.read_refresh().blocks_refreshed, 0u);
  const uint32_t erases = d.ftl.blocks().erase_count(at.die, at.block);
  const std::size_t first_op = d.hal.ops().size();

  d.ftl.maintain();

  EXPECT_EQ(d.ftl.read_refresh().blocks_refreshed, 1u);
  EXPECT_EQ(d.ftl.read_refresh().units_moved, valid);
  EXPECT_EQ(d.ftl.blocks().erase_count(at.die, at.block), erases + 1);
  uint32_t reads_of_block = 0, programs = 0, erased = 0;
  for (std::size_t i = first_op; i < d.hal.ops().size(); ++i) {
    const auto& op = d.hal.ops()[i];
    const bool here = op.ppa.die == at.die && op.ppa.block == at.block;
    if (op.kind == test::FakeHal::OpKind::kRead) reads_of_block += here;
    if (op.kind == test::FakeHal::OpKind::kProgram) ++programs;
    if (op.kind == test::FakeHal::OpKind::kErase) erased += here;
  }
  EXPECT_EQ(reads_of_block, valid);
  EXPECT_EQ(programs, valid);
  EXPECT_EQ(erased, 1u);
  EXPECT_EQ(d.ftl.read_refresh().reads(at.die, at.block), 0u) << "its record starts over";
  // Nothing lost: every unit reads its latest data, none from the erased block.
  for (fw::Lpn l = 0; l < d.cfg.logical_pages(); ++l) {
    fw::PageToken t;
    d.ftl.read(l, t);
    EXPECT_EQ(t.lpn, l);
    EXPECT_EQ(t.version, rewritten.count(l) ? 1000 + l : l + 1);
  }
  d.ftl.maintain();  // nothing more queued
  EXPECT_EQ(d.ftl.read_refresh().blocks_refreshed, 1u);
}

nlohmann::json run_aging(const std::string& dir, const std::string& sets,
                         const std::string& workload) {
  return test::cli_report("--config " + test::source_path("configs/small_gc.json") +
                              " --precondition --reproducible --workload " + workload +
                              " --set flash.reliability.enabled=true"
                              " --set ftl.read_refresh.enabled=true " +
                              sets,
                          dir);
}

// A read-only run: no GC, so every erase and every program is a refresh's. A block is due at its
// 52nd read ((5 - 0.82) / 0.082 errors per codeword per read): 10,000 random reads over 192
// full blocks rewrite many.
TEST(ReadRefreshDrive, ReadsDisturbBlocksUntilTheyAreRewritten) {
  const nlohmann::json r =
      run_aging(test::temp_dir("refresh_reads"),
                "--set flash.reliability.rber_base=1e-4 --set flash.reliability.rber_disturb=1e-5"
                " --set flash.reliability.disturb_wear_exponent=0"
                " --set ftl.read_refresh.errors_per_codeword=5",
                "rw=randread,bs=4096,qd=8,count=10000,seed=3");
  const nlohmann::json& f = r["read_refresh"];
  const uint64_t refreshed = f["blocks_refreshed"];
  EXPECT_GT(refreshed, 10u) << f.dump();
  EXPECT_EQ(r["flash_ops"]["erase"], refreshed);
  EXPECT_EQ(r["flash_ops"]["program"], f["units_moved"]);
  EXPECT_EQ(r["flash_ops"]["read"].get<uint64_t>(),
            r["firmware"]["page_reads"].get<uint64_t>() -
                r["firmware"]["unmapped_reads"].get<uint64_t>() + f["units_moved"].get<uint64_t>());
  EXPECT_GE(f["queued_by_reads"].get<uint64_t>(), refreshed);
  EXPECT_EQ(f["scans"], 0);
  EXPECT_GT(r["energy_by_work_j"]["refresh"].get<double>(), 0.0);
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
}

// Data a year old at 55 C: scans find the blocks due, read or not (GC's copy reads find some
// too); data written in the run is fresh, so the rewrites end.
TEST(ReadRefreshDrive, ScansFindOldDataNoReadTouches) {
  const nlohmann::json r = run_aging(
      test::temp_dir("refresh_scan"),
      "--set flash.reliability.rber_retention=1e-5 --set flash.reliability.retention_days=365"
      " --set flash.reliability.temperature_c=55 --set flash.reliability.retention_wear_exponent=0"
      " --set ftl.read_refresh.scan_interval_ms=1",
      "rw=randrw,mix=0.5,bs=4096,qd=4,count=3000,seed=5");
  const nlohmann::json& f = r["read_refresh"];
  EXPECT_GT(f["scans"].get<uint64_t>(), 0u);
  EXPECT_GT(f["queued_by_scan"].get<uint64_t>(), 0u);
  EXPECT_GE(f["blocks_examined"].get<uint64_t>(), f["queued_by_scan"].get<uint64_t>());
  EXPECT_GT(f["blocks_refreshed"].get<uint64_t>(), 0u);
  // Every host page read is checked, or reported (data too old to decode, read before its block
  // came up for a rewrite).
  const nlohmann::json& sb = r["scoreboard"];
  EXPECT_GT(sb["pages_checked"].get<uint64_t>(), 500u);
  EXPECT_EQ(sb["pages_checked"].get<uint64_t>() + sb["reported_errors"].get<uint64_t>(),
            r["firmware"]["page_reads"].get<uint64_t>() -
                r["firmware"]["unmapped_reads"].get<uint64_t>());
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
}

TEST(ReadRefreshConfig, RulesNameTheirKeys) {
  const auto refusal = [](const std::string& overrides) {
    return test::cli_output("--config " + test::source_path("configs/small_gc.json") +
                            " --set ftl.read_refresh.enabled=true " + overrides + " --dump-config");
  };
  EXPECT_NE(refusal("").find("ftl.read_refresh.enabled: needs flash.reliability.enabled"),
            std::string::npos);
  EXPECT_NE(refusal("--set flash.reliability.enabled=true --set ftl.type=fast")
                .find("ftl.read_refresh.enabled: only the page and dftl FTLs refresh blocks"),
            std::string::npos);
  EXPECT_NE(refusal("--set flash.reliability.enabled=true --set ftl.read_refresh.scan_interval_ms="
                    "0.0001")
                .find("ftl.read_refresh.scan_interval_ms: is 0 (no scans) or at least 0.001"),
            std::string::npos);
  EXPECT_NE(refusal("--set flash.reliability.enabled=true "
                    "--set ftl.read_refresh.errors_per_codeword=0")
                .find("ftl.read_refresh.errors_per_codeword"),
            std::string::npos);
}

}  // namespace
}  // namespace ssd
