// A die that stops answering (flash.faults.dead_die,
// docs/reliability.md#a-die-that-stops-answering): from the firmware's first step at or after its
// time, the die is sent nothing; the units it held read as lost (an error, counted) until written
// again; the drive serves the rest, and the scoreboard finds no silent loss.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/DriveConfig.h"
#include "firmware/ftl/DeadDie.h"
#include "firmware/ftl/Dftl.h"
#include "firmware/ftl/SpareReserve.h"
#include "tb/tests/CliReport.h"
#include "tb/tests/FaultyRig.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

using test::Faulty;

// A dead die takes nothing, without turning the drive read-only; it counts among the dies
// without room, so the drive turns read-only once the dies left are all out of room.
TEST(SpareReserve, ADeadDieTakesNothingAndCountsAmongTheDiesWithoutRoom) {
  fw::SpareReserve first(3, 64, 4, 4, config::DieOutOfRoom::ReadOnly);
  first.dead(2, 0.25);
  EXPECT_FALSE(first.read_only());
  EXPECT_FALSE(first.takes_writes(2));
  EXPECT_TRUE(first.takes_writes(0));
  EXPECT_FALSE(first.back_in_room(2, 0));

  fw::SpareReserve last(3, 64, 4, 4, config::DieOutOfRoom::OtherDies);
  last.lost(0, 0.5, 4, 52);  // out of room
  last.dead(2, 0.75);
  EXPECT_FALSE(last.read_only());
  EXPECT_TRUE(last.takes_writes(1));
  last.lost(1, 1.0, 4, 52);  // the last die with room
  EXPECT_TRUE(last.read_only());
  EXPECT_EQ(last.read_only_at_s(), 1.0);
  EXPECT_EQ(last.read_only_die(), 1.0);
  // Read-only: the data in flight goes to the dies left, never to the dead one.
  EXPECT_TRUE(last.takes_writes(0));
  EXPECT_FALSE(last.takes_writes(2));

  // A die out of room that then dies: the dies left with room decide.
  fw::SpareReserve out_then_dead(2, 64, 4, 4, config::DieOutOfRoom::OtherDies);
  out_then_dead.lost(1, 0.5, 4, 52);
  out_then_dead.dead(1, 0.6);
  EXPECT_FALSE(out_then_dead.read_only());
  EXPECT_EQ(out_then_dead.dies_out(), 0u);
  EXPECT_TRUE(out_then_dead.takes_writes(0));
}

// A unit lost after the die (a write buffer's page, DeadDie::lost_later) joins the ranges where it
// touches them, is counted once, and keeps them sorted and apart.
TEST(DeadDieRanges, AUnitLostLaterJoinsTheRangesItTouches) {
  config::FaultConfig cfg;
  cfg.dead_die_at_ms = 1;
  fw::DeadDie dead(cfg);
  std::vector<fw::Lpn> lost{10, 11, 20, 30, 31};
  dead.lost(lost);
  const auto ranges = [&dead] {
    std::vector<std::pair<fw::Lpn, uint64_t>> out;
    for (const auto& r : dead.lost_ranges()) out.emplace_back(r.first, r.count);
    return out;
  };
  using R = std::vector<std::pair<fw::Lpn, uint64_t>>;
  ASSERT_EQ(ranges(), (R{{10, 2}, {20, 1}, {30, 2}}));
  dead.lost_later(11);  // already lost
  dead.lost_later(5);   // alone, first
  dead.lost_later(12);  // after a range
  dead.lost_later(19);  // before one
  dead.lost_later(40);  // alone, last
  EXPECT_EQ(ranges(), (R{{5, 1}, {10, 3}, {19, 2}, {30, 2}, {40, 1}}));
  dead.lost_later(13);
  dead.lost_later(14);
  dead.lost_later(15);
  dead.lost_later(16);
  dead.lost_later(17);
  dead.lost_later(18);  // joins the two around it
  EXPECT_EQ(ranges(), (R{{5, 1}, {10, 11}, {30, 2}, {40, 1}}));
  Statistics stats;
  dead.register_figures(stats);
  const StatGroup& faults = *stats.find("faults");
  EXPECT_EQ(*std::get<uint64_t*>(faults.find("units_lost")->value), 5u + 10u);
}

