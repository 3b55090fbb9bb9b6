// The integrated lifetime manager (firmware/lifetime/, docs/lifetime.md): the epoch
// manager's rules and demand on hand-built figures, the data units' time and energy, and
// whole-drive runs: deduplication with the scoreboard, throttling to the warranty, and
// compression's energy.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "common/Errors.h"
#include "firmware/Firmware.h"
#include "firmware/lifetime/EpochManager.h"
#include "ip/Scoreboard.h"
#include "tb/run/Simulation.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/JsonWorkload.h"
#include "tb/workload/VectorSource.h"

namespace ssd {
namespace {

using fw::lifetime::Decision;
using fw::lifetime::Effect;
using fw::lifetime::EpochManager;
using fw::lifetime::Mode;

// Lee et al.'s units: hash 8.6 us at 49 mW, compression 64 us at 60 mW, a page write 600 us
// at 48.5 mW.
constexpr double kHashJ = 8.6e-6 * 49e-3;
constexpr double kCompressJ = 64e-6 * 60e-3;
constexpr double kWriteJ = 600e-6 * 48.5e-3;

TEST(LifetimeEpoch, EffectOfATechnique) {
  const Effect e = fw::lifetime::effect_of(0.5, kCompressJ, kWriteJ);
  EXPECT_TRUE(e.known);
  EXPECT_DOUBLE_EQ(e.written_ratio, 0.5);
  // (3.84 uJ + 0.5 x 29.1 uJ) / 29.1 uJ
  EXPECT_NEAR(e.energy_ratio, (3.84e-6 + 0.5 * 29.1e-6) / 29.1e-6, 1e-12);
}

TEST(LifetimeEpoch, TechniquesThatCutWritesAndEnergyAreOnWithoutThrottling) {
  const Effect dedup = fw::lifetime::effect_of(0.7, kHashJ, kWriteJ);
  const Effect comp = fw::lifetime::effect_of(0.5, kCompressJ, kWriteJ);
  const Decision d = EpochManager::rules(Mode::Integrated, 1000, 600, dedup, comp);
  EXPECT_TRUE(d.dedup);
  EXPECT_TRUE(d.compression);
  EXPECT_FALSE(d.throttle);
  EXPECT_DOUBLE_EQ(d.after, 1000 * 0.7 * 0.5);
}

TEST(LifetimeEpoch, SecondRuleWeighsWritesSavedAgainstEnergySpent) {
  const Effect comp{0.5, 0.6, true};
  // Costs 5 % more energy, saves 10 % of writes: (1 - 0.9) >= (1.05 - 1), so on; 450 > 400
  // still, so throttle too.
  const Decision on =
      EpochManager::rules(Mode::Integrated, 1000, 400, Effect{0.9, 1.05, true}, comp);
  EXPECT_TRUE(on.dedup);
  EXPECT_TRUE(on.compression);
  EXPECT_TRUE(on.throttle);
  EXPECT_DOUBLE_EQ(on.after, 450);
  // Saves 2 % for 5 %: stays off.
  const Decision off =
      EpochManager::rules(Mode::Integrated, 1000, 400, Effect{0.98, 1.05, true}, comp);
  EXPECT_FALSE(off.dedup);
  EXPECT_TRUE(off.throttle);
  EXPECT_DOUBLE_EQ(off.after, 500);
  // Under C after rule (1): the rest stays off, no throttling.
  const Decision fits =
      EpochManager::rules(Mode::Integrated, 1000, 500, Effect{0.9, 1.05, true}, comp);
  EXPECT_FALSE(fits.dedup);
  EXPECT_FALSE(fits.throttle);
  // Unmeasured techniques are on, to measure them.
  const Decision probe = EpochManager::rules(Mode::Integrated, 100, 400, Effect{}, Effect{});
  EXPECT_TRUE(probe.dedup && probe.compression);
  EXPECT_FALSE(probe.throttle);
}

TEST(LifetimeEpoch, SingleModes) {
  const Effect e{0.5, 0.6, true};
  const Decision base = EpochManager::rules(Mode::Baseline, 1000, 10, e, e);
  EXPECT_FALSE(base.dedup || base.compression || base.throttle);
  EXPECT_TRUE(EpochManager::rules(Mode::Throttling, 1000, 999, e, e).throttle);
  EXPECT_FALSE(EpochManager::rules(Mode::Throttling, 1000, 1000, e, e).throttle);
  EXPECT_TRUE(EpochManager::rules(Mode::Throttling, -1, 1000, e, e).throttle);  // no history
  const Decision comp = EpochManager::rules(Mode::Compression, 1000, 10, e, e);
  EXPECT_TRUE(comp.compression && !comp.dedup && !comp.throttle);
  const Decision dedup = EpochManager::rules(Mode::Dedup, 1000, 10, e, e);
  EXPECT_TRUE(dedup.dedup && !dedup.compression && !dedup.throttle);
}

TEST(LifetimeEpoch, DemandWeighsTheLastTenEpochsNewestMost) {
  EpochManager m(Mode::Integrated, 100, 1e6);
  EXPECT_EQ(m.demand(), -1);
  m.close_epoch(10);
  m.close_epoch(20);
  EXPECT_DOUBLE_EQ(m.demand(), (9 * 10.0 + 10 * 20.0) / 19);
  for (int pages = 3; pages <= 11; ++pages) m.close_epoch(pages);
  // Kept: 20, 3 ... 11 (the first dropped), weights 1 ... 10.
  double sum = 20;
  for (int i = 2; i <= 10; ++i) sum += i * (i + 1);
  EXPECT_DOUBLE_EQ(m.demand(), sum / 55);
  // C: pages still writable over the epochs left.
  EXPECT_DOUBLE_EQ(m.capacity(2e5), 8e5 / (100 - 11));
}

config::DriveConfig drive(const std::string& mode) {
  config::DriveConfig c = test::shipped("lifetime_small");
  c.lifetime.mode = test::choice<config::LifetimeMode>(mode);
  return config::parse_drive_config(config::to_json(c), "test");
}

fw::HostCommand write(uint64_t lpn, uint32_t pages, uint64_t version, uint64_t content,
                      uint8_t compressible) {
  fw::HostCommand c;
  c.op = fw::CommandOp::Write;
  c.offset_bytes = lpn * 4096;
  c.length_bytes = pages * 4096ull;
  c.version = version;
  c.content = content;
  c.compressible_percent = compressible;
  return c;
}

TEST(LifetimeUnits, DeduplicatedWriteCostsOnlyItsHash) {
  const config::DriveConfig cfg = drive("dedup");
  test::FakeHal hal(cfg.flash);
  fw::Firmware f(cfg, hal);
  f.execute(write(0, 1, 1, 77, 0), nullptr);
  const auto programs = hal.ops().size();
  const sc_core::sc_time before = hal.unit_time(fw::Unit::Hash);
  f.execute(write(9, 1, 2, 77, 0), nullptr);  // same content, another page
  EXPECT_EQ(hal.ops().size(), programs);      // no flash command
  const double hash_s = (hal.unit_time(fw::Unit::Hash) - before).to_seconds();
  EXPECT_NEAR(hash_s * 49e-3, kHashJ, 1e-9 * kHashJ);
  EXPECT_EQ(hal.unit_time(fw::Unit::Compression), sc_core::SC_ZERO_TIME);
  EXPECT_EQ(f.lifetime()->stats().dedup_hits, 1u);
  // Both pages read back the one stored page: page 9's data is page 0's write.
  std::vector<fw::PageToken> data;
  f.execute(fw::HostCommand{fw::CommandOp::Read, 9 * 4096, 4096, 0}, &data);
  ASSERT_EQ(data.size(), 1u);
  EXPECT_EQ(data[0], (fw::PageToken{0, 1}));
}

TEST(LifetimeUnits, CompressedChunkCostsItsPagesAndProgramsFewer) {
  const config::DriveConfig cfg = drive("compression");
  test::FakeHal hal(cfg.flash);
  fw::Firmware f(cfg, hal);
  // Four pages, 60 % compressible: 4 x 0.4 = 1.6 pages, so 2 programs.
  f.execute(write(8, 4, 5, 0, 60), nullptr);
  EXPECT_EQ(hal.ops().size(), 2u);
  const double s = hal.unit_time(fw::Unit::Compression).to_seconds();
  EXPECT_NEAR(s * 60e-3, 4 * kCompressJ, 1e-9 * 4 * kCompressJ);
  EXPECT_EQ(hal.unit_time(fw::Unit::Hash), sc_core::SC_ZERO_TIME);
  // Each page reads back its own data, from the chunk's pages (page 2 of 4 lies in the
  // second), and costs a decompression.
  std::vector<fw::PageToken> data;
  f.execute(fw::HostCommand{fw::CommandOp::Read, 8 * 4096, 4 * 4096, 0}, &data);
  ASSERT_EQ(data.size(), 4u);
  for (uint64_t i = 0; i < 4; ++i) EXPECT_EQ(data[i], (fw::PageToken{8 + i, 5}));
  EXPECT_EQ(f.lifetime()->stats().decompressions, 4u);
  // Not compressible enough to save a page: stored as it was, one program a page.
  f.execute(write(100, 4, 6, 0, 10), nullptr);
  EXPECT_EQ(f.lifetime()->stats().chunks_raw, 1u);
}

// Deduplicated pages read back another write's page: right only if its content is the
// expected version's.
TEST(LifetimeScoreboard, AcceptsEqualContentOnlyAndStillCatchesWrongData) {
  ip::Scoreboard sb;
  const uint64_t x = 1234, y = 5678;
  // v1: pages 0-1 (content x); v2: page 9 holding what v1's page 0 holds; v3: page 5, y.
  sb.record_content(1, 0, 0, 2, x);
  sb.record_content(2, 9, 9, 10, x);
  sb.record_content(3, 5, 5, 6, y);
  for (const auto& [lpn, v] : {std::pair{0, 1}, {1, 1}, {9, 2}, {5, 3}}) {
    sb.update_completed(lpn, v, sb.update_issued(lpn, v));
  }
  sb.check(sb.watch(9), fw::PageToken{0, 1});  // v1's page 0: same content
  EXPECT_EQ(sb.mismatches(), 0u);
  sb.check(sb.watch(9), fw::PageToken{1, 1});  // v1's page 1: other content
  EXPECT_EQ(sb.mismatches(), 1u);
  sb.check(sb.watch(9), fw::PageToken{5, 3});  // other content
  EXPECT_EQ(sb.mismatches(), 2u);
  sb.check(sb.watch(9), fw::PageToken{9, 0});  // data lost
  EXPECT_EQ(sb.mismatches(), 3u);
  // Page 9 rewritten with other content: v1's page 0 is no longer its data.
  sb.record_content(4, 9, 9, 10, y + 1);
  sb.update_completed(9, 4, sb.update_issued(9, 4));
  sb.check(sb.watch(9), fw::PageToken{0, 1});
  EXPECT_EQ(sb.mismatches(), 4u);
}

// A shared page lives while any page maps to it; its content leaves the hash table with it.
TEST(LifetimeUnits, SharedPageLivesUntilItsLastReference) {
  const config::DriveConfig cfg = drive("dedup");
  test::FakeHal hal(cfg.flash);
  fw::Firmware f(cfg, hal);
  f.execute(write(0, 1, 1, 77, 0), nullptr);
  f.execute(write(9, 1, 2, 77, 0), nullptr);  // shares page 0's
  f.execute(write(0, 1, 3, 88, 0), nullptr);  // page 0 moves on: page 9 keeps the data
  std::vector<fw::PageToken> data;
  f.execute(fw::HostCommand{fw::CommandOp::Read, 9 * 4096, 4096, 0}, &data);
  ASSERT_EQ(data.size(), 1u);
  EXPECT_EQ(data[0], (fw::PageToken{0, 1}));
  EXPECT_EQ(hal.total_programs(), 2u);
  f.execute(write(9, 1, 4, 99, 0), nullptr);  // the last reference goes
  EXPECT_EQ(hal.total_programs(), 3u);
  // Content 77 is stored nowhere now: a write of it is programmed, not shared.
  f.execute(write(20, 1, 5, 77, 0), nullptr);
  EXPECT_EQ(hal.total_programs(), 4u);
  EXPECT_EQ(f.lifetime()->stats().dedup_hits, 1u);
  // Content 88 is: page 21 shares page 0's new data.
  f.execute(write(21, 1, 6, 88, 0), nullptr);
  EXPECT_EQ(hal.total_programs(), 4u);
  f.execute(fw::HostCommand{fw::CommandOp::Read, 21 * 4096, 4096, 0}, &data);
  EXPECT_EQ(data[0], (fw::PageToken{0, 3}));
}

// 4 KiB mapping units in 16 KiB pages (ftl.mapping_unit_bytes): the manager's pages are units,
// packed four to a flash page in the controller's SRAM.
constexpr uint32_t kUnits = 4;

config::DriveConfig unit_drive(const std::string& mode, const std::string& ftl = "page") {
  config::DriveConfig c = test::shipped("lifetime_small");
  c.lifetime.mode = test::choice<config::LifetimeMode>(mode);
  c.flash.page_bytes = kUnits * 4096;
  c.ftl.mapping_unit_bytes = 4096;
  c.ftl.type = test::choice<config::FtlType>(ftl);
  return config::parse_drive_config(config::to_json(c), "test");
}

fw::HostCommand read(uint64_t lpn, uint32_t pages) {
  return fw::HostCommand{fw::CommandOp::Read, lpn * 4096, pages * 4096ull, 0};
}

TEST(LifetimeUnits, UnitsArePackedFourToAProgramAndReadFromSramUntilThen) {
  const config::DriveConfig cfg = unit_drive("baseline");
  test::FakeHal hal(cfg.flash, kUnits);
  fw::Firmware f(cfg, hal);
  for (uint64_t i = 0; i < 3; ++i) {
    const fw::Completion& c = f.execute(write(10 * i, 1, i + 1, 0, 0), nullptr);
    EXPECT_TRUE(c.ops.empty()) << "done once its data is in SRAM";
  }
  EXPECT_EQ(hal.total_programs(), 0u);
  std::vector<fw::PageToken> data;
  EXPECT_TRUE(f.execute(read(10, 1), &data).ops.empty());
  ASSERT_EQ(data.size(), 1u);
  EXPECT_EQ(data[0], (fw::PageToken{10, 2}));
  EXPECT_EQ(hal.total_reads(), 0u) << "served from SRAM";
  f.execute(write(30, 1, 4, 0, 0), nullptr);
  ASSERT_EQ(hal.total_programs(), 1u) << "the fourth unit fills the page";
  EXPECT_EQ(f.ftl().stats().units_padded, 0u);
  EXPECT_EQ(f.lifetime()->stats().host_programs, 4u);
  // Once the page's program has ended its slots are freed (when the buffer next takes one),
  // and a unit is read from flash: one unit over the bus.
  hal.compute(sc_core::sc_time(1, sc_core::SC_MS));
  f.execute(write(40, 1, 5, 0, 0), nullptr);
  f.execute(read(0, 1), &data);
  EXPECT_EQ(hal.unit_reads(), 1u);
  EXPECT_EQ(data[0], (fw::PageToken{0, 1}));
  // A FUA write waits for its unit's program: with unit 40 waiting, a page padded by two.
  fw::HostCommand fua = write(50, 1, 6, 0, 0);
  fua.fua = true;
  EXPECT_EQ(f.execute(fua, nullptr).ops.size(), 1u);
  EXPECT_EQ(hal.total_programs(), 2u);
  EXPECT_EQ(f.ftl().stats().units_padded, 2u);
}

TEST(LifetimeUnits, DeduplicatedUnitsShareASlotAndAFlushPadsThePage) {
  const config::DriveConfig cfg = unit_drive("dedup");
  test::FakeHal hal(cfg.flash, kUnits);
  fw::Firmware f(cfg, hal);
  const uint64_t contents[] = {77, 77, 88, 77};
  for (uint64_t i = 0; i < 4; ++i) f.execute(write(5 * i, 1, i + 1, contents[i], 0), nullptr);
  EXPECT_EQ(f.lifetime()->stats().dedup_hits, 2u);
  EXPECT_EQ(f.lifetime()->stats().host_programs, 2u);
  EXPECT_EQ(hal.total_programs(), 0u) << "two units do not fill a page";
  const double hash_s = hal.unit_time(fw::Unit::Hash).to_seconds();
  EXPECT_NEAR(hash_s * 49e-3, 4 * kHashJ, 1e-9 * kHashJ) << "a hash per unit";
  const fw::Completion& c = f.execute(fw::HostCommand{fw::CommandOp::Flush, 0, 0, 0}, nullptr);
  EXPECT_EQ(c.ops.size(), 1u);
  EXPECT_EQ(hal.total_programs(), 1u);
  EXPECT_EQ(f.ftl().stats().units_padded, 2u);
  std::vector<fw::PageToken> data;
  f.execute(read(15, 1), &data);
  EXPECT_EQ(data[0], (fw::PageToken{0, 1})) << "unit 15 shares unit 0's data";
}

TEST(LifetimeUnits, CompressedChunksOfUnitsFillAPage) {
  const config::DriveConfig cfg = unit_drive("compression");
  test::FakeHal hal(cfg.flash, kUnits);
  fw::Firmware f(cfg, hal);
  // Eight units, 60 % compressible, in chunks of four: 2 x ceil(4 x 0.4) = 4 slots, one page.
  f.execute(write(8, 8, 5, 0, 60), nullptr);
  EXPECT_EQ(f.lifetime()->stats().chunks_compressed, 2u);
  EXPECT_EQ(f.lifetime()->stats().compressed_programs, 4u);
  EXPECT_EQ(hal.total_programs(), 1u);
  EXPECT_EQ(f.ftl().stats().units_padded, 0u);
  std::vector<fw::PageToken> data;
  f.execute(read(8, 8), &data);
  ASSERT_EQ(data.size(), 8u);
  for (uint64_t i = 0; i < 8; ++i) EXPECT_EQ(data[i], (fw::PageToken{8 + i, 5}));
}

// An epoch's demand is in flash pages: the host units dedup saved count a quarter page each.
TEST(LifetimeUnits, DemandCountsSavedUnitsInPages) {
  const config::DriveConfig cfg = unit_drive("dedup");
  test::FakeHal hal(cfg.flash, kUnits);
  fw::Firmware f(cfg, hal);
  for (uint64_t i = 0; i < 8; ++i) f.execute(write(i, 1, i + 1, 100 + i / 2, 0), nullptr);
  ASSERT_EQ(f.lifetime()->stats().dedup_hits, 4u);
  ASSERT_EQ(hal.total_programs(), 1u);
  hal.compute(sc_core::sc_time(cfg.lifetime.epoch_s, sc_core::SC_SEC));
  f.execute(read(0, 1), nullptr);  // the epoch closes
  ASSERT_EQ(f.lifetime()->epochs().size(), 1u);
  EXPECT_DOUBLE_EQ(f.lifetime()->epochs()[0].programmed, 1.0);
  EXPECT_DOUBLE_EQ(f.lifetime()->epochs()[0].demand, 1.0 + 4.0 / kUnits);
}

// The scoreboard over units with the manager on: overlapping reads, writes (1-4 units, a
// quarter unaligned, content from a small pool so dedup hits) and trims, three times the
// logical space written, at queue depth 32 and 256, on the page FTL and DFTL.
class LifetimeUnitSoak
    : public ::testing::TestWithParam<std::tuple<uint32_t, std::string, std::string>> {};

TEST_P(LifetimeUnitSoak, NoDataIsLost) {
  const auto [qd, mode, ftl] = GetParam();
  config::DriveConfig cfg = unit_drive(mode, ftl);
  test::set_queue_depth(cfg, qd);
  if (ftl == "dftl") cfg.ftl.map_cache_bytes = 1024;
  cfg = config::parse_drive_config(config::to_json(cfg), "test");
  const uint64_t logical = cfg.logical_units();
  std::mt19937_64 rng(qd);
  std::vector<tb::HostRequest> reqs;
  uint64_t written = 0;
  for (int i = 0; written < 3 * logical; ++i) {
    const uint64_t roll = rng() % 10;
    const tb::IoOp op = roll < 3 ? tb::IoOp::Read : roll < 9 ? tb::IoOp::Write : tb::IoOp::Trim;
    const uint64_t units = 1 + rng() % 4;
    const uint64_t offset = (rng() % (logical - 4)) * 4096 + (rng() % 4 == 0) * 512;
    tb::HostRequest r = test::request(2.0 * i, op, offset, 4096 * units);
    if (op == tb::IoOp::Write) {
      written += units;
      r.has_fingerprint = true;
      // Half the writes repeat content from a small pool, half are new.
      const uint64_t content = rng() % 2 == 0 ? rng() % 64 : 64 + uint64_t(i);
      for (std::size_t b = 0; b < 8; ++b) r.fingerprint[b] = uint8_t(content >> (8 * b));
      r.compressible_percent = 60;
    }
    reqs.push_back(r);
  }
  tb::VectorSource src(std::move(reqs));
  const tb::RunResult r = tb::run_simulation(cfg, src, tb::RunOptions{});
  EXPECT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
  EXPECT_GT(r.report["scoreboard"]["pages_checked"].get<uint64_t>(), 1000u);
  EXPECT_GT(r.report["gc"]["victims"].get<uint64_t>(), 0u) << "the run reached GC";
  const auto& l = r.report["lifetime"];
  if (mode != "compression") {
    EXPECT_GT(l["dedup"]["hits"].get<uint64_t>(), 0u);
  }
  if (mode != "dedup") {
    EXPECT_GT(l["compression"]["chunks_compressed"].get<uint64_t>(), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(
    QueueDepthModeAndFtl, LifetimeUnitSoak,
    ::testing::Values(std::tuple{32u, std::string("dedup"), std::string("page")},
                      std::tuple{256u, std::string("compression"), std::string("page")},
                      std::tuple{32u, std::string("compression"), std::string("dftl")},
                      std::tuple{256u, std::string("dedup"), std::string("dftl")}));

// A workload file of the jobs given (JSON objects, comma-separated).
nlohmann::ordered_json run(const config::DriveConfig& cfg, const std::string& jobs) {
  const std::string path = test::temp_dir("lifetime") + "/workload.json";
  std::ofstream(path) << R"({"jobs": [)" << jobs << "]}";
  tb::JsonWorkload src(path, cfg.logical_bytes());
  const auto r = tb::run_simulation(cfg, src, tb::RunOptions{});
  EXPECT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
  return r.report;
}

double unit_j(const nlohmann::ordered_json& r, const char* unit) {
  return r["lifetime"]["unit_energy_j"][unit].get<double>();
}

// Sequential writes, half repeating earlier content, and reads of them: deduplicated pages
// read back right, and each hit is a program saved.
TEST(LifetimeRun, HalfDuplicateContentHalvesProgramsAndDataStaysRight) {
  const std::string spec =
      R"({"rw": "write", "bs": "4k", "qd": 4, "count": 4000, "size": "16m", "seed": 3,
          "dedupe_percentage": 50},
         {"rw": "randread", "bs": "4k", "qd": 2, "count": 2000, "size": "16m", "seed": 4})";
  const auto base = run(drive("baseline"), spec);
  const auto dedup = run(drive("dedup"), spec);
  const uint64_t writes = dedup["firmware"]["page_writes"].get<uint64_t>();
  const uint64_t hits = dedup["lifetime"]["dedup"]["hits"].get<uint64_t>();
  EXPECT_EQ(base["flash_ops"]["gc_copy"].get<uint64_t>(), 0u);
  EXPECT_EQ(dedup["flash_ops"]["gc_copy"].get<uint64_t>(), 0u);
  EXPECT_EQ(dedup["flash_ops"]["program"].get<uint64_t>(),
            base["flash_ops"]["program"].get<uint64_t>() - hits);
  EXPECT_NEAR(double(hits) / double(writes), 0.5, 0.05);
  EXPECT_GT(dedup["scoreboard"]["pages_checked"].get<uint64_t>(), 1000u);
  EXPECT_EQ(dedup["scoreboard"]["mismatches"].get<uint64_t>(), 0u);
  // The hash unit's energy in the monitor: every page hashed, 8.6 us at 49 mW.
  const double hashed = double(dedup["lifetime"]["dedup"]["pages_hashed"].get<uint64_t>());
  EXPECT_NEAR(unit_j(dedup, "dedup_unit"), hashed * kHashJ, 1e-9 * hashed * kHashJ);
  EXPECT_EQ(unit_j(dedup, "compression_unit"), 0.0);
  EXPECT_EQ(base["lifetime"]["dedup"]["hits"].get<uint64_t>(), 0u);
}

constexpr const char* kHeavyWrites =
    R"({"rw": "randwrite", "bs": "16k", "qd": 8, "count": 6000, "size": "16m", "seed": 5)";

// configs/lifetime_small.json: full-speed writes would wear the drive out before its warranty
// ends; throttling holds the projected lifetime at the warranty.
TEST(LifetimeRun, ThrottlingKeepsProjectedLifetimeAtTheWarranty) {
  const std::string jobs = std::string(kHeavyWrites) + "}";
  const auto base = run(drive("baseline"), jobs);
  const auto throttled = run(drive("throttling"), jobs);
  const double warranty = base["lifetime"]["warranty_years"].get<double>();
  EXPECT_LT(base["lifetime"]["projected_lifetime_years"].get<double>(), 0.8 * warranty);
  const double years = throttled["lifetime"]["projected_lifetime_years"].get<double>();
  EXPECT_GE(years, warranty);
  EXPECT_LT(years, 1.05 * warranty);  // just enough: writes slowed no more than needed
  EXPECT_TRUE(throttled["lifetime"]["meets_warranty"].get<bool>());
  EXPECT_GT(throttled["lifetime"]["throttling"]["programs_held"].get<uint64_t>(), 0u);
  EXPECT_LT(throttled["iops"].get<double>(), base["iops"].get<double>());
}

// The most-erased block's wear: its own lifetime, and a warning once it passes the P/E limit
// (the model keeps using it where a drive would retire it).
TEST(LifetimeRun, WorstBlockLifetimeAndThePeLimit) {
  const std::string jobs = std::string(kHeavyWrites) + "}";
  config::DriveConfig cfg = drive("baseline");
  const auto r = run(cfg, jobs);
  const double max = r["erase_counts"]["max"].get<double>();
  ASSERT_GT(max, 2.0);
  const auto& l = r["lifetime"];
  EXPECT_EQ(l["max_block_erases"].get<double>(), max);
  const double years =
      double(cfg.lifetime.pe_cycles) / (max / r["sim_time_s"].get<double>()) / (365.25 * 86400);
  EXPECT_NEAR(l["worst_block_lifetime_years"].get<double>(), years, 1e-9 * years);
  // Uneven wear: the worst block goes before the average projection says.
  EXPECT_LE(l["worst_block_lifetime_years"].get<double>(),
            l["projected_lifetime_years"].get<double>());
  EXPECT_FALSE(l["blocks_past_pe_limit"].get<bool>());
  const auto past_limit = [](const nlohmann::ordered_json& rep) {
    for (const auto& w : rep["warnings"])
      if (w.get<std::string>().find("past its P/E limit") != std::string::npos) return true;
    return false;
  };
  EXPECT_FALSE(past_limit(r));
  cfg.lifetime.pe_cycles = uint32_t(max) - 1;
  const auto worn = run(cfg, jobs);
  EXPECT_TRUE(worn["lifetime"]["blocks_past_pe_limit"].get<bool>());
  EXPECT_TRUE(past_limit(worn));
}

TEST(LifetimeRun, IntegratedUsesLessEnergyWhenContentCompressesWell) {
  const std::string well = std::string(kHeavyWrites) + R"(, "compress_percentage": 75})";
  const std::string badly = std::string(kHeavyWrites) + R"(, "compress_percentage": 0})";
  const auto good = run(drive("integrated"), well);
  const auto poor = run(drive("integrated"), badly);
  EXPECT_GE(good["lifetime"]["projected_lifetime_years"].get<double>(),
            good["lifetime"]["warranty_years"].get<double>());
  EXPECT_GE(poor["lifetime"]["projected_lifetime_years"].get<double>(),
            poor["lifetime"]["warranty_years"].get<double>());
  EXPECT_LT(good["flash_ops"]["program"].get<uint64_t>(),
            poor["flash_ops"]["program"].get<uint64_t>() / 2);
  EXPECT_LT(good["energy_total_j"].get<double>(), poor["energy_total_j"].get<double>());
  // Content that does not compress: the probe epoch measures it, then compression stays off.
  EXPECT_FALSE(poor["lifetime"]["plan"]["compression"].get<bool>());
  EXPECT_TRUE(good["lifetime"]["plan"]["compression"].get<bool>());
  // The compression unit's energy: 64 us at 60 mW per page compressed or decompressed.
  const auto& c = good["lifetime"]["compression"];
  const double pages =
      double(c["pages_compressed"].get<uint64_t>() + c["decompressions"].get<uint64_t>());
  EXPECT_NEAR(unit_j(good, "compression_unit"), pages * kCompressJ, 1e-9 * pages * kCompressJ);
}

TEST(LifetimeConfig, RejectsWhatItCannotManage) {
  config::DriveConfig c = test::shipped("lifetime_small");
  nlohmann::json doc = config::to_json(c);
  doc["lifetime"]["mode"] = "sometimes";
  EXPECT_THROW(config::parse_drive_config(doc, "t"), ConfigError);
  c.lifetime.mode = config::LifetimeMode::Dedup;
  c.ftl.type = config::FtlType::Block;
  EXPECT_THROW(config::parse_drive_config(config::to_json(c), "t"), ConfigError);
  c.ftl.type = config::FtlType::Page;
  c.dram.write_buffer_mb = 4;
  EXPECT_THROW(config::parse_drive_config(config::to_json(c), "t"), ConfigError);
}

}  // namespace
}  // namespace ssd
