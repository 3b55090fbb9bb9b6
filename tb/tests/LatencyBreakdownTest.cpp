// The latency breakdown (docs/report.md#latency-breakdown): each request's stages add up
// exactly to its latency on drives that exercise every stage; the report's means follow; on an
// idle drive the stages are those derived by hand from the config.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "model/LatencyBreakdown.h"
#include "tb/run/Simulation.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"

namespace ssd {
namespace {

using model::Stage;

// A requests.csv time (microseconds with six decimals) in whole picoseconds.
uint64_t ps(const std::string& us) {
  const std::size_t dot = us.find('.');
  EXPECT_NE(dot, std::string::npos) << us;
  EXPECT_EQ(us.size() - dot, 7u) << us;
  return std::stoull(us.substr(0, dot)) * 1000000 + std::stoull(us.substr(dot + 1));
}

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string f; std::getline(in, f, ',');) out.push_back(f);
  return out;
}

// Runs the simulator; checks every request of its log and returns the time per stage (ps)
// over all requests.
std::map<std::string, uint64_t> run_and_check(const std::string& args, bool several_cores = false) {
  const std::string dir = test::temp_dir("out");
  std::string out;
  EXPECT_EQ(test::run_cli(args + " --request-log csv --quiet --no-series --out " + dir, out), 0)
      << out;
  std::ifstream log(dir + "/requests.csv");
  std::string line;
  EXPECT_TRUE(std::getline(log, line));
  const std::vector<std::string> head = fields(line);
  const std::size_t first = 9;  // the stages follow the flow and the status
  std::vector<std::string> stages;
  for (std::size_t k = 0; k < model::kStageCount; ++k)
    if (shown(Stage(k), {several_cores, false}))
      stages.push_back(std::string(to_string(Stage(k))) + "_us");
  EXPECT_EQ(std::vector<std::string>(head.begin() + std::min(first, head.size()), head.end()),
            stages);
  std::map<std::string, uint64_t> total;
  uint64_t rows = 0;
  while (std::getline(log, line)) {
    const std::vector<std::string> f = fields(line);
    EXPECT_EQ(f.size(), head.size()) << line;
    if (f.size() != head.size()) break;
    uint64_t sum = 0;
    for (std::size_t k = first; k < f.size(); ++k) {
      EXPECT_NE(f[k][0], '-') << line;
      sum += ps(f[k]);
      total[head[k]] += ps(f[k]);
    }
    EXPECT_EQ(sum, ps(f[6])) << line;  // latency_us, exactly
    ++rows;
  }
  EXPECT_GT(rows, 0u);
  // The report's means per stage add up to the mean latency; the slowest part holds at least
  // the slowest 1 %.
  std::ifstream rep(dir + "/report.json");
  const nlohmann::json r = nlohmann::json::parse(rep);
  for (const char* kind : {"read", "write"}) {
    const auto& l = r["latency_us"][kind];
    const auto& b = r["latency_breakdown_us"][kind];
    const uint64_t n = l["count"].get<uint64_t>();
    EXPECT_EQ(b["count"].get<uint64_t>(), n) << kind;
    if (n == 0) continue;
    double mean = 0;
    for (const auto& [stage, us] : b["mean"].items()) mean += us.get<double>();
    EXPECT_NEAR(mean, l["mean"].get<double>(), 1e-9 * l["mean"].get<double>()) << kind;
    const auto& slow = b["slowest"];
    EXPECT_GE(slow["count"].get<uint64_t>() * 100, n) << kind;
    EXPECT_LE(slow["from_us"].get<double>(), l["p99"].get<double>()) << kind;
    // A command waits for GC within its latency: the longest wait, and all of them together.
    const auto& gc = r["gc"]["host_wait"][kind];
    EXPECT_LE(gc["max_us"].get<double>(), l["max"].get<double>()) << kind;
    EXPECT_LE(gc["total_s"].get<double>() * 1e6, l["mean"].get<double>() * double(n)) << kind;
  }
  return total;
}

TEST(LatencyBreakdown, AddsUpOnABusyInOrderDriveUnderAPowerBudget) {
  // The founding study's drive, aged: in-order issue blocks the core on the bus, GC runs in
  // the foreground and in the dies' queues, the budget holds die operations back.
  const auto t = run_and_check(
      "--config " + test::source_path("configs/default.json") +
      " --set power_budget.enabled=true --set power_budget.max_current_ma=330 --trace " +
      test::source_path("traces/umass_financial1.head10k.spc") +
      " --format spc --max-requests 2000 --precondition");
  for (const char* stage :
       {"core_queue_us", "firmware_us", "core_wait_flash_us", "core_wait_gc_us", "flash_wait_gc_us",
        "flash_wait_power_us", "flash_us", "host_queue_us", "transfer_back_us"})
    EXPECT_GT(t.at(stage), 0u) << stage;
}

TEST(LatencyBreakdown, AddsUpWithSeveralCores) {
  // Host commands on one core, the FTL's work striped over two, background work on a fourth:
  // the work handed between cores has its stages, which add up with the others.
  const auto t = run_and_check(
      "--config " + test::source_path("configs/default.json") +
          " --set controller.issue_order=per_die_queues --set controller.t_message_ns=300"
          " --set controller.ftl_placement=stripes --set 'controller.cores=["
          "{\"name\":\"h\",\"ftl\":false,\"background\":false},"
          "{\"name\":\"f0\",\"host\":false,\"background\":false},"
          "{\"name\":\"f1\",\"host\":false,\"background\":false},"
          "{\"name\":\"bg\",\"host\":false,\"ftl\":false}]' --trace " +
          test::source_path("traces/umass_financial1.head10k.spc") +
          " --format spc --max-requests 2000 --precondition",
      true);
  for (const char* stage : {"core_queue_us", "firmware_us", "messages_us", "ftl_queue_us",
                            "ftl_firmware_us", "flash_us"})
    EXPECT_GT(t.at(stage), 0u) << stage;
}

