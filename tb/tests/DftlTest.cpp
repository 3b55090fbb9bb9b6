// DFTL (firmware/ftl/Dftl.h) against the fake HAL: cache hits and misses, dirty evictions,
// batched translation-page writes, exact translation traffic, and GC through the CMT.
#include <gtest/gtest.h>

#include <vector>

#include "common/Errors.h"
#include "firmware/ftl/Dftl.h"
#include "model/dram/Dram.h"
#include "tb/run/Simulation.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/FtlFigure.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/WorkloadGenerator.h"

namespace ssd {
namespace {

using fw::Dftl;
using fw::Lpn;
using fw::PageToken;
using test::FakeHal;

config::DriveConfig dftl_drive(uint64_t cache_entries) {
  config::DriveConfig c = test::shipped("small_gc");
  c.ftl.type = config::FtlType::Dftl;
  c.ftl.map_cache_bytes = cache_entries * c.dram.access_bytes;
  return config::parse_drive_config(config::to_json(c), "test");
}

uint64_t translation_programs(const FakeHal& hal, const Dftl& ftl) {
  uint64_t n = 0;
  for (const auto& op : hal.ops())
    if (op.kind == FakeHal::OpKind::kProgram && ftl.is_translation(op.token.lpn)) ++n;
  return n;
}

TEST(Dftl, TableIsDirectoryPlusCache) {
  const auto cfg = dftl_drive(8);
  FakeHal hal(cfg.flash);
  Dftl ftl(cfg, hal);
  EXPECT_EQ(ftl.entries_per_translation_page(), cfg.flash.page_bytes / cfg.dram.access_bytes);
  const uint64_t tps = (cfg.logical_pages() + ftl.entries_per_translation_page() - 1) /
                       ftl.entries_per_translation_page();
  EXPECT_EQ(ftl.translation_pages(), tps);
  EXPECT_EQ(ftl.cache_entries(), 8u);
  EXPECT_EQ(ftl.mapping_table_bytes(), tps * cfg.dram.access_bytes + 8 * cfg.dram.access_bytes);
}

// A two-entry cache; lpns 0..1023 are translation page 0, 1024.. page 1.
TEST(Dftl, HitsMissesEvictionsAndBatchedCleaningAreExact) {
  const auto cfg = dftl_drive(2);
  FakeHal hal(cfg.flash);
  Dftl ftl(cfg, hal);
  ASSERT_EQ(ftl.entries_per_translation_page(), 1024u);
  const auto dftl = [&ftl](const char* name) { return test::figure(ftl, "dftl", name); };
  uint64_t v = 0;
  auto write = [&](Lpn l) { ftl.write(l, PageToken{l, ++v}, fw::kNoOp); };
  auto expect = [&](uint64_t hits, uint64_t misses, uint64_t tr, uint64_t tw, const char* step) {
    EXPECT_EQ(dftl("cmt_hits"), hits) << step;
    EXPECT_EQ(dftl("cmt_misses"), misses) << step;
    EXPECT_EQ(dftl("translation_reads"), tr) << step;
    EXPECT_EQ(dftl("translation_writes"), tw) << step;
  };
  write(0);  // miss; translation page 0 never written: no read
  write(1);  // miss; cache {1, 0}, both dirty
  expect(0, 2, 0, 0, "two writes");
  write(2000);  // miss; evicts dirty 0: writes page 0 (nothing to read), which cleans 1 too
  expect(0, 3, 0, 1, "first eviction");
  PageToken t;
  ftl.read(1, t);  // hit (clean since the batch)
  EXPECT_EQ(t, (PageToken{1, 2}));
  expect(1, 3, 0, 1, "hit");
  const size_t before = hal.ops().size();
  ftl.read(0, t);  // miss; evicts dirty 2000: writes page 1; reads page 0
  EXPECT_EQ(t, (PageToken{0, 1}));
  expect(1, 4, 1, 2, "read miss");
  // The data read waits for the translation page: it leaves after that read is done.
  std::vector<FakeHal::FlashOp> reads;
  for (size_t i = before; i < hal.ops().size(); ++i)
    if (hal.ops()[i].kind == FakeHal::OpKind::kRead) reads.push_back(hal.ops()[i]);
  ASSERT_EQ(reads.size(), 2u);
  EXPECT_TRUE(ftl.is_translation(reads[0].token.lpn));
  EXPECT_EQ(reads[1].token, (PageToken{0, 1}));
  EXPECT_GE(reads[1].issued, reads[0].done);
  write(3);  // miss; evicts clean 1: no write; reads page 0
  write(5);  // miss; evicts clean 0; reads page 0; cache {5, 3}, both dirty
  expect(1, 6, 3, 2, "clean evictions");
  write(2001);  // miss; evicts dirty 3: page 0 read-modify-write, cleans 5; reads page 1
  expect(1, 7, 5, 3, "read-modify-write");
  // Six host pages and three translation pages programmed; two host reads.
  EXPECT_EQ(hal.total_programs(), 6u + 3);
  EXPECT_EQ(translation_programs(hal, ftl), 3u);
  EXPECT_EQ(hal.total_reads(), 2u + 5);
  EXPECT_EQ(ftl.stats().pages_programmed, hal.total_programs());
  EXPECT_EQ(ftl.cached(), 2u);
}

TEST(Dftl, GcKeepsDataAndTranslationPagesConsistent) {
  const auto cfg = dftl_drive(64);
  FakeHal hal(cfg.flash);
  Dftl ftl(cfg, hal);
  const uint64_t logical = cfg.logical_pages();
  std::vector<uint64_t> last(logical, 0);
  uint64_t x = 3, v = 0;
  for (uint64_t i = 0; i < 3 * logical; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const Lpn l = (x >> 33) % logical;
    ftl.write(l, PageToken{l, ++v}, fw::kNoOp);
    last[l] = v;
    if (i % 7 == 0) {
      PageToken t;
      ftl.read(l, t);
      ASSERT_EQ(t, (PageToken{l, last[l]}));
    }
  }
  const auto& st = ftl.stats();
  const auto dftl = [&ftl](const char* name) { return test::figure(ftl, "dftl", name); };
  EXPECT_GT(st.gc_blocks_reclaimed, 0u);
  EXPECT_GT(dftl("translation_writes"), 0u);
  // Every program is a host page, a GC copy (data or translation) or a translation write.
  EXPECT_EQ(hal.total_programs(),
            st.host_pages_written + st.gc_pages_copied + dftl("translation_writes"));
  EXPECT_LE(translation_programs(hal, ftl) - dftl("translation_writes"), st.gc_pages_copied);
  for (Lpn l = 0; l < logical; ++l) {
    PageToken t;
    ftl.read(l, t);  // every translation read checks its token
    ASSERT_EQ(t, (PageToken{l, last[l]})) << "lpn " << l;
  }
  EXPECT_EQ(dftl("cmt_hits") + dftl("cmt_misses"), 3 * logical + (3 * logical + 6) / 7 + logical);
}

// GC that cannot gain ends with a model error naming the die and the cause, never a loop
// (before, the run issued flash commands for ever). One die, 8 mapping entries per
// translation page (dram.access_bytes = 512) and a one-entry cache, 20 % over-provisioning:
// 1638 logical pages in 205 translation pages hold 1843 of the die's 2048 pages once written,
// leaving 6.4 blocks, of which GC keeps 4 free and 3 are open. Victims are then nearly all
// valid, and each moved data page also costs a translation write (a one-entry cache holds
// none of them): a victim costs as much as it frees, and GC goes round in circles.
TEST(Dftl, GcThatCannotGainIsAModelErrorNamingTheDie) {
  config::DriveConfig c = test::shipped("small_gc");
  c.ftl.type = config::FtlType::Dftl;
  c.flash.channels = c.flash.ways_per_channel = 1;
  c.dram.access_bytes = 512;
  c.ftl.overprovisioning = 0.2;
  c.ftl.map_cache_bytes = c.dram.access_bytes;
  c = config::parse_drive_config(config::to_json(c), "test");
  FakeHal hal(c.flash);
  Dftl ftl(c, hal);
  ASSERT_EQ(c.logical_pages(), 1638u);
  ASSERT_EQ(ftl.translation_pages(), 205u);
  std::string error;
  uint64_t x = 11, writes = 0;
  try {
    for (; writes < 20 * c.logical_pages(); ++writes) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const Lpn l = (x >> 33) % c.logical_pages();
      ftl.write(l, PageToken{l, writes + 1}, fw::kNoOp);
    }
  } catch (const std::runtime_error& e) {
    error = e.what();
  }
  ASSERT_FALSE(error.empty()) << "GC kept up";
  EXPECT_NE(error.find("dftl FTL: die 0: garbage collection cannot make progress"),
            std::string::npos)
      << error;
  EXPECT_TRUE(hal.violations().empty());
  EXPECT_LT(writes, 20 * c.logical_pages());
}

// The mapping table both page-level FTLs keep: sparse, then dense at a tenth of the space.
TEST(L2pTable, TurnsDenseAtATenthAndKeepsEveryEntry) {
  fw::L2pTable t(100, 1000);
  for (Lpn l = 0; l < 9; ++l) EXPECT_EQ(t.set(l * 11, l + 500), fw::L2pTable::kUnmapped);
  EXPECT_FALSE(t.dense());
  EXPECT_EQ(t.set(0, 7), 500u) << "overwrite returns the old location";
  EXPECT_EQ(t.set(99, 0), fw::L2pTable::kUnmapped);  // the tenth entry
  EXPECT_TRUE(t.dense());
  EXPECT_EQ(t.get(0), 7u);
  EXPECT_EQ(t.get(99), 0u) << "ppn 0 is a location, not 'unmapped'";
  for (Lpn l = 1; l < 9; ++l) EXPECT_EQ(t.get(l * 11), l + 500);
  EXPECT_EQ(t.get(1), fw::L2pTable::kUnmapped);
  EXPECT_EQ(t.erase(22), 502u);
  EXPECT_EQ(t.get(22), fw::L2pTable::kUnmapped);
  EXPECT_EQ(t.erase(22), fw::L2pTable::kUnmapped);
  // Drives of 2^32 pages or more stay sparse (32-bit dense entries).
  fw::L2pTable big(10, uint64_t{1} << 32);
  for (Lpn l = 0; l < 10; ++l) big.set(l, (uint64_t{1} << 32) + l);
  EXPECT_FALSE(big.dense());
  EXPECT_EQ(big.get(9), (uint64_t{1} << 32) + 9);
}

// ftl.size_dram_from_table: the smallest part of dram.parts that holds the mapping table and
// the write buffer; its size, currents and access time replace the configured ones.
TEST(DramSizing, SmallestPartThatHoldsTheTableAndWriteBuffer) {
  config::DriveConfig c;
  c.name = "d";
  c.ftl.size_dram_from_table = true;
  c.dram.parts = {{"big", 512, 100, 20, 60, "s"},
                  {"small", 8, 77, 3, 55, "s"},
                  {"mid", 64, 90, 10, 50, "s"},
                  {"mid2", 64, 1, 1, 1, "s"}};
  auto at = [&](uint64_t bytes) { return model::Dram::effective(c, bytes); };
  EXPECT_EQ(at(1).part, "small");
  EXPECT_EQ(at(8u << 20).part, "small") << "a table that fills the part exactly fits";
  EXPECT_EQ(at((8u << 20) + 1).part, "mid") << "of equal sizes, the first listed";
  EXPECT_EQ(at(64u << 20).part, "mid");
  EXPECT_EQ(at((64u << 20) + 1).part, "big");
  const config::DramConfig mid = at((8u << 20) + 1).cfg;
  EXPECT_EQ(mid.size_mb, 64u);
  EXPECT_EQ(mid.i_active_ma, 90.0);
  EXPECT_EQ(mid.i_idle_ma, 10.0);
  EXPECT_EQ(mid.t_access_ns, 50.0);
  EXPECT_EQ(mid.voltage_v, c.dram.voltage_v) << "the rest as configured";
  EXPECT_EQ(mid.access_bytes, c.dram.access_bytes);
  // The write buffer shares the part: 4 MiB of buffer leave 4 MiB of the 8 MB part.
  c.dram.write_buffer_mb = 4;
  EXPECT_EQ(at(4u << 20).part, "small");
  EXPECT_EQ(at((4u << 20) + 1).part, "mid");
  try {
    at((508u << 20) + 1);
    ADD_FAILURE() << "no part holds 508 MiB + 1 byte and a 4 MiB buffer";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(),
                 "drive 'd': dram.parts: no part holds the page FTL's mapping table (532676609 "
                 "bytes) and the write buffer (4 MiB); the largest, \"big\", has 512 MiB");
  }
  c.ftl.size_dram_from_table = false;
  EXPECT_EQ(at(1u << 30).part, "") << "off: as configured, whatever the table";
  EXPECT_EQ(at(1u << 30).cfg.size_mb, c.dram.size_mb);
}

