// Read refresh (ftl.read_refresh, docs/reliability.md#read-refresh): the firmware's estimate of a
// block's bit errors is the NAND's formula on its own records; a read that takes it to the
// threshold queues the block, and the rewrite moves exactly the block's valid units and erases
// it, losing nothing; in steps (units_per_step), each step moves that many units at the flash's
// pace, idle time carries a step on, GC may take a part rewritten block over, and scans go a
// step at a time too. End to end, a read-only run rewrites blocks as their reads disturb them,
// steps spread the rewrites over host commands, and scans find old data no read touches.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

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
  explicit Filled(uint32_t units_per_step = 0) : Filled(stepped(units_per_step)) {}
  explicit Filled(const config::DriveConfig& c) : cfg(c), hal(cfg.flash), ftl(cfg, hal) {
    for (fw::Lpn l = 0; l < cfg.logical_pages(); ++l)
      ftl.write(l, fw::PageToken{l, l + 1}, fw::kNoOp);
  }
  // Where the unit of `lpn` is: the flash read its look-up issues.
  fw::Ppa where(fw::Lpn lpn) {
    fw::PageToken t;
    ftl.read(lpn, t);
    return hal.ops().back().ppa;
  }
  // The block of `lpn`'s unit made due by reads of that unit.
  fw::Ppa make_due(fw::Lpn lpn) {
    const fw::Ppa at = where(lpn);
    for (uint64_t i = ftl.read_refresh().reads(at.die, at.block); i < kReadsToQueue; ++i)
      where(lpn);
    return at;
  }
  // What the firmware did to `at`'s block from op `first` on: reads of it, programs, its erases.
  struct Counts {
    uint32_t reads = 0, programs = 0, erases = 0;
  };
  Counts since(std::size_t first, const fw::Ppa& at) const {
    Counts n;
    for (std::size_t i = first; i < hal.ops().size(); ++i) {
      const auto& op = hal.ops()[i];
      const bool here = op.ppa.die == at.die && op.ppa.block == at.block;
      n.reads += op.kind == test::FakeHal::OpKind::kRead && here;
      n.programs += op.kind == test::FakeHal::OpKind::kProgram;
      n.erases += op.kind == test::FakeHal::OpKind::kErase && here;
    }
    return n;
  }
  // Every unit reads its data: version `version(l)`.
  template <typename Version>
  void expect_all_read_back(Version version) {
    for (fw::Lpn l = 0; l < cfg.logical_pages(); ++l) {
      fw::PageToken t;
      ftl.read(l, t);
      EXPECT_EQ(t.lpn, l);
      EXPECT_EQ(t.version, version(l));
    }
  }
  static config::DriveConfig stepped(uint32_t units_per_step) {
    config::DriveConfig c = drive();
    c.ftl.read_refresh.units_per_step = units_per_step;
    return c;
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

// units_per_step 5: each host command's upkeep moves the next 5 valid units of the block (its
// reads and programs), once the last step's flash work has ended; the erase follows the last.
TEST(ReadRefresh, ARewriteInStepsMovesUnitsPerStepAtTheFlashsPace) {
  constexpr uint32_t kStep = 5;
  Filled d(kStep);
  const fw::Ppa at = d.make_due(0);
  const uint32_t valid = d.ftl.blocks().valid_pages(at.die, at.block);
  ASSERT_GT(valid, 2 * kStep);
  const uint32_t erases = d.ftl.blocks().erase_count(at.die, at.block);
  uint32_t moved = 0;
  sc_core::sc_time in_commands;
  while (moved < valid) {
    std::size_t first = d.hal.ops().size();
    const sc_core::sc_time before = d.hal.now();
    d.ftl.maintain();
    in_commands += d.hal.now() - before;
    const Filled::Counts n = d.since(first, at);
    const uint32_t step = std::min(kStep, valid - moved);
    EXPECT_EQ(n.reads, step);
    EXPECT_EQ(n.programs, step);
    moved += step;
    EXPECT_EQ(n.erases, moved == valid ? 1u : 0u);
    EXPECT_EQ(d.ftl.read_refresh().units_moved, moved);
    EXPECT_EQ(d.ftl.read_refresh().blocks_refreshed, moved == valid ? 1u : 0u);
    // Before that step's flash work ends, the next command's upkeep moves nothing.
    first = d.hal.ops().size();
    d.ftl.maintain();
    EXPECT_EQ(d.hal.ops().size(), first);
    d.hal.wait_for(fw::OpId(d.hal.ops().size()));
  }
  EXPECT_EQ(d.ftl.blocks().erase_count(at.die, at.block), erases + 1);
  EXPECT_EQ(d.ftl.read_refresh().rewrites_taken_over, 0u);
  // The core's time for them, every step run before a host command's own work.
  EXPECT_GT(in_commands, sc_core::SC_ZERO_TIME);
  EXPECT_DOUBLE_EQ(d.ftl.read_refresh().host_core_s, in_commands.to_seconds());
  d.expect_all_read_back([](fw::Lpn l) { return l + 1; });
}

// Idle time carries on a rewrite a host command's upkeep began: while that step's flash work
// runs, the background step waits for it (paced by its last program), then moves the next step.
TEST(ReadRefresh, IdleTimeCarriesOnARewriteAHostCommandBegan) {
  Filled d(4);
  const fw::Ppa at = d.make_due(0);
  d.ftl.maintain();
  ASSERT_EQ(d.ftl.read_refresh().units_moved, 4u);
  const auto last = fw::OpId(d.hal.ops().size());
  const std::size_t first = d.hal.ops().size();
  EXPECT_TRUE(d.ftl.background_step());
  EXPECT_EQ(d.hal.ops().size(), first) << "the step waits";
  EXPECT_EQ(d.hal.paced_by, last);
  d.hal.wait_for(last);
  EXPECT_TRUE(d.ftl.background_step());
  EXPECT_EQ(d.since(first, at).reads, 4u);
  EXPECT_EQ(d.ftl.read_refresh().units_moved, 8u);
  EXPECT_EQ(d.hal.paced_by, fw::OpId(d.hal.ops().size()));
}

// GC that takes a block part rewritten (its moved units left it the emptiest) finishes it: the
// rewrite ends, counted as taken over, not refreshed, and nothing is lost.
TEST(ReadRefresh, GcThatTakesAPartRewrittenBlockEndsItsRewrite) {
  Filled d(8);
  const fw::Ppa at = d.make_due(0);
  const uint32_t erases = d.ftl.blocks().erase_count(at.die, at.block);
  d.ftl.maintain();
  ASSERT_EQ(d.ftl.read_refresh().units_moved, 8u);
  // Host writes of other units until GC erases the block.
  fw::Lpn l = 1;
  uint64_t version = 1000;
  std::vector<uint64_t> latest(d.cfg.logical_pages());
  for (fw::Lpn u = 0; u < latest.size(); ++u) latest[u] = u + 1;
  while (d.ftl.blocks().erase_count(at.die, at.block) == erases) {
    d.ftl.write(l, fw::PageToken{l, ++version}, fw::kNoOp);
    latest[l] = version;
    l = 1 + (l * 7919) % (latest.size() - 1);
    ASSERT_LT(version, 1000 + 20 * latest.size()) << "GC never took the block";
  }
  EXPECT_EQ(d.ftl.read_refresh().rewrites_taken_over, 1u);
  EXPECT_EQ(d.ftl.read_refresh().blocks_refreshed, 0u);
  d.hal.wait_for(fw::OpId(d.hal.ops().size()));
  const std::size_t first = d.hal.ops().size();
  d.ftl.maintain();  // nothing left to rewrite
  EXPECT_EQ(d.hal.ops().size(), first);
  d.expect_all_read_back([&](fw::Lpn u) { return latest[u]; });
}

// With units_per_step 7 a due scan examines 7 full blocks a step, resuming where it stopped, and
// counts itself once all have been.
TEST(ReadRefresh, AScanInStepsExaminesUnitsPerStepBlocksAStep) {
  config::DriveConfig c = Filled::stepped(7);
  c.ftl.read_refresh.scan_interval_ms = 1;
  test::FakeHal hal(c.flash);
  fw::PageFtl ftl(c, hal);
  for (fw::Lpn l = 0; l < c.logical_pages(); ++l) ftl.write(l, fw::PageToken{l, l + 1}, fw::kNoOp);
  uint64_t full = 0;
  for (uint32_t die = 0; die < c.flash.dies(); ++die) full += ftl.blocks().full_blocks(die).size();
  ASSERT_GT(full, 7u * 4);
  hal.compute(sc_core::sc_time(1, sc_core::SC_MS) - hal.now());
  const sc_core::sc_time per_block =
      sc_core::sc_time(c.controller.fw_per_page_us(), sc_core::SC_US) + hal.dram_time(1);
  uint64_t examined = 0;
  while (examined < full) {
    const sc_core::sc_time before = hal.now();
    ftl.maintain();
    const uint64_t step = std::min<uint64_t>(7, full - examined);
    examined += step;
    EXPECT_EQ(ftl.read_refresh().blocks_examined, examined);
    EXPECT_EQ(ftl.read_refresh().scans, examined == full ? 1u : 0u);
    // Each block: a firmware step and a DRAM access.
    EXPECT_EQ(hal.now() - before, per_block * double(step));
  }
  ftl.maintain();  // the next scan is not due before 2 ms
  EXPECT_EQ(ftl.read_refresh().blocks_examined, full);
  EXPECT_EQ(ftl.read_refresh().queued_by_scan, 0u);
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
  // The only background work: the host's waits behind it are all of those behind GC.
  const nlohmann::json& waits = f["host_wait"]["read"];
  EXPECT_GT(waits["waited"].get<uint64_t>(), 0u);
  EXPECT_EQ(waits, r["gc"]["host_wait"]["read"]);
  EXPECT_GT(f["host_core_s"].get<double>(), 0.0);
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
}

// Data from before the run a year old at 55 C, its errors growing with age alone, scanned every
// millisecond: blocks due from the start.
const std::string kYearOldAt55C =
    "--set flash.reliability.rber_retention=1e-5 --set flash.reliability.retention_days=365"
    " --set flash.reliability.temperature_c=55 --set flash.reliability.retention_wear_exponent=0"
    " --set ftl.read_refresh.scan_interval_ms=1";

// The same run with the rewrites in steps of 4 units (a block holds up to 32): the same blocks
// rewritten, but a host read no longer waits at its die behind a whole block's copies (small_gc
// schedules in arrival order): its p99 falls from about 21 ms to about 4 ms.
TEST(ReadRefreshDrive, StepsSpreadARewriteOverHostCommands) {
  const auto run = [](uint32_t units) {
    return run_aging(
        test::temp_dir("refresh_steps_" + std::to_string(units)),
        "--set flash.reliability.rber_base=1e-4 --set flash.reliability.rber_disturb=1e-5"
        " --set flash.reliability.disturb_wear_exponent=0"
        " --set ftl.read_refresh.errors_per_codeword=5 --set ftl.read_refresh.units_per_step=" +
            std::to_string(units),
        "rw=randread,bs=4096,qd=8,count=10000,seed=3");
  };
  const nlohmann::json whole = run(0), steps = run(4);
  EXPECT_EQ(steps["read_refresh"]["blocks_refreshed"], whole["read_refresh"]["blocks_refreshed"]);
  EXPECT_EQ(steps["read_refresh"]["units_moved"], whole["read_refresh"]["units_moved"]);
  EXPECT_GT(whole["read_refresh"]["blocks_refreshed"].get<uint64_t>(), 10u);
  EXPECT_LT(steps["latency_us"]["read"]["p99"].get<double>() * 3,
            whole["latency_us"]["read"]["p99"].get<double>());
  EXPECT_EQ(steps["scoreboard"]["mismatches"], 0);
  EXPECT_EQ(whole["scoreboard"]["mismatches"], 0);
}

// Under incremental GC, rewrites a unit a step: GC chooses part-rewritten blocks as its victims
// (their moved units leave them the emptiest) and finishes them, taking the rewrites over.
TEST(ReadRefreshDrive, IncrementalGcTakesPartRewrittenBlocksOver) {
  const nlohmann::json r =
      run_aging(test::temp_dir("refresh_taken_over"),
                kYearOldAt55C +
                    " --set ftl.read_refresh.units_per_step=1"
                    " --set ftl.gc_mode=incremental --set ftl.gc_soft_blocks=12",
                "rw=randrw,mix=0.6,bs=4096,qd=8,count=8000,seed=4");
  const nlohmann::json& f = r["read_refresh"];
  EXPECT_GT(f["rewrites_taken_over"].get<uint64_t>(), 10u) << f.dump();
  EXPECT_LE(f["rewrites_taken_over"].get<uint64_t>() + f["blocks_refreshed"].get<uint64_t>(),
            f["queued_by_reads"].get<uint64_t>() + f["queued_by_scan"].get<uint64_t>());
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
}

// Data a year old at 55 C: scans find the blocks due, read or not (GC's copy reads find some
// too); data written in the run is fresh, so the rewrites end.
TEST(ReadRefreshDrive, ScansFindOldDataNoReadTouches) {
  const nlohmann::json r = run_aging(test::temp_dir("refresh_scan"), kYearOldAt55C,
                                     "rw=randrw,mix=0.5,bs=4096,qd=4,count=3000,seed=5");
  const nlohmann::json& f = r["read_refresh"];
  EXPECT_GT(f["scans"].get<uint64_t>(), 0u);
  EXPECT_GT(f["queued_by_scan"].get<uint64_t>(), 0u);
  EXPECT_GE(f["blocks_examined"].get<uint64_t>(), f["queued_by_scan"].get<uint64_t>());
  EXPECT_GT(f["blocks_refreshed"].get<uint64_t>(), 0u);
  // With GC's copies too, the waits behind refresh are a share of those behind background work.
  for (const char* kind : {"read", "write"}) {
    const nlohmann::json &mine = f["host_wait"][kind], &all = r["gc"]["host_wait"][kind];
    EXPECT_LE(mine["total_s"].get<double>(), all["total_s"].get<double>()) << kind;
    EXPECT_LE(mine["waited"].get<uint64_t>(), all["waited"].get<uint64_t>()) << kind;
  }
  EXPECT_LT(f["host_wait"]["write"]["total_s"].get<double>(),
            r["gc"]["host_wait"]["write"]["total_s"].get<double>());
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