constexpr uint32_t kDead = 1;
constexpr double kDeadAtMs = 1000;

void dead_die(config::DriveConfig& c) {
  c.flash.faults.dead_die = kDead;
  c.flash.faults.dead_die_at_ms = kDeadAtMs;
}

// The die each logical page is on now, from the read the FTL issues for it.
std::map<fw::Lpn, uint32_t> dies_of(Faulty& d) {
  std::map<fw::Lpn, uint32_t> die;
  for (fw::Lpn l = 0; l < d.cfg.logical_pages(); ++l) {
    fw::PageToken t;
    const fw::Ftl::ReadResult r = d.ftl.read(l, t);
    EXPECT_NE(r.op, fw::kNoOp);
    die[l] = d.hal.ops().at(r.op - 1).ppa.die;
  }
  return die;
}

// The die's units are exactly those lost, each read failing with no flash command; the others
// read their data; the firmware's walk of the die costs a step per block and a mapping write per
// unit; GC and the host's pages never reach the die again, and a write heals a lost unit.
TEST(DeadDie, ItsUnitsAreLostTheRestServedAndNothingReachesItAgain) {
  Faulty d(0, 0, &dead_die);
  d.overwrite(3000);
  const std::map<fw::Lpn, uint32_t> die = dies_of(d);
  std::vector<fw::Lpn> hooked;
  d.ftl.on_units_lost([&hooked](const std::vector<fw::Lpn>& lost, fw::UnitLoss why) {
    EXPECT_EQ(why, fw::UnitLoss::DeadDie);
    hooked = lost;
  });
  const auto& page_level = dynamic_cast<const fw::PageLevelFtl&>(d.ftl);

  d.hal.compute(sc_core::sc_time(kDeadAtMs, sc_core::SC_MS) - d.hal.now());
  const sc_core::sc_time before = d.hal.now();
  const uint64_t dram_written = d.hal.dram_entries_written();
  const std::size_t ops_before = d.hal.ops().size();
  d.ftl.maintain();  // the first step at the die's time: the firmware learns it
  std::set<fw::Lpn> lost;
  for (const auto& [l, on] : die)
    if (on == kDead) lost.insert(l);
  ASSERT_FALSE(lost.empty());
  EXPECT_EQ(d.hal.ops().size(), ops_before);  // nothing sent to any die
  EXPECT_EQ(d.hal.dram_entries_written() - dram_written, lost.size());
  const sc_core::sc_time step(d.cfg.controller.fw_per_page_us(), sc_core::SC_US);
  EXPECT_EQ(d.hal.now() - before, step * double(d.cfg.flash.blocks_per_die()) +
                                      test::FakeHal::dram_time(uint32_t(lost.size())));
  EXPECT_EQ(std::set<fw::Lpn>(hooked.begin(), hooked.end()), lost);
  EXPECT_EQ(hooked.size(), lost.size());

  // The ranges: maximal runs of consecutive lost units, in order, covering exactly the lost ones.
  std::set<fw::Lpn> from_ranges;
  fw::Lpn end = 0;
  for (const auto& r : page_level.lost_ranges()) {
    ASSERT_GT(r.count, 0u);
    if (!from_ranges.empty()) {
      EXPECT_GT(r.first, end);  // not touching the previous range
    }
    for (fw::Lpn l = r.first; l < r.first + r.count; ++l) from_ranges.insert(l);
    end = r.first + r.count;
  }
  EXPECT_EQ(from_ranges, lost);

  for (fw::Lpn l = 0; l < d.cfg.logical_pages(); ++l) {
    fw::PageToken t;
    const std::size_t ops = d.hal.ops().size();
    const fw::Ftl::ReadResult r = d.ftl.read(l, t);
    if (lost.count(l)) {
      EXPECT_TRUE(r.lost);
      EXPECT_FALSE(r.mapped);
      EXPECT_EQ(r.op, fw::kNoOp);
      EXPECT_EQ(d.hal.ops().size(), ops);
    } else {
      EXPECT_FALSE(r.lost);
      EXPECT_EQ(t, (fw::PageToken{l, d.version[l] + 1}));
    }
  }

  // Overwrites, GC on every die left, until the drive turns read-only: small_gc's spare is 64
  // blocks, a die's worth, so the three dies left cannot hold the logical capacity once the
  // host has written the lost units again. None of it reaches the dead die.
  const std::map<fw::Lpn, uint64_t> at_death = d.version;
  const std::size_t after_death = d.hal.ops().size();
  const uint64_t erases = d.hal.total_erases();
  EXPECT_GT(d.overwrite(20000), 1000u);
  EXPECT_TRUE(d.ftl.read_only());
  EXPECT_GT(d.hal.total_erases() - erases, 100u);
  d.hal.compute(sc_core::sc_time(1, sc_core::SC_SEC));
  while (d.ftl.background_step()) {
  }
  for (std::size_t i = after_death; i < d.hal.ops().size(); ++i)
    ASSERT_NE(d.hal.ops()[i].ppa.die, kDead) << "command " << i << " reached the dead die";
  EXPECT_TRUE(d.hal.violations().empty());
  // A lost page written since reads its new data; one not written since is still lost.
  uint64_t healed = 0, still = 0;
  for (const fw::Lpn l : lost) {
    fw::PageToken t;
    const fw::Ftl::ReadResult r = d.ftl.read(l, t);
    const auto was = at_death.find(l);
    const bool written =
        was == at_death.end() ? d.version.count(l) != 0 : was->second != d.version[l];
    EXPECT_EQ(r.lost, !written) << "page " << l;
    if (written) {
      EXPECT_EQ(t, (fw::PageToken{l, d.version[l] + 1}));
    }
    ++(written ? healed : still);
  }
  EXPECT_GT(healed, 0u);
  EXPECT_GT(still, 0u);
  const StatGroup& faults = *d.ftl.statistics().find("faults");
  EXPECT_EQ(*std::get<uint64_t*>(faults.find("units_lost")->value), lost.size());
  EXPECT_EQ(std::get<2>(faults.find("lost_ranges")->value)(),
            double(page_level.lost_ranges().size()));
}