// The study's two parts (Cho et al., ACM TOS 2015): page mapping gets the 512 MB part, every
// other FTL the 8 MB part, on the X25-M and every case-study drive as shipped. Tables by hand
// (4-byte entries): page, one per logical page; dftl, one per translation page of 1024 entries
// + the 32 KiB CMT; block-mapped, one per logical block + one per log page (log blocks per
// die: ceil(log_block_fraction x data blocks per die), fast 1 more, last 4 more); block, one
// per logical block + one per replacement block (as many as bast's log blocks).
TEST(DramSizing, ShippedDrivesGivePageMappingThe512MbPartAndTheOthersThe8MbPart) {
  // x25m: 9437184 logical pages = 73728 logical blocks, 20 dies, 3687 data blocks per die,
  // ceil(0.03 x 3687) = 111 log blocks per die.
  const std::vector<std::pair<const char*, uint64_t>> x25m = {
      {"page", 9437184 * 4},  // 36 MiB
      {"dftl", 9216 * 4 + 32768},
      {"block", (73728 + 20 * 111) * 4},
      {"bast", (73728 + 20 * 111 * 128) * 4},
      {"bast_star", (73728 + 20 * 111 * 128) * 4},
      {"fast", (73728 + 20 * 112 * 128) * 4},
      {"last", (73728 + 20 * 115 * 128) * 4}};  // 1472512
  // Case study: 120795955 logical pages = 943719 logical blocks, 16 dies, 58983 data blocks per
  // die, ceil(0.009 x 58983) = 531 log blocks per die; 8 MiB = 8388608 B.
  const std::vector<std::pair<const char*, uint64_t>> case_study = {
      {"page", uint64_t{120795955} * 4},  // 460.8 MiB
      {"dftl", 117965 * 4 + 32768},
      {"block", (943719 + 16 * 531) * 4},
      {"bast", (943719 + 16 * 531 * 128) * 4},
      {"bast_star", (943719 + 16 * 531 * 128) * 4},
      {"fast", (943719 + 16 * 532 * 128) * 4},
      {"last", (943719 + 16 * 535 * 128) * 4}};  // 8157596
  for (const char* drive : {"x25m", "case_2x8", "case_4x4", "case_8x2", "case_16x1"}) {
    for (const auto& [type, bytes] : std::string(drive) == "x25m" ? x25m : case_study) {
      SCOPED_TRACE(std::string(drive) + " " + type);
      config::DriveConfig c = test::shipped(drive);
      c.ftl.type = test::choice<config::FtlType>(type);
      config::FlashConfig one_block;  // the FTLs are only built, never run: no NAND needed
      one_block.channels = one_block.ways_per_channel = one_block.blocks_per_plane = 1;
      FakeHal hal(one_block);
      EXPECT_EQ(fw::make_ftl(c, hal)->mapping_table_bytes(), bytes);
      EXPECT_EQ(model::Dram::effective(c, bytes).part,
                std::string(type) == "page" ? "512MB" : "8MB");
    }
  }
}

