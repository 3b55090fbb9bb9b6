// Command ordering: commands to the same logical pages are applied in the host's order, so
// the scoreboard can stay strict (issue order = apply order) under any overlap.
#include <gtest/gtest.h>

#include <random>

#include "tb/run/Simulation.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"

namespace ssd {
namespace {

using tb::IoOp;

tb::RunResult run(const config::DriveConfig& cfg, std::vector<tb::HostRequest> reqs) {
  tb::VectorSource src(std::move(reqs));
  return tb::run_simulation(cfg, src, tb::RunOptions{});
}

// The case that lost data: a long write, a write to page 1000, a trim of page 1000 while that
// write's data is still crossing the link, and a read long after. The trim carries no data
// and used to reach the controller first; the read then returned the write's data.
TEST(Ordering, TrimAfterAnInFlightWriteWins) {
  const auto cfg = test::shipped("small_gc");
  const auto r = run(cfg, {test::request(0, IoOp::Write, 0, 1 << 20),
                           test::request(1, IoOp::Write, 1000 * 4096, 4096),
                           test::request(2, IoOp::Trim, 1000 * 4096, 4096),
                           test::request(1e6, IoOp::Read, 1000 * 4096, 4096)});
  EXPECT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
  EXPECT_EQ(r.report["scoreboard"]["mismatches"].get<uint64_t>(), 0u);
}

// A read issued after an overlapping write returns that write's data, even though the read
// carries no data and the write's is still on the link.
TEST(Ordering, ReadAfterWriteSeesTheWrite) {
  auto cfg = test::shipped("small_gc");
  cfg.host.full_duplex = true;  // the read's data does not share the link with the write's
  const auto r = run(cfg, {test::request(0, IoOp::Write, 0, 256 * 1024),
                           test::request(1, IoOp::Read, 200 * 1024, 4096)});
  EXPECT_TRUE(r.data_intact);
  // Not overlapping: a read of another page does not wait for the write's data.
  const auto lone = run(cfg, {test::request(0, IoOp::Write, 0, 256 * 1024),
                              test::request(1, IoOp::Read, 1024 * 1024, 4096)});
  EXPECT_LT(lone.report["latency_us"]["read"]["max"].get<double>(),
            256 * 1024 / cfg.host.link_mb_per_s);
}

// A read of a page whose program has not ended: under block_order nand the controller serves
// it from its buffer, where the page's data still is (the read takes no flash time); in_order
// sends it to the flash, where it waits for the program.
TEST(Ordering, AReadOfAPageBeingProgrammedIsServedFromTheBuffer) {
  for (const char* order : {"in_order", "nand"}) {
    SCOPED_TRACE(order);
    auto cfg = test::shipped("small_gc");
    cfg.controller.block_order = test::choice<config::BlockOrder>(order);
    const bool nand = std::string(order) == "nand";
    const auto r = run(cfg, {test::request(0, IoOp::Write, 40960, 4096),
                             test::request(1, IoOp::Read, 40960, 4096)});
    EXPECT_TRUE(r.data_intact);
    EXPECT_EQ(r.report["flash_ops"]["reads_from_buffer"].get<uint64_t>(), nand ? 1u : 0u);
    EXPECT_EQ(r.report["flash_ops"]["read"].get<uint64_t>(), nand ? 0u : 1u);
    const double read_us = r.report["latency_us"]["read"]["max"].get<double>();
    if (nand)
      EXPECT_LT(read_us, cfg.flash.t_prog_us);
    else
      EXPECT_GT(read_us, cfg.flash.t_prog_us + cfg.flash.t_read_us);
  }
}

// Hot pages under concurrent writes, trims and reads at queue depth 32 and 256, on every FTL,
// with and without the write buffer; under block_order nand (reads from the controller
// buffer; the page-level FTLs collecting incrementally) as well.
TEST(Ordering, OverlapSoakOnEveryFtl) {
  for (const char* type : {"page", "dftl", "block", "bast", "bast_star", "fast", "last"}) {
    for (uint32_t qd : {32u, 256u}) {
      for (uint64_t buffer_mb : {0u, 1u}) {
        for (const bool nand : {false, true}) {
          SCOPED_TRACE(std::string(type) + " qd " + std::to_string(qd) + " buffer " +
                       std::to_string(buffer_mb) + (nand ? " nand" : ""));
          auto cfg = test::shipped("small_gc");
          cfg.ftl.type = test::choice<config::FtlType>(type);
          test::set_queue_depth(cfg, qd);
          cfg.dram.write_buffer_mb = buffer_mb;
          if (nand) {
            cfg.controller.block_order = config::BlockOrder::Nand;
            cfg.controller.host_first = true;
            cfg.controller.suspend_for_reads = true;
            if (cfg.ftl.type == config::FtlType::Page || cfg.ftl.type == config::FtlType::Dftl) {
              cfg.ftl.gc_mode = config::GcMode::Incremental;
              cfg.ftl.gc_soft_blocks = 8;
            }
          }
          std::mt19937_64 rng(qd + buffer_mb);
          std::vector<tb::HostRequest> reqs;
          for (int i = 0; i < 3000; ++i) {
            const uint64_t roll = rng() % 10;
            const IoOp op = roll < 4 ? IoOp::Read : roll < 8 ? IoOp::Write : IoOp::Trim;
            // 64 hot pages, 1-4 pages long, unaligned half the time.
            const uint64_t offset = (rng() % 64) * 4096 + (rng() % 2) * 512;
            reqs.push_back(test::request(5.0 * i, op, offset, 4096 * (1 + rng() % 4)));
          }
          const auto r = run(cfg, std::move(reqs));
          EXPECT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
          EXPECT_GT(r.report["scoreboard"]["pages_checked"].get<uint64_t>(), 1000u);
        }
      }
    }
  }
}

// Garbage collection under overlapping reads, writes and trims: three times the logical space
// written over the whole of it, on every FTL, at queue depth 32 and 256, with and without the
// write buffer, under block_order nand (reads passing queued programs and GC copies, reads
// from the controller buffer, suspend; the page-level FTLs collecting incrementally).
class OrderingSoak : public ::testing::TestWithParam<const char*> {};

TEST_P(OrderingSoak, ThreeTimesTheCapacityUnderNandOrder) {
  const std::string type = GetParam();
  for (uint32_t qd : {32u, 256u}) {
    for (uint64_t buffer_mb : {0u, 1u}) {
      SCOPED_TRACE("qd " + std::to_string(qd) + " buffer " + std::to_string(buffer_mb));
      auto cfg = test::shipped("small_gc");
      cfg.ftl.type = test::choice<config::FtlType>(type);
      test::set_queue_depth(cfg, qd);
      cfg.dram.write_buffer_mb = buffer_mb;
      cfg.controller.block_order = config::BlockOrder::Nand;
      cfg.controller.host_first = true;
      cfg.controller.suspend_for_reads = true;
      if (cfg.ftl.type == config::FtlType::Page || cfg.ftl.type == config::FtlType::Dftl) {
        cfg.ftl.gc_mode = config::GcMode::Incremental;
        cfg.ftl.gc_soft_blocks = 8;
      }
      const uint64_t logical = cfg.logical_pages();
      std::mt19937_64 rng(7 * qd + buffer_mb);
      std::vector<tb::HostRequest> reqs;
      uint64_t written = 0;
      for (int i = 0; written < 3 * logical; ++i) {
        const uint64_t roll = rng() % 10;
        const IoOp op = roll < 3 ? IoOp::Read : roll < 9 ? IoOp::Write : IoOp::Trim;
        const uint64_t pages = 1 + rng() % 4;
        const uint64_t offset = (rng() % (logical - 4)) * 4096 + (rng() % 4 == 0) * 512;
        if (op == IoOp::Write) written += pages;
        reqs.push_back(test::request(2.0 * i, op, offset, 4096 * pages));
      }
      const auto r = run(cfg, std::move(reqs));
      EXPECT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
      const auto& ftl = r.report["firmware"];
      const uint64_t full_merges =  // only the block-mapped FTLs have merges
          r.report.contains("merges") ? r.report["merges"]["full"].get<uint64_t>() : 0;
      const uint64_t reclaimed = ftl["gc_blocks_reclaimed"].get<uint64_t>() + full_merges;
      EXPECT_GT(reclaimed, 0u) << "the run reached garbage collection";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryFtl, OrderingSoak,
                         ::testing::Values("page", "dftl", "block", "bast", "bast_star", "fast",
                                           "last"));

}  // namespace
}  // namespace ssd
