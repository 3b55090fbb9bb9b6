// Bulk preconditioning of the block-mapped FTLs (block, bast, bast_star, fast, last;
// docs/ftl.md#preconditioning): the FTL replays the simulated path's writes through its own
// decisions without flash commands, so the state it lays out must be the simulated one, page
// for page: the NAND contents, the erase counts, and everything the FTL does afterwards.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "firmware/Firmware.h"
#include "firmware/PreconditionStream.h"
#include "firmware/ftl/LogBlockFtl.h"
#include "ip/Scoreboard.h"
#include "model/Ssd.h"
#include "model/power/EnergyMonitor.h"
#include "tb/host/Host.h"
#include "tb/run/Simulation.h"
#include "tb/tests/LogFtlRig.h"
#include "tb/workload/VectorSource.h"
#include "tb/workload/WorkloadGenerator.h"

namespace ssd {
namespace {

using test::FakeHal;

// The FTLs by ftl.type, and two more of the block FTL (replacement blocks by default):
// "block_copy" with ftl.block_update copy_on_update, "block_fold" on a drive where
// replacement blocks fill (below).
const std::vector<std::string> kTypes = {"block",     "block_copy", "block_fold", "bast",
                                         "bast_star", "fast",       "last"};

// 4 dies x 48 blocks of 16 pages, a third hidden: 32 logical blocks per die, 4 log (or
// replacement) blocks per die (ceil(0.1 x 32)), so random overwrites exhaust them: BAST and
// the block FTL replace, BAST* falls back to its data blocks and, with about 16 erases per
// block by the end, levels wear. "block_fold": blocks of 4 pages (33 logical blocks per die)
// and 14 replacement blocks per die (ceil(0.4 x 33)), so a logical block often takes 4 updates
// before its replacement block is taken: folds of full replacement blocks as well.
config::DriveConfig small(const std::string& type) {
  const bool block = type.compare(0, 5, "block") == 0;
  auto c = type == "block_fold" ? test::log_drive("block", 4, 48, 4, 0.33, 0.4)
                                : test::log_drive(block ? "block" : type, 4, 48, 16, 0.33, 0.1);
  c.ftl.last_seq_log_blocks = 2;
  if (type == "block_copy") c.ftl.block_update = config::BlockUpdate::CopyOnUpdate;
  return config::parse_drive_config(config::to_json(c), "test config");
}

// The firmware as the controller drives it: the first `pages` logical pages once (all of them,
// or a drive part full), then `random` pages from the preconditioning stream among them, each
// a one-page write of version 0.
void simulate(fw::Firmware& firmware, uint64_t pages, uint64_t page_bytes, uint64_t random) {
  fw::HostCommand cmd{fw::CommandOp::Write, 0, page_bytes, 0};
  for (uint64_t lpn = 0; lpn < pages; ++lpn) {
    cmd.offset_bytes = lpn * page_bytes;
    firmware.execute(cmd, nullptr);
  }
  fw::PreconditionStream addresses(pages);
  for (uint64_t i = 0; i < random; ++i) {
    cmd.offset_bytes = addresses.next() * page_bytes;
    firmware.execute(cmd, nullptr);
  }
}

const fw::LogBlockStats& log_stats(const fw::Firmware& firmware) {
  return dynamic_cast<const fw::LogBlockFtl&>(firmware.ftl()).log_stats();
}

// Every page of the NAND: programmed or not, and its token.
std::vector<fw::PageToken> nand(const FakeHal& hal, const config::DriveConfig& cfg) {
  std::vector<fw::PageToken> out;
  for (uint32_t d = 0; d < cfg.flash.dies(); ++d)
    for (uint32_t b = 0; b < cfg.flash.blocks_per_die(); ++b)
      for (uint32_t p = 0; p < cfg.flash.pages_per_block; ++p) {
        const fw::Ppa ppa{d, b, p};
        out.push_back(hal.programmed(ppa) ? hal.token(ppa) : fw::PageToken{~0ull, ~0ull});
      }
  return out;
}

// The flash commands a mixed run issues after preconditioning: what the FTL does next shows
// its tables (maps, log blocks, free pools, write stamps, erase counts).
std::vector<std::string> run_after(fw::Firmware& firmware, FakeHal& hal, uint64_t pages,
                                   uint64_t page_bytes) {
  const size_t from = hal.ops().size();
  std::vector<fw::PageToken> data;
  uint64_t x = 12345;
  for (uint64_t i = 0; i < 3 * pages; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const uint64_t lpn = (x >> 33) % pages;
    const uint64_t len = 1 + (x >> 20) % 3;
    const bool read = (x >> 10) % 4 == 0;
    fw::HostCommand cmd{read ? fw::CommandOp::Read : fw::CommandOp::Write, lpn * page_bytes,
                        std::min(len, pages - lpn) * page_bytes, i + 1};
    firmware.execute(cmd, read ? &data : nullptr);
  }
  std::vector<std::string> log;
  for (size_t i = from; i < hal.ops().size(); ++i) {
    const auto& op = hal.ops()[i];
    log.push_back(std::to_string(int(op.kind)) + " " + std::to_string(op.ppa.die) + "/" +
                  std::to_string(op.ppa.block) + "/" + std::to_string(op.ppa.page) + " " +
                  std::to_string(op.token.lpn) + "." + std::to_string(op.token.version));
  }
  return log;
}

TEST(PreconditionLogBlock, BulkStateIsTheSimulatedOnePageForPage) {
  for (const std::string& type : kTypes) {
    // x: the random overwrites; 10 + x: the same on a drive filled to 60 %.
    for (double x : {0.0, 0.7, 3.0, 10.7}) {
      const auto cfg = small(type);
      const double fill = x >= 10 ? 0.6 : 1.0;
      if (x >= 10) x -= 10;
      const uint64_t pages = uint64_t(fill * double(cfg.logical_pages())),
                     page = cfg.flash.page_bytes;
      const auto random = uint64_t(x * double(pages));
      FakeHal sim_hal(cfg.flash), bulk_hal(cfg.flash);
      fw::Firmware sim(cfg, sim_hal), bulk(cfg, bulk_hal);
      simulate(sim, pages, page, random);
      ASSERT_TRUE(bulk.precondition_bulk(pages, random)) << type;
      EXPECT_TRUE(bulk_hal.ops().empty()) << type << ": bulk issues no flash command";
      EXPECT_EQ(bulk.ftl().stats().pages_programmed, 0u) << type;
      SCOPED_TRACE(type + " x " + std::to_string(x));
      EXPECT_TRUE(nand(sim_hal, cfg) == nand(bulk_hal, cfg));
      const auto se = sim.ftl().erase_summary(), be = bulk.ftl().erase_summary();
      ASSERT_TRUE(se && be);
      EXPECT_EQ(se->min, be->min);
      EXPECT_EQ(se->max, be->max);
      EXPECT_DOUBLE_EQ(se->mean, be->mean);
      EXPECT_DOUBLE_EQ(se->std, be->std);
      if (x == 3.0 && type != "block_copy" && type != "block_fold") {
        EXPECT_GT(se->mean, 100.0 / 15);
      }
      // The replay went through the paths an aged drive takes.
      if (x == 3.0 && (type == "bast" || type == "block")) {
        EXPECT_GT(test::figure(sim.ftl(), "merges", "replacements"), 0u);
      }
      if (x == 3.0 && type == "block_fold") {
        EXPECT_GT(log_stats(sim).folds, test::figure(sim.ftl(), "merges", "replacements"));
      }
      if (x == 3.0 && type == "bast_star") {
        EXPECT_GT(test::figure(sim.ftl(), "merges", "wl_swaps"), 0u);
      }
      if (x == 3.0 && type == "fast") {
        EXPECT_GT(log_stats(sim).merges_full, 0u);
      }
      sim.reset_stats();
      const auto after_sim = run_after(sim, sim_hal, pages, page);
      const auto after_bulk = run_after(bulk, bulk_hal, pages, page);
      EXPECT_TRUE(after_sim == after_bulk);
      EXPECT_EQ(sim.ftl().stats().pages_programmed, bulk.ftl().stats().pages_programmed);
      const fw::LogBlockStats& s = log_stats(sim);
      const fw::LogBlockStats& b = log_stats(bulk);
      for (const char* figure : {"replacements", "wl_swaps", "oob_reads", "fallbacks"}) {
        EXPECT_EQ(test::figure(sim.ftl(), "merges", figure),
                  test::figure(bulk.ftl(), "merges", figure))
            << figure;
      }
      EXPECT_EQ(s.merges_full, b.merges_full);
      EXPECT_EQ(s.folds, b.folds);
      EXPECT_TRUE(sim_hal.violations().empty() && bulk_hal.violations().empty());
    }
  }
}

// The aged drive takes the paths a fresh one never reaches on a short run: BAST replaces a log
// block on nearly every write to a new logical block, BAST* falls back to its data blocks and
// swaps hot and cold blocks.
TEST(PreconditionLogBlock, AgedDrivesReachReplacementAndWearLevelling) {
  const auto run = [](const std::string& type) {
    const auto cfg = small(type);
    FakeHal hal(cfg.flash);
    fw::Firmware firmware(cfg, hal);
    EXPECT_TRUE(firmware.precondition_bulk(cfg.logical_pages(), 2 * cfg.logical_pages()));
    firmware.reset_stats();
    run_after(firmware, hal, cfg.logical_pages(), cfg.flash.page_bytes);
    return std::make_tuple(firmware.ftl().stats().blocks_erased,
                           test::figure(firmware.ftl(), "merges", "replacements"),
                           test::figure(firmware.ftl(), "merges", "wl_swaps"));
  };
  const auto [bast_erased, bast_replacements, bast_swaps] = run("bast");
  const auto [star_erased, star_replacements, star_swaps] = run("bast_star");
  EXPECT_GT(bast_replacements, 0u);
  EXPECT_EQ(star_replacements, 0u);
  EXPECT_GT(star_swaps, 0u);
  EXPECT_EQ(bast_swaps, 0u);
  EXPECT_NE(bast_erased, star_erased);
}

// Through the whole model: the report of a run on a drive preconditioned in bulk is the one
// on a drive preconditioned by simulation, byte for byte (wall-clock figures left out).
TEST(PreconditionLogBlock, ReportsMatchTheSimulatedPath) {
  for (const std::string& type : kTypes) {
    const auto cfg = small(type);
    std::string reports[2];
    for (int simulate_it = 0; simulate_it < 2; ++simulate_it) {
      auto src =
          tb::make_workload("rw=randrw,mix=0.5,bs=8k,qd=4,seed=3,count=400", cfg.logical_bytes());
      tb::RunOptions o;
      o.reproducible = true;
      o.series = false;
      o.precondition = true;
      o.precondition_random = 1.5;
      o.precondition_simulate = simulate_it == 1;
      const auto r = tb::run_simulation(cfg, *src, o);
      EXPECT_TRUE(r.data_intact) << type;
      reports[simulate_it] = r.report.dump(1);
    }
    EXPECT_EQ(reports[0], reports[1]) << type;
  }
}

using Mode = model::Controller::PreconditionMode;

// Preconditions the drive (2 x its logical pages written) as `mode` asks, then reads every
// page back through the scoreboard: version 0 of its own logical page. Returns whether the
// fill was in bulk; `erases` gets the NAND dies' own erase counts.
bool precondition_and_read_back(const config::DriveConfig& cfg, Mode mode,
                                std::vector<uint32_t>& erases) {
  tb::reset_kernel();
  model::EnergyMonitor monitor(model::EnergyMonitor::Options{});
  model::Ssd ssd("ssd", cfg, monitor);
  ssd.controller().precondition(1.0, 2.0, mode);
  std::vector<tb::HostRequest> reqs;
  const uint64_t page = cfg.flash.page_bytes;
  for (uint64_t l = 0; l < cfg.logical_pages(); l += 8)
    reqs.push_back(test::request(0, tb::IoOp::Read, l * page,
                                 std::min<uint64_t>(8, cfg.logical_pages() - l) * page));
  tb::VectorSource src(std::move(reqs), false, 4);
  ip::Scoreboard scoreboard;
  tb::Host host("host", src, {cfg.host.queue_depth}, scoreboard, page, cfg.namespace_layout(),
                false);
  host.socket.bind(ssd.host_socket());
  sc_core::sc_start();
  EXPECT_EQ(scoreboard.mismatches(), 0u);
  EXPECT_EQ(scoreboard.pages_checked(), cfg.logical_pages());
  for (uint32_t d = 0; d < cfg.flash.dies(); ++d)
    for (uint32_t b = 0; b < cfg.flash.blocks_per_die(); ++b)
      erases.push_back(
          ssd.channel(d % cfg.flash.channels).die(d / cfg.flash.channels).erase_count(b));
  return ssd.controller().precondition_stats().bulk;
}

// The NAND dies' own erase counts (what flash_preset set, in bulk) and every page read back
// through the scoreboard: version 0 of its own logical page.
TEST(PreconditionLogBlock, NandEraseCountsMatchTheSimulatedPath) {
  for (const std::string& type : kTypes) {
    SCOPED_TRACE(type);
    const auto cfg = small(type);
    std::vector<uint32_t> erases[2];
    EXPECT_TRUE(precondition_and_read_back(cfg, Mode::Bulk, erases[0]));
    EXPECT_FALSE(precondition_and_read_back(cfg, Mode::Simulate, erases[1]));
    EXPECT_EQ(erases[0], erases[1]);
  }
}

// A write buffer or the lifetime manager reorders or reshapes the writes: no bulk fill.
TEST(PreconditionLogBlock, NotWithAWriteBuffer) {
  auto cfg = small("bast");
  cfg.dram.write_buffer_mb = 1;
  FakeHal hal(cfg.flash);
  fw::Firmware firmware(cfg, hal);
  EXPECT_FALSE(firmware.precondition_bulk(cfg.logical_pages(), 10));
  EXPECT_TRUE(hal.ops().empty());
}

}  // namespace
}  // namespace ssd