// End to end: the chosen part's currents are the DRAM's, in the report and the energy.
TEST(DramSizing, BlockFtlDriveRunsOnThe8MbPart) {
  config::DriveConfig c = test::shipped("small_gc");
  c.ftl.type = config::FtlType::Block;
  c.ftl.size_dram_from_table = true;
  c.dram.parts = test::shipped("x25m").dram.parts;
  c = config::parse_drive_config(config::to_json(c), "test");
  auto src = tb::make_workload("rw=randrw,bs=4k,qd=4,seed=1,count=500", c.logical_bytes());
  const auto r = tb::run_simulation(c, *src, tb::RunOptions{});
  EXPECT_TRUE(r.data_intact);
  EXPECT_EQ(r.report["dram"]["part"], "8MB");
  EXPECT_EQ(r.report["dram"]["size_mb"].get<uint64_t>(), 8u);
  EXPECT_EQ(r.report["drive"]["dram_bytes"].get<uint64_t>(), 8u << 20);
  EXPECT_EQ(r.report["dram"]["i_idle_ma"].get<double>(), 3.0);
  // Idle at 3 mA x 3.3 V for at most the whole span.
  EXPECT_GT(r.report["energy_j"]["dram"]["idle"].get<double>(), 0.0);
  EXPECT_LE(r.report["energy_j"]["dram"]["idle"].get<double>(),
            r.report["energy_span_s"].get<double>() * 3.0e-3 * 3.3 + 1e-12);
}

}  // namespace
}  // namespace ssd
