// Mapping units smaller than the flash page (ftl.mapping_unit_bytes, docs/ftl.md#mapping-units):
// units packed a page at a time, a padded page on a flush, GC moving valid units, DFTL's
// translation traffic, and the scoreboard over them, for the page FTL and DFTL; exact on the
// fake HAL, end to end through the model.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "common/Errors.h"
#include "firmware/WriteBuffer.h"
#include "firmware/ftl/Dftl.h"
#include "firmware/ftl/PageFtl.h"
#include "tb/run/Simulation.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/FtlFigure.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"
#include "tb/workload/WorkloadGenerator.h"

namespace ssd {
namespace {

using fw::OpId;
using fw::PageToken;
using tb::IoOp;
using test::FakeHal;

constexpr uint32_t kUnit = 4096, kPage = 16384, kUnits = kPage / kUnit;

// small_gc (4 dies, 64 blocks of 32 pages a die) with 16 KiB pages of four 4 KiB units, under
// `ftl` (DFTL: ftl.map_cache_bytes `cache_bytes`, 0 the config's 32 KiB).
config::DriveConfig units_config(const std::string& ftl = "page", uint64_t cache_bytes = 0) {
  config::DriveConfig cfg = test::shipped("small_gc");
  cfg.flash.page_bytes = kPage;
  cfg.ftl.mapping_unit_bytes = kUnit;
  cfg.ftl.type = test::choice<config::FtlType>(ftl);
  if (cache_bytes != 0) cfg.ftl.map_cache_bytes = cache_bytes;
  return config::parse_drive_config(config::to_json(cfg), "test");
}

template <class F>
struct BasicRig {
  explicit BasicRig(const config::DriveConfig& c) : cfg(c), hal(cfg.flash, kUnits), ftl(cfg, hal) {}
  // Writes `n` units, logical pages first, first + 1, ... (version v), as one batch.
  std::vector<OpId> write(fw::Lpn first, uint32_t n, uint64_t v) {
    std::vector<fw::Ftl::UnitWrite> batch;
    for (uint32_t i = 0; i < n; ++i)
      batch.push_back({first + i, PageToken{first + i, v}, fw::kNoOp});
    std::vector<OpId> programs(n);
    ftl.write_units(batch.data(), n, programs.data());
    return programs;
  }
  PageToken read(fw::Lpn lpn) {
    PageToken t;
    ftl.read(lpn, t);
    return t;
  }
  config::DriveConfig cfg;
  FakeHal hal;
  F ftl;
};

struct Rig : BasicRig<fw::PageFtl> {
  Rig() : BasicRig(units_config()) {}
};
struct DftlRig : BasicRig<fw::Dftl> {
  // A 64-entry CMT: most writes evict a dirty entry, so translation pages are
  // rewritten (and their blocks collected) all the time.
  explicit DftlRig(uint64_t cache_bytes = 256) : BasicRig(units_config("dftl", cache_bytes)) {}
};

TEST(MappingUnits, FourUnitWritesMakeOneProgramOfTheWholePage) {
  Rig r;
  const std::vector<OpId> programs = r.write(100, kUnits, 7);
  ASSERT_EQ(r.hal.total_programs(), 1u);
  for (const OpId op : programs) EXPECT_EQ(op, programs.front()) << "one program for all four";
  const FakeHal::FlashOp op = r.hal.ops().back();
  EXPECT_EQ(op.ppa.die, 0u);
  for (uint32_t u = 0; u < kUnits; ++u)
    EXPECT_EQ(r.hal.token(op.ppa, u), (PageToken{100 + u, 7})) << "unit " << u;
  EXPECT_EQ(r.ftl.stats().units_padded, 0u);
  // The next page goes to the next die (the rotation moves a page at a time).
  r.write(200, kUnits, 7);
  EXPECT_EQ(r.hal.ops().back().ppa.die, 1u);
  // A read moves its unit alone, from its page.
  const uint64_t reads = r.hal.unit_reads();
  EXPECT_EQ(r.read(102), (PageToken{102, 7}));
  EXPECT_EQ(r.hal.unit_reads(), reads + 1);
  EXPECT_EQ(r.hal.ops().back().kind, FakeHal::OpKind::kRead);
  EXPECT_EQ(r.hal.ops().back().ppa.block, op.ppa.block);
  EXPECT_EQ(r.hal.ops().back().ppa.page, op.ppa.page) << "the page, not a unit slot";
}

// DFTL maps units as the page FTL does: four 4 KiB writes, one 16 KiB program (their
// translation page never written: no flash read); a 4 KiB read moves its unit alone.
TEST(MappingUnits, DftlPacksFourUnitWritesIntoOneProgram) {
  DftlRig r;
  const std::vector<OpId> programs = r.write(100, kUnits, 7);
  ASSERT_EQ(r.hal.total_programs(), 1u);
  EXPECT_EQ(r.hal.total_reads(), 0u);
  for (const OpId op : programs) EXPECT_EQ(op, programs.front()) << "one program for all four";
  const FakeHal::FlashOp op = r.hal.ops().back();
  for (uint32_t u = 0; u < kUnits; ++u)
    EXPECT_EQ(r.hal.token(op.ppa, u), (PageToken{100 + u, 7})) << "unit " << u;
  EXPECT_EQ(test::figure(r.ftl, "dftl", "cmt_misses"), kUnits);
  EXPECT_EQ(test::figure(r.ftl, "dftl", "translation_writes"), 0u);
  EXPECT_EQ(r.read(102), (PageToken{102, 7}));  // a cache hit: the data unit alone
  EXPECT_EQ(r.hal.unit_reads(), 1u);
  EXPECT_EQ(r.hal.ops().back().ppa.page, op.ppa.page) << "the page, not a unit slot";
  EXPECT_EQ(r.hal.ops().back().unit, 2u);
}

// Translation traffic with units, by hand. 4-byte entries: a translation page holds 16384 / 4
// = 4096 entries, 1024 in each of its 4 KiB units; the 24,576 logical units (6144 pages x 4)
// take 6 translation pages, numbered after them (token lpn 24,576 + t). A CMT of 16 bytes
// holds 4 entries, the least it may (a page's units are cached before it is placed).
TEST(MappingUnits, DftlTranslationTrafficWithUnits) {
  DftlRig r(16);
  const auto dftl = [&r](const char* name) { return test::figure(r.ftl, "dftl", name); };
  ASSERT_EQ(r.ftl.translation_pages(), 6u);
  const auto translation = [](const FakeHal::FlashOp& op) { return op.token.lpn >= 24576; };
  const auto same_page = [](const fw::Ppa& a, const fw::Ppa& b) {
    return a.die == b.die && a.block == b.block && a.page == b.page;
  };
  // Units 0-3 (translation page 0, its unit 0): four misses, nothing to read, one program.
  r.write(0, kUnits, 1);
  // Units 6144-6147 (translation page 1, its unit 2): 6144's miss evicts dirty 0, which
  // writes translation page 0 (first copy: no read; cleans 1-3); 6145-6147 evict clean 1-3.
  r.write(6144, kUnits, 1);
  ASSERT_EQ(r.hal.total_programs(), 3u);
  EXPECT_EQ(r.hal.total_reads(), 0u);
  EXPECT_EQ(dftl("translation_writes"), 1u);
  const FakeHal::FlashOp tp0 = r.hal.ops()[1];
  ASSERT_TRUE(translation(tp0));
  for (uint32_t u = 0; u < kUnits; ++u)
    EXPECT_EQ(r.hal.token(tp0.ppa, u), (PageToken{24576, 1})) << "every unit carries its token";
  // A read of unit 3: the miss evicts dirty 6144 (translation page 1 written, no read), then
  // reads the unit of translation page 0 that holds entry 3 (unit 0), then the data unit.
  size_t from = r.hal.ops().size();
  EXPECT_EQ(r.read(3), (PageToken{3, 1}));
  ASSERT_EQ(r.hal.ops().size(), from + 3);
  EXPECT_EQ(r.hal.ops()[from].kind, FakeHal::OpKind::kProgram);
  EXPECT_EQ(r.hal.ops()[from].token, (PageToken{24577, 2}));
  EXPECT_EQ(r.hal.ops()[from + 1].kind, FakeHal::OpKind::kRead);
  EXPECT_TRUE(same_page(r.hal.ops()[from + 1].ppa, tp0.ppa));
  EXPECT_EQ(r.hal.ops()[from + 1].unit, 0u);
  EXPECT_EQ(r.hal.ops()[from + 2].unit, 3u) << "the data unit";
  EXPECT_EQ(dftl("translation_reads"), 1u);
  // Units 0-2 again (3 is cached): three misses, each evicting a clean entry and reading unit
  // 0 of translation page 0; one data program.
  r.write(0, kUnits, 2);
  EXPECT_EQ(dftl("translation_reads"), 4u);
  EXPECT_EQ(dftl("translation_writes"), 2u);
  EXPECT_EQ(r.hal.total_programs(), 5u);
  // A read of unit 6146: its miss evicts dirty 0 (least recent; 3's hit came last): translation
  // page 0's rewrite reads all four units of its old copy (a read-modify-write of the page),
  // then 6146's entry, in unit 2 of translation page 1, then the data.
  from = r.hal.ops().size();
  EXPECT_EQ(r.read(6146), (PageToken{6146, 1}));
  ASSERT_EQ(r.hal.ops().size(), from + 7);
  for (uint32_t u = 0; u < kUnits; ++u) {
    EXPECT_TRUE(same_page(r.hal.ops()[from + u].ppa, tp0.ppa));
    EXPECT_EQ(r.hal.ops()[from + u].unit, u);
  }
  EXPECT_EQ(r.hal.ops()[from + 4].token, (PageToken{24576, 3})) << "the new copy";
  EXPECT_EQ(r.hal.ops()[from + 5].token, (PageToken{24577, 2}));
  EXPECT_EQ(r.hal.ops()[from + 5].unit, 2u);
  EXPECT_EQ(r.hal.ops()[from + 6].token, (PageToken{6146, 1}));
  EXPECT_EQ(r.hal.ops()[from + 6].unit, 2u);
  EXPECT_EQ(dftl("translation_reads"), 4u + kUnits + 1u);
  EXPECT_EQ(dftl("translation_writes"), 3u);
  // The old copy of translation page 0 is invalid, all four of its slots.
  EXPECT_EQ(r.ftl.blocks().valid_pages(tp0.ppa.die, tp0.ppa.block), 0u);
}

// Bulk preconditioning is not modelled for DFTL with units: the FTL declines (changing
// nothing), and --precondition simulates every write, after which the data reads back.
TEST(MappingUnits, DftlWithUnitsPreconditionsBySimulating) {
  DftlRig rig;
  EXPECT_FALSE(rig.ftl.precondition_bulk(units_config("dftl").logical_units(), 1));
  EXPECT_EQ(rig.hal.ops().size(), 0u);
  const config::DriveConfig cfg = units_config("dftl");
  auto src =
      tb::make_workload("rw=randrw,mix=0.5,bs=4k,qd=32,seed=2,count=2000", cfg.logical_bytes());
  tb::RunOptions o;
  o.precondition = true;
  const tb::RunResult r = tb::run_simulation(cfg, *src, o);
  EXPECT_TRUE(r.data_intact);
  EXPECT_EQ(r.report["precondition"]["pages_written"].get<uint64_t>(), 2 * cfg.logical_units());
  EXPECT_GT(r.report["scoreboard"]["pages_checked"].get<uint64_t>(), 500u);
}

// A cache smaller than a page's units could evict an entry before its unit is mapped.
TEST(MappingUnits, DftlNeedsAPagesEntriesInItsCache) {
  try {
    DftlRig r(12);
    ADD_FAILURE() << "accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("ftl.map_cache_bytes"), std::string::npos) << e.what();
  }
}

TEST(MappingUnits, ABatchThatDoesNotFillAPageIsPadded) {
  Rig r;
  r.write(0, 6, 1);  // a page, then two units and two padded slots
  EXPECT_EQ(r.hal.total_programs(), 2u);
  EXPECT_EQ(r.ftl.stats().units_padded, 2u);
  for (fw::Lpn l = 0; l < 6; ++l) EXPECT_EQ(r.read(l), (PageToken{l, 1}));
  // Padding holds no data: the block's valid units are the six written.
  const FakeHal::FlashOp second = r.hal.ops()[1];
  EXPECT_EQ(r.ftl.blocks().valid_pages(second.ppa.die, second.ppa.block), 2u);
}

// The DRAM buffer packs units a page at a time; a flush that leaves a part of a page programs
// it padded, and the data reads back from flash.
TEST(MappingUnits, APartialPageOnAFlushIsPadded) {
  Rig r;
  fw::WriteBuffer buffer(64, kUnit, 4 * kUnits, kUnits, r.cfg.logical_units(), false, r.hal, r.ftl);
  for (fw::Lpn l = 0; l < 3; ++l)
    buffer.write(l, PageToken{l, 4}, sc_core::SC_ZERO_TIME, fw::kNoOp);
  EXPECT_EQ(r.hal.total_programs(), 0u) << "nothing reaches flash before a destage";
  std::vector<OpId> ops;
  buffer.flush(ops);
  ASSERT_EQ(ops.size(), 1u) << "one program for the three units";
  EXPECT_EQ(r.hal.total_programs(), 1u);
  EXPECT_EQ(r.ftl.stats().units_padded, 1u);
  for (fw::Lpn l = 0; l < 3; ++l) EXPECT_EQ(r.read(l), (PageToken{l, 4}));
}

// Without a DRAM buffer units are packed in the controller's SRAM: no DRAM bursts, a write
// completes when its data is there, and a page goes to flash as soon as it has its units.
TEST(MappingUnits, WithoutADramBufferUnitsArePackedInSram) {
  Rig r;
  fw::WriteBuffer sram(64, kUnit, 4 * kUnits, kUnits, r.cfg.logical_units(), true, r.hal, r.ftl);
  const sc_core::sc_time at(10, sc_core::SC_US);
  for (fw::Lpn l = 0; l < kUnits; ++l) {
    EXPECT_EQ(r.hal.total_programs(), 0u);
    EXPECT_EQ(sram.write(l, PageToken{l, 2}, at, fw::kNoOp), at) << "no DRAM burst";
  }
  EXPECT_EQ(r.hal.total_programs(), 1u) << "the fourth unit completes the page";
  EXPECT_EQ(r.hal.burst_bytes_written(), 0u);
  EXPECT_EQ(r.hal.ops().back().data_ready, sc_core::SC_ZERO_TIME);
  EXPECT_GE(r.hal.ops().back().done, at + FakeHal::us(FakeHal::kProgramUs));
}

// GC moves a victim's valid units, four to a page of the die's GC block; the victim's last
// page is padded. Every unit still reads back its newest data. Under DFTL translation pages
// are whole pages of four units: GC moves them whole, and every translation read checks its
// token.
template <class R>
class GcOfUnits : public ::testing::Test {};
using UnitRigs = ::testing::Types<Rig, DftlRig>;
TYPED_TEST_SUITE(GcOfUnits, UnitRigs);

TYPED_TEST(GcOfUnits, CopiesValidUnitsPageByPage) {
  TypeParam r;
  const uint64_t logical = r.cfg.logical_units();
  ASSERT_EQ(logical, r.cfg.logical_pages() * kUnits);
  std::vector<uint64_t> version(logical, 0);
  for (fw::Lpn l = 0; l < logical; l += kUnits) {
    r.write(l, kUnits, 1);
    for (uint32_t u = 0; u < kUnits; ++u) version[l + u] = 1;
  }
  std::mt19937_64 rng(3);
  for (uint64_t v = 2; r.ftl.stats().gc_blocks_reclaimed < 40; ++v) {
    // Four random units a batch, each its own new version.
    std::vector<fw::Ftl::UnitWrite> batch;
    for (uint32_t u = 0; u < kUnits; ++u) {
      fw::Lpn l = rng() % logical;
      while (std::any_of(batch.begin(), batch.end(), [&](const auto& w) { return w.lpn == l; }))
        l = rng() % logical;
      batch.push_back({l, PageToken{l, v}, fw::kNoOp});
      version[l] = v;
    }
    std::vector<OpId> programs(kUnits);
    r.ftl.write_units(batch.data(), kUnits, programs.data());
  }
  const fw::FtlStats& st = r.ftl.stats();
  constexpr bool dftl = std::is_same_v<TypeParam, DftlRig>;
  uint64_t translation_writes = 0;  // none under the page FTL
  if constexpr (dftl) translation_writes = test::figure(r.ftl, "dftl", "translation_writes");
  EXPECT_GT(st.gc_pages_copied, 0u);
  // Every program holds four units: host units, GC copies (a moved translation page's four),
  // padding, and translation pages.
  EXPECT_EQ(r.hal.total_programs() * kUnits, st.host_pages_written + st.gc_pages_copied +
                                                 st.units_padded + translation_writes * kUnits);
  EXPECT_LE(st.units_padded, st.gc_blocks_reclaimed * (kUnits - 1)) << "a victim's last page";
  if constexpr (dftl) {
    // Translation pages programmed beyond the FTL's own writes of them: GC's moves.
    const auto& ops = r.hal.ops();
    const auto tp_programs = std::count_if(ops.begin(), ops.end(), [&](const auto& op) {
      return op.kind == FakeHal::OpKind::kProgram && op.token.lpn >= logical;
    });
    EXPECT_GT(uint64_t(tp_programs), translation_writes) << "GC moved translation pages";
  }
  for (fw::Lpn l = 0; l < logical; ++l) ASSERT_EQ(r.read(l), (PageToken{l, version[l]})) << l;
}

// Incremental collection's bound is per unit placed: a page places four.
TEST(MappingUnits, IncrementalGcMovesItsBoundPerUnitPlaced) {
  config::DriveConfig cfg = units_config();
  cfg.ftl.gc_mode = config::GcMode::Incremental;
  cfg.ftl.gc_soft_blocks = 8;
  cfg.ftl.gc_copies_per_write = 4;
  cfg = config::parse_drive_config(config::to_json(cfg), "test");
  FakeHal hal(cfg.flash, kUnits);
  fw::PageFtl ftl(cfg, hal);
  const uint64_t logical = cfg.logical_units();
  std::vector<fw::Ftl::UnitWrite> batch(kUnits);
  std::vector<OpId> programs(kUnits);
  const auto page = [&](fw::Lpn first, uint64_t v) {
    for (uint32_t u = 0; u < kUnits; ++u)
      batch[u] = {first + u, PageToken{first + u, v}, fw::kNoOp};
    ftl.write_units(batch.data(), kUnits, programs.data());
  };
  for (fw::Lpn l = 0; l < logical; l += kUnits) page(l, 1);
  std::mt19937_64 rng(5);
  uint64_t bounded = 0;
  for (uint64_t v = 2; v < 20000; ++v) {
    const uint32_t die = uint32_t((logical / kUnits + v - 2) % cfg.flash.dies());
    const uint32_t free_before = ftl.blocks().free_blocks(die);
    const uint64_t copies = ftl.stats().gc_pages_copied;
    const uint64_t erased = ftl.stats().blocks_erased;
    page((rng() % (logical / kUnits)) * kUnits, v);
    ASSERT_EQ(ftl.stats().gc_hard_hits, 0u);
    if (free_before >= 8 || ftl.stats().blocks_erased != erased) continue;
    EXPECT_EQ(ftl.stats().gc_pages_copied - copies, 4u * kUnits) << "write " << v;
    ++bounded;
  }
  EXPECT_GT(bounded, 1000u);
}

TEST(MappingUnits, ConfigErrorsNameTheKey) {
  const auto rejects = [](auto edit, const std::string& why) {
    config::DriveConfig cfg = test::shipped("small_gc");
    cfg.flash.page_bytes = kPage;
    edit(cfg);
    try {
      config::parse_drive_config(config::to_json(cfg), "test");
      ADD_FAILURE() << why << ": accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("ftl.mapping_unit_bytes"), std::string::npos)
          << e.what();
    }
  };
  rejects([](auto& c) { c.ftl.mapping_unit_bytes = 3000; }, "not a multiple of 512");
  rejects([](auto& c) { c.ftl.mapping_unit_bytes = 6144; }, "does not divide the page");
  rejects([](auto& c) { c.ftl.mapping_unit_bytes = 32768; }, "larger than the page");
  rejects([](auto& c) { c.ftl.mapping_unit_bytes = 512; }, "32 units to a page");
  rejects(
      [](auto& c) {
        c.ftl.mapping_unit_bytes = 4096;
        c.ftl.type = config::FtlType::Block;
      },
      "block FTL");
  EXPECT_EQ(units_config("dftl").units_per_page(), kUnits) << "DFTL maps units";
}

// A mapping entry per 4 KiB: the 1 TB drive's table takes 932 MiB of its 1 GiB DRAM, which
// leaves room for a 64 MiB write buffer, not for 128.
TEST(MappingUnits, TheTableAndTheWriteBufferShareTheDram) {
  config::DriveConfig cfg = test::shipped("nvme_tlc_1tb");
  cfg.ftl.mapping_unit_bytes = kUnit;
  cfg.dram.write_buffer_mb = 128;
  auto src = tb::make_workload("rw=randread,bs=4k,qd=1,count=1,seed=1", cfg.logical_bytes());
  try {
    tb::run_simulation(cfg, *src, tb::RunOptions{});
    ADD_FAILURE() << "accepted";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("dram.size_mb: the page FTL's mapping table needs 933 MiB and the write "
                        "buffer 128 MiB, more than the 1024 MiB DRAM"),
              std::string::npos)
        << what;
  }
}

// 4 KiB writes, each to a page of its own, on a fresh drive: with 4 KiB units every byte is
// programmed once (four writes to a page: WAF 1); with page-sized units each costs a 16 KiB
// program (WAF 4).
TEST(MappingUnits, FourKibWritesOnAFreshDrive) {
  for (const uint32_t unit : {kUnit, 0u}) {
    SCOPED_TRACE(unit);
    config::DriveConfig cfg = units_config();
    cfg.ftl.mapping_unit_bytes = unit;
    cfg.dram.write_buffer_mb = 1;
    std::vector<uint64_t> pages(cfg.logical_pages());
    std::iota(pages.begin(), pages.end(), 0);
    std::mt19937_64 rng(1);
    std::shuffle(pages.begin(), pages.end(), rng);
    std::vector<tb::HostRequest> reqs;
    for (int i = 0; i < 4096; ++i)
      reqs.push_back(
          test::request(0, IoOp::Write, pages[i] * kPage + (rng() % kUnits) * kUnit, kUnit));
    tb::VectorSource src(std::move(reqs));
    const tb::RunResult r = tb::run_simulation(cfg, src, tb::RunOptions{});
    ASSERT_TRUE(r.data_intact);
    EXPECT_DOUBLE_EQ(r.report["waf"].get<double>(), unit == kUnit ? 1.0 : 4.0);
    EXPECT_EQ(r.report["flash_ops"]["units_padded"].get<uint64_t>(), 0u);
  }
}

// The scoreboard over units: overlapping reads, writes and trims of 1-4 units, a quarter of
// them unaligned, three times the logical space written, at queue depth 32 and 256, with the
// DRAM buffer and with units packed in SRAM, under the NAND ordering rules and incremental GC,
// for the page FTL and DFTL (its cache a third of the units: translation reads, writes and
// their GC all the way).
class UnitSoak : public ::testing::TestWithParam<std::tuple<uint32_t, uint64_t, std::string>> {};

TEST_P(UnitSoak, NoDataIsLost) {
  const auto [qd, buffer_mb, ftl] = GetParam();
  config::DriveConfig cfg = units_config(ftl);
  test::set_queue_depth(cfg, qd);
  cfg.dram.write_buffer_mb = buffer_mb;
  cfg.controller.block_order = config::BlockOrder::Nand;
  cfg.controller.host_first = true;
  cfg.controller.suspend_for_reads = true;
  cfg.ftl.gc_mode = config::GcMode::Incremental;
  cfg.ftl.gc_soft_blocks = 8;
  const uint64_t logical = cfg.logical_units();
  std::mt19937_64 rng(qd + buffer_mb);
  std::vector<tb::HostRequest> reqs;
  uint64_t written = 0;
  for (int i = 0; written < 3 * logical; ++i) {
    const uint64_t roll = rng() % 10;
    const IoOp op = roll < 3 ? IoOp::Read : roll < 9 ? IoOp::Write : IoOp::Trim;
    const uint64_t units = 1 + rng() % 4;
    const uint64_t offset = (rng() % (logical - 4)) * kUnit + (rng() % 4 == 0) * 512;
    if (op == IoOp::Write) written += units;
    reqs.push_back(test::request(2.0 * i, op, offset, kUnit * units));
  }
  tb::VectorSource src(std::move(reqs));
  const tb::RunResult r = tb::run_simulation(cfg, src, tb::RunOptions{});
  EXPECT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
  EXPECT_GT(r.report["scoreboard"]["pages_checked"].get<uint64_t>(), 10000u);
  EXPECT_GT(r.report["gc"]["victims"].get<uint64_t>(), 0u) << "the run reached GC";
  EXPECT_EQ(r.report["write_buffer"]["in_sram"].get<bool>(), buffer_mb == 0);
  if (ftl == "dftl") {
    EXPECT_GT(r.report["dftl"]["translation_reads"].get<uint64_t>(), 10000u) << "misses galore";
  }
}

INSTANTIATE_TEST_SUITE_P(
    QueueDepthBufferAndFtl, UnitSoak,
    ::testing::Combine(::testing::Values(32u, 256u), ::testing::Values(uint64_t{0}, uint64_t{1}),
                       ::testing::Values(std::string("page"), std::string("dftl"))));

}  // namespace
}  // namespace ssd
