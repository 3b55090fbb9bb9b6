// A die that stops answering under the block-mapped FTLs (flash.faults.dead_die,
// docs/reliability.md#a-die-that-stops-answering): a logical block lives on its die, so the die's
// logical blocks are lost whole, their pages with data reported; reads of them fail with no flash
// command, the host's writes there fail with Write Fault, a write buffer's page for them is lost
// and reported, a trim unmaps; the rest of the drive is served and nothing reaches the die again.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/DriveConfig.h"
#include "tb/tests/CliReport.h"
#include "tb/tests/FaultyRig.h"
#include "tb/tests/FtlFigure.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

using test::Faulty;

constexpr uint32_t kDead = 1;
constexpr double kDeadAtMs = 60e3;  // after the fill and the overwrites

struct Family {
  const char* name;
  config::FtlType type;
  config::BlockUpdate update;
};

class LogBlockDeadDie : public ::testing::TestWithParam<Family> {};

INSTANTIATE_TEST_SUITE_P(
    EveryBlockMappedFtl, LogBlockDeadDie,
    ::testing::Values(
        Family{"block", config::FtlType::Block, config::BlockUpdate::CopyOnUpdate},
        Family{"block_replacement", config::FtlType::Block, config::BlockUpdate::Replacement},
        Family{"bast", config::FtlType::Bast, config::BlockUpdate::CopyOnUpdate},
        Family{"bast_star", config::FtlType::BastStar, config::BlockUpdate::CopyOnUpdate},
        Family{"fast", config::FtlType::Fast, config::BlockUpdate::CopyOnUpdate},
        Family{"last", config::FtlType::Last, config::BlockUpdate::CopyOnUpdate}),
    [](const ::testing::TestParamInfo<Family>& info) { return std::string(info.param.name); });

Family g_family;  // the rig's shape takes no capture

void shape(config::DriveConfig& c) {
  c.ftl.type = g_family.type;
  if (g_family.type == config::FtlType::Block) c.ftl.block_update = g_family.update;
  c.flash.faults.dead_die = kDead;
  c.flash.faults.dead_die_at_ms = kDeadAtMs;
}

TEST_P(LogBlockDeadDie, ItsLogicalBlocksAreLostWritesThereFailAndTheRestIsServed) {
  g_family = GetParam();
  Faulty d(0, 0, &shape);
  d.overwrite(2000);
  const uint32_t dies = d.cfg.flash.dies(), ppb = d.cfg.flash.pages_per_block;
  const auto dead = [&](fw::Lpn l) { return l / ppb % dies == kDead; };
  std::vector<fw::Lpn> hooked;
  d.ftl.on_units_lost([&hooked](const std::vector<fw::Lpn>& lost, fw::UnitLoss why) {
    EXPECT_EQ(why, fw::UnitLoss::DeadDie);
    hooked.insert(hooked.end(), lost.begin(), lost.end());
  });

  const sc_core::sc_time dead_at(kDeadAtMs, sc_core::SC_MS);
  ASSERT_LT(d.hal.now(), dead_at);
  EXPECT_FALSE(d.ftl.refuses(ppb * kDead, ppb * kDead));  // not yet
  d.hal.compute(dead_at - d.hal.now());
  const std::size_t at_death = d.hal.ops().size();
  const sc_core::sc_time before = d.hal.now();
  // The firmware learns it at its first step: a write to the die's first logical block fails.
  EXPECT_TRUE(d.ftl.refuses(ppb * kDead, ppb * kDead));
  EXPECT_EQ(d.hal.now() - before,
            sc_core::sc_time(d.cfg.controller.fw_per_page_us(), sc_core::SC_US));
  EXPECT_EQ(d.hal.ops().size(), at_death);
  // Every page was written by the fill: the die's logical blocks whole, a range each.
  std::set<fw::Lpn> lost;
  for (fw::Lpn l = 0; l < d.cfg.logical_pages(); ++l)
    if (dead(l)) lost.insert(l);
  EXPECT_EQ(std::set<fw::Lpn>(hooked.begin(), hooked.end()), lost);
  EXPECT_EQ(hooked.size(), lost.size());
  EXPECT_EQ(test::figure(d.ftl, "faults", "units_lost"), lost.size());
  EXPECT_EQ(d.ftl.lost_ranges().size(), lost.size() / ppb);
  for (const auto& r : d.ftl.lost_ranges()) {
    EXPECT_EQ(r.count, ppb);
    EXPECT_TRUE(dead(r.first));
  }

  // Writes: a range touching one of the die's logical blocks fails, one of other dies' does not.
  EXPECT_FALSE(d.ftl.refuses(0, ppb - 1));  // die 0's first logical block
  EXPECT_TRUE(d.ftl.refuses(0, ppb * 2 - 1));
  EXPECT_FALSE(d.ftl.refuses(ppb * 2, ppb * 3 - 1));
  EXPECT_TRUE(d.ftl.refuses(0, d.cfg.logical_pages() - 1));

  // Reads: the die's pages fail with no flash command; the others read their data.
  for (fw::Lpn l = 0; l < d.cfg.logical_pages(); ++l) {
    fw::PageToken t;
    const std::size_t ops = d.hal.ops().size();
    const fw::Ftl::ReadResult r = d.ftl.read(l, t);
    if (dead(l)) {
      EXPECT_TRUE(r.lost) << l;
      EXPECT_EQ(d.hal.ops().size(), ops);
    } else {
      EXPECT_FALSE(r.lost) << l;
      EXPECT_EQ(t, (fw::PageToken{l, d.version[l] + 1}));
    }
  }
  EXPECT_EQ(test::figure(d.ftl, "faults", "reads_lost"), lost.size());

  // A write buffer's page for the die: lost and reported, no command; a trim there unmaps it.
  hooked.clear();
  const fw::Lpn buffered = ppb * kDead + 3;
  EXPECT_EQ(d.ftl.write(buffered, fw::PageToken{buffered, 99}, fw::kNoOp), fw::kNoOp);
  EXPECT_EQ(hooked, std::vector<fw::Lpn>{buffered});
  EXPECT_EQ(test::figure(d.ftl, "faults", "units_lost"), lost.size());  // lost already
  d.ftl.trim(buffered);
  fw::PageToken t;
  const fw::Ftl::ReadResult trimmed = d.ftl.read(buffered, t);
  EXPECT_FALSE(trimmed.lost);
  EXPECT_FALSE(trimmed.mapped);
  // Once trimmed, a buffered page there is lost again (a unit counted once).
  EXPECT_EQ(d.ftl.write(buffered, fw::PageToken{buffered, 100}, fw::kNoOp), fw::kNoOp);
  EXPECT_EQ(test::figure(d.ftl, "faults", "units_lost"), lost.size());
  EXPECT_TRUE(d.ftl.read(buffered, t).lost);

  // The host goes on writing the other dies' pages, merges with them: nothing reaches the die.
  const std::size_t after = d.hal.ops().size();
  const uint64_t erases = d.hal.total_erases();
  for (uint64_t i = 0; i < 6000; ++i) {
    const fw::Lpn l = (i * 7919 + 13) % d.cfg.logical_pages();
    if (dead(l)) continue;
    d.ftl.write(l, fw::PageToken{l, ++d.version[l] + 1}, fw::kNoOp);
  }
  EXPECT_GT(d.hal.total_erases() - erases, 20u);
  for (std::size_t i = after; i < d.hal.ops().size(); ++i)
    ASSERT_NE(d.hal.ops()[i].ppa.die, kDead) << "command " << i << " reached the dead die";
  for (fw::Lpn l = 0; l < d.cfg.logical_pages(); ++l) {
    if (dead(l)) continue;
    d.ftl.read(l, t);
    EXPECT_EQ(t, (fw::PageToken{l, d.version[l] + 1}));
  }
  EXPECT_TRUE(d.hal.violations().empty());
}

