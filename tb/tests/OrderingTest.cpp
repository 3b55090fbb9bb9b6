// Command ordering: commands to the same logical pages are applied in the host's order, so
// the scoreboard can stay strict (issue order = apply order) under any overlap.
#include <random>

#include <gtest/gtest.h>

#include "tb/run/Simulation.h"
#include "tb/workload/VectorSource.h"
#include "tb/tests/TestUtil.h"

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

// Hot pages under concurrent writes, trims and reads at queue depth 32 and 256, on every FTL,
// with and without the write buffer.
TEST(Ordering, OverlapSoakOnEveryFtl) {
  for (const char* type : {"page", "dftl", "block", "bast", "bast_star", "fast", "last"}) {
    for (uint32_t qd : {32u, 256u}) {
      for (uint64_t buffer_mb : {0u, 1u}) {
        SCOPED_TRACE(std::string(type) + " qd " + std::to_string(qd) + " buffer " +
                     std::to_string(buffer_mb));
        auto cfg = test::shipped("small_gc");
        cfg.ftl.type = type;
        cfg.host.queue_depth = qd;
        cfg.dram.write_buffer_mb = buffer_mb;
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

}  // namespace
}  // namespace ssd