// DFTL with 48 translation pages (of 128 entries of 32 bytes) and a cache of 256 entries.
void dead_die_dftl(config::DriveConfig& c) {
  dead_die(c);
  c.ftl.type = config::FtlType::Dftl;
  c.dram.access_bytes = 32;
  c.ftl.map_cache_bytes = 256 * 32;
  c.flash.faults.dead_die_at_ms = 60e3;  // after the fill and overwrites' translation reads
}

// DFTL: the die's data units are lost as with the page FTL; the translation pages it held, the
// mapping of data on the other dies too, are rebuilt from the reverse map (its entries read for
// every block holding valid data on the dies left, a step each) and programmed on the dies left,
// nothing read first; every other unit reads its data through them, and nothing reaches the die.
TEST(DeadDie, DftlRebuildsTheTranslationPagesItHeld) {
  Faulty d(0, 0, &dead_die_dftl);  // filled: GC not yet needed, so the rebuild's commands alone
  const std::map<fw::Lpn, uint32_t> die = dies_of(d);
  const auto& dftl = dynamic_cast<const fw::Dftl&>(d.ftl);
  const fw::BlockManager& blocks = d.blocks();
  uint64_t on_dead = 0, walked = 0;
  for (uint32_t b = 0; b < blocks.blocks_per_die(); ++b)
    for (uint32_t p = 0; p < blocks.pages_per_block(); ++p) {
      const fw::Lpn owner = blocks.owner(fw::Ppa{kDead, b, p});
      on_dead += owner != fw::BlockManager::kNoLpn && dftl.is_translation(owner);
    }
  for (uint32_t on = 0; on < blocks.dies(); ++on)
    for (uint32_t b = 0; on != kDead && b < blocks.blocks_per_die(); ++b)
      walked += blocks.valid_pages(on, b) > 0;
  ASSERT_GT(on_dead, 0u);

  const sc_core::sc_time dead_at(d.cfg.flash.faults.dead_die_at_ms, sc_core::SC_MS);
  ASSERT_LT(d.hal.now(), dead_at);
  d.hal.compute(dead_at - d.hal.now());
  const uint64_t dram_read = d.hal.dram_entries_read();
  const std::size_t ops_before = d.hal.ops().size();
  const sc_core::sc_time before = d.hal.now();
  d.ftl.maintain();
  // The walks (the dead die's block records, the reverse map of the others) before any program.
  const sc_core::sc_time step(d.cfg.controller.fw_per_page_us(), sc_core::SC_US);
  ASSERT_EQ(d.hal.ops().size(), ops_before + on_dead);
  EXPECT_GE(d.hal.ops()[ops_before].issued - before,
            step * double(d.cfg.flash.blocks_per_die() + walked) +
                test::FakeHal::dram_time(uint32_t(walked * blocks.pages_per_block())));
  // The reverse map's entries, and each page's directory look-up.
  EXPECT_EQ(d.hal.dram_entries_read() - dram_read, walked * blocks.pages_per_block() + on_dead);
  for (std::size_t i = ops_before; i < d.hal.ops().size(); ++i) {
    const test::FakeHal::FlashOp& op = d.hal.ops()[i];
    EXPECT_EQ(op.kind, test::FakeHal::OpKind::kProgram);
    EXPECT_NE(op.ppa.die, kDead);
    EXPECT_TRUE(dftl.is_translation(op.token.lpn));
  }
  const StatGroup& stats = *d.ftl.statistics().find("dftl");
  EXPECT_EQ(*std::get<uint64_t*>(stats.find("translation_pages_rebuilt")->value), on_dead);

  // Lost: exactly the die's units not written since; the rest read their data (each translation
  // page read checks its token). Then overwrites, GC on the dies left: none of it reaches the
  // dead die, and the lost units written since read their new data.
  const std::map<fw::Lpn, uint64_t> at_death = d.version;
  const auto check = [&] {
    for (const auto& [l, on] : die) {
      fw::PageToken t;
      const fw::Ftl::ReadResult r = d.ftl.read(l, t);
      const auto was = at_death.find(l);
      const bool lost = on == kDead && (was == at_death.end() ? d.version.count(l) == 0
                                                              : was->second == d.version[l]);
      EXPECT_EQ(r.lost, lost) << "page " << l;
      if (!lost) {
        EXPECT_EQ(t, (fw::PageToken{l, d.version[l] + 1}));
      }
    }
  };
  check();
  const uint64_t erases = d.hal.total_erases();
  EXPECT_GT(d.overwrite(4000), 1000u);
  EXPECT_GT(d.hal.total_erases() - erases, 50u);
  check();
  for (std::size_t i = ops_before; i < d.hal.ops().size(); ++i)
    ASSERT_NE(d.hal.ops()[i].ppa.die, kDead) << "command " << i << " reached the dead die";
  EXPECT_TRUE(d.hal.violations().empty());
}