// The small drive preconditioned, die 2 dead 50 ms into random reads and writes, with and
// without a write buffer: reads of its data fail (requests.failed_lost), writes there fail with
// Write Fault (requests.failed_write_fault, the request log's status_0x0280), a buffered page
// for it is lost and counted; the scoreboard finds no silent loss, and the run repeats exactly.
TEST(LogBlockDeadDieRun, TheDriveServesTheRestAndLosesNothingSilently) {
  for (const char* ftl : {"bast", "fast"}) {
    for (const char* buffer : {"0", "1"}) {
      SCOPED_TRACE(std::string(ftl) + " write buffer " + buffer + " MB");
      const std::string sets =
          std::string("--set ftl.type=") + ftl + " --set dram.write_buffer_mb=" + buffer +
          " --set flash.faults.dead_die=2 --set flash.faults.dead_die_at_ms=50 --request-log csv "
          "--workload rw=randrw,bs=4096,qd=8,count=6000,seed=4";
      const std::string dir = test::temp_dir(std::string("lb_dead_") + ftl + buffer);
      const nlohmann::json r = test::run_faulty(dir, sets);
      const auto& f = r["faults"];
      ASSERT_FALSE(f["dead_die_at_s"].is_null());
      // small_gc: 48 logical blocks of 32 pages on each die, all written by the preconditioning.
      EXPECT_EQ(f["units_lost"], 48 * 32);
      EXPECT_EQ(f["lost_ranges"], 48.0);
      const uint64_t read_failed = r["requests"]["failed_lost"].get<uint64_t>();
      const uint64_t write_failed = r["requests"]["failed_write_fault"].get<uint64_t>();
      EXPECT_GT(read_failed, 100u);
      EXPECT_GT(write_failed, 100u);
      EXPECT_EQ(f["reads_lost"], read_failed);
      EXPECT_EQ(r["requests"]["failed_read_only"], 0);
      EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
      EXPECT_EQ(r["scoreboard"]["reported_errors"], read_failed);
      if (std::string(buffer) == "1") {
        EXPECT_GT(r["scoreboard"]["lost_by_dead_die"].get<uint64_t>(), 10u);
      }
      std::ifstream log(dir + "/requests.csv");
      std::string line;
      uint64_t faulted = 0;
      while (std::getline(log, line))
        faulted += line.find(",write,") != std::string::npos &&
                   line.find("status_0x0280") != std::string::npos;
      EXPECT_EQ(faulted, write_failed);
      const nlohmann::json again =
          test::run_faulty(test::temp_dir(std::string("lb_dead_again_") + ftl + buffer), sets);
      EXPECT_EQ(again["faults"], f);
      EXPECT_EQ(again["latency_us"], r["latency_us"]);
    }
  }
}

}  // namespace
}  // namespace ssd