TEST(LatencyBreakdown, AddsUpWithDiesAndLinkWakingFromLowPower) {
  const auto t =
      run_and_check("--config " + test::source_path("configs/x25m_lowpower.json") +
                    " --workload-file " + test::source_path("workloads/lowpower-idle-gaps.json"));
  EXPECT_GT(t.at("flash_wait_power_us"), 0u);
  EXPECT_GT(t.at("link_in_us"), 0u);
}

TEST(LatencyBreakdown, AddsUpUnderLifetimeThrottling) {
  const auto t =
      run_and_check("--config " + test::source_path("configs/lifetime_small.json") +
                    " --workload-file " + test::source_path("workloads/lifetime-writes.json"));
  EXPECT_GT(t.at("throttle_us"), 0u);
}

TEST(LatencyBreakdown, AddsUpOnAnNvmeDriveWithAWriteBuffer) {
  const auto t = run_and_check("--config " + test::source_path("configs/nvme_tlc_1tb.json") +
                               " --workload rw=randrw,mix=0.7,bs=16k,qd=32,count=3000,seed=7");
  EXPECT_GT(t.at("submission_us"), 0u);
  EXPECT_GT(t.at("data_wait_us"), 0u);  // buffered writes: their data still crossing the link
}

TEST(LatencyBreakdown, GcWaitsOfAnAgedSmallDrive) {
  const auto t = run_and_check("--config " + test::source_path("configs/small_gc.json") +
                               " --workload rw=randrw,mix=0.7,bs=4k,qd=32,count=3000,seed=3"
                               " --precondition");
  EXPECT_GT(t.at("flash_wait_gc_us"), t.at("flash_us"));
}

// The stages' mean over a kind's requests, from the report (one request each here).
double stage_us(const nlohmann::ordered_json& rep, const char* kind, Stage s) {
  return rep["latency_breakdown_us"][kind]["mean"][to_string(s)].get<double>();
}

TEST(LatencyBreakdown, SingleWriteAndReadOnAnIdleDriveByHand) {
  const auto c = test::shipped("x25m");
  tb::VectorSource src({test::request(0, tb::IoOp::Write, 8192, 4096),
                        test::request(100000, tb::IoOp::Read, 8192, 4096)});
  const nlohmann::ordered_json rep = tb::run_simulation(c, src, tb::RunOptions{}).report;
  const double link_us = 4096 / c.host.link_mb_per_s;
  const double bus_us = 4096 * c.flash.bus_ns_per_byte / 1000;
  const double dram_us = c.dram.t_access_ns / 1000;
  const double step_us = c.controller.t_fw_per_page_us + c.controller.t_cmd_issue_us;
  constexpr double kTol = 1e-6;  // 1 ps: sc_time rounds each config time to the resolution
  // The write: its data over the link, then the firmware with 3 table accesses (L2P look-up,
  // L2P and reverse-map updates) and the issue, then the page over the bus and its program.
  EXPECT_NEAR(stage_us(rep, "write", Stage::LinkIn), link_us, kTol);
  EXPECT_NEAR(stage_us(rep, "write", Stage::Firmware),
              c.controller.t_fw_per_cmd_us + step_us + 3 * dram_us, kTol);
  EXPECT_NEAR(stage_us(rep, "write", Stage::Flash), bus_us + c.flash.t_prog_us, kTol);
  // The read: the firmware with one look-up, the array read and the page out over the bus,
  // then its data over the link to the host.
  EXPECT_NEAR(stage_us(rep, "read", Stage::LinkIn), 0, kTol);
  EXPECT_NEAR(stage_us(rep, "read", Stage::Firmware),
              c.controller.t_fw_per_cmd_us + step_us + dram_us, kTol);
  EXPECT_NEAR(stage_us(rep, "read", Stage::Flash), c.flash.t_read_us + bus_us, kTol);
  EXPECT_NEAR(stage_us(rep, "read", Stage::TransferBack), link_us, kTol);
  // Nothing else: an idle drive.
  for (const char* kind : {"write", "read"}) {
    double rest = rep["latency_us"][kind]["mean"].get<double>();
    for (Stage s : {Stage::LinkIn, Stage::Firmware, Stage::Flash, Stage::TransferBack})
      rest -= stage_us(rep, kind, s);
    EXPECT_NEAR(rest, 0, kTol) << kind;
  }
}

TEST(LatencyBreakdown, DocsListEveryStageWithItsMeaning) {
  const std::string doc = test::slurp(test::source_path("docs/report.md"));
  for (std::size_t k = 0; k < model::kStageCount; ++k) {
    const std::string row =
        std::string("| `") + to_string(Stage(k)) + "` | us | " + meaning(Stage(k)) + " |";
    EXPECT_NE(doc.find(row), std::string::npos) << "docs/report.md lacks the row\n" << row;
  }
}

}  // namespace
}  // namespace ssd