// The small drive preconditioned, a die dead 50 ms into random reads and writes: reads of its
// data fail with an error, counted apart (requests, the request log, the scoreboard's reported
// pages) and out of the latency figures; the scoreboard finds no silent loss, whichever policy
// the spare follows, and under DFTL (a cache of 1,024 entries: a translation page's) with the
// translation pages the die held rebuilt.
TEST(DeadDie, TheDriveServesTheRestAndLosesNothingSilently) {
  for (const std::string policy :
       {"read_only", "other_dies",
        "read_only --set ftl.type=dftl --set ftl.map_cache_bytes=4096"}) {
    SCOPED_TRACE(policy);
    const bool dftl = policy.find("dftl") != std::string::npos;
    const std::string dir = test::temp_dir(
        std::string("dead_die_") + policy.substr(0, policy.find(' ')) + (dftl ? "_dftl" : ""));
    const nlohmann::json r = test::run_faulty(
        dir,
        "--set flash.faults.dead_die=2 --set flash.faults.dead_die_at_ms=50 "
        "--set flash.faults.die_out_of_room=" +
            policy + " --request-log csv --workload rw=randrw,bs=4096,qd=8,count=6000,seed=4");
    if (dftl) {
      EXPECT_GT(r["dftl"]["translation_pages_rebuilt"].get<uint64_t>(), 0u);
      EXPECT_GT(r["dftl"]["translation_reads"].get<uint64_t>(), 1000u);
    }
    const auto& f = r["faults"];
    EXPECT_EQ(f["dead_die"], 2.0);
    ASSERT_FALSE(f["dead_die_at_s"].is_null());
    EXPECT_GE(f["dead_die_at_s"].get<double>(), 0.05);
    // Every logical unit was written by the preconditioning: the die held its share.
    const uint64_t units = f["units_lost"].get<uint64_t>();
    EXPECT_GT(units, 1000u);
    EXPECT_LT(units, 2000u);
    const auto& listed = f["lost_ranges_listed"];
    ASSERT_EQ(listed.size(),
              std::min<std::size_t>(100, std::size_t(f["lost_ranges"].get<double>())));
    uint64_t end = 0;
    for (const auto& range : listed) {
      if (end > 0) {
        EXPECT_GT(range[0].get<uint64_t>(), end);  // not touching the range before
      }
      EXPECT_EQ(range[0].get<uint64_t>() % 4096, 0u);
      EXPECT_EQ(range[1].get<uint64_t>() % 4096, 0u);
      end = range[0].get<uint64_t>() + range[1].get<uint64_t>();
    }
    const uint64_t failed = r["requests"]["failed_lost"].get<uint64_t>();
    EXPECT_GT(failed, 0u);
    EXPECT_EQ(f["reads_lost"], failed);  // 4 KiB reads: a unit each
    EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
    EXPECT_EQ(r["scoreboard"]["reported_errors"], failed);
    EXPECT_LE(r["scoreboard"]["lost_by_dead_die"].get<uint64_t>(), units);
    std::ifstream log(dir + "/requests.csv");
    std::string line;
    uint64_t logged_lost = 0, reads = 0;
    while (std::getline(log, line)) {
      logged_lost +=
          line.find(",read,") != std::string::npos && line.find(",lost,") != std::string::npos;
      reads += line.find(",read,") != std::string::npos && line.find(",ok,") != std::string::npos;
    }
    EXPECT_EQ(logged_lost, failed);
    EXPECT_EQ(r["requests"]["read"], reads);
  }
}

TEST(DeadDieConfig, ADieOfTheDriveWithoutTheLifetimeManager) {
  const std::string small = "--config " + test::source_path("configs/small_gc.json") +
                            " --set flash.faults.dead_die_at_ms=5 ";
  const auto refused = [&small](const std::string& sets, const std::string& message) {
    const std::string out = test::cli_output(small + sets + " --dump-config");
    EXPECT_NE(out.find(message), std::string::npos) << out;
  };
  refused("--set flash.faults.dead_die=4",
          "flash.faults.dead_die: must be a die of the drive (below its 4 dies), got 4");
  refused("--set lifetime.mode=dedup",
          "flash.faults.dead_die_at_ms: not with lifetime.mode (its own mapping above the FTL's "
          "is not told the units lost)");
  refused("--set flash.channels=1 --set flash.ways_per_channel=1",
          "flash.faults.dead_die_at_ms: needs a drive of at least two dies");
  refused("--set flash.faults.dead_die_at_ms=-1",
          "flash.faults.dead_die_at_ms: must be in [0, 3600000]");
  refused("--set flash.faults.dead_die=-1", "flash.faults.dead_die");
}

}  // namespace
}  // namespace ssd
