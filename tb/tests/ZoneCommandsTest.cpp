// Zone commands through the whole drive: zone appends returning where their data went, zone
// management actions (a reset erasing its zone's blocks, which then read as zeroes), the NVMe
// statuses of what the zones refuse, and the scoreboard following appends and resets under
// overlapping work at queue depths 32 and 256.
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "tb/run/Simulation.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/JsonWorkload.h"
#include "tb/workload/VectorSource.h"
#include "tb/workload/WorkloadGenerator.h"
#include "tb/workload/WorkloadJob.h"

namespace ssd {
namespace {

using fw::zns::ZoneAction;

constexpr uint64_t kMiB = 1 << 20;
constexpr uint64_t kPage = 4096;
constexpr uint64_t kZoneBytes = 512 * 1024;  // 4 blocks of 32 pages

// small_gc (4 dies x 64 blocks x 32 pages of 4 KiB) with db (8 MiB) and z: 8 zones over all 4
// dies, `zones` merged into z's zone keys.
config::DriveConfig drive(const nlohmann::json& zones = nlohmann::json::object(),
                          const nlohmann::json& patch = nullptr) {
  nlohmann::json doc = config::to_json(test::shipped("small_gc"));
  nlohmann::json z = {{"count", 8}};
  z.merge_patch(zones);
  doc["namespaces"] = {{{"name", "db"}, {"size_bytes", 8 * kMiB}},
                       {{"name", "z"}, {"kind", "zoned"}, {"zones", z}}};
  if (!patch.is_null()) doc.merge_patch(patch);
  return config::parse_drive_config(doc, "t.json");
}

tb::HostRequest in(uint32_t ns, double at_us, tb::IoOp op, uint64_t offset,
                   uint64_t length = kPage) {
  tb::HostRequest r = test::request(at_us, op, offset, length);
  r.ns = ns;
  return r;
}

tb::HostRequest action(double at_us, ZoneAction a, uint64_t zone, uint32_t ns = 1) {
  tb::HostRequest r = in(ns, at_us, tb::IoOp::ZoneManage, zone * kZoneBytes, 0);
  r.zone_action = a;
  return r;
}

tb::RunResult run(const config::DriveConfig& cfg, std::vector<tb::HostRequest> reqs,
                  const std::string& log_dir = "") {
  tb::VectorSource src(std::move(reqs));
  tb::RunOptions o;
  if (!log_dir.empty()) {
    o.out_dir = log_dir;
    o.request_log = "requests.csv";
  }
  return tb::run_simulation(cfg, src, o);
}

uint64_t figure(const nlohmann::json& j) { return uint64_t(j.get<double>()); }

// 32 appends of a page sent at once to zone 0 (all in flight together: the host cannot know
// which lands where until each completes); then its 32 pages and 8 past them read back.
TEST(ZoneCommands, AppendsInFlightTogetherAllReadBack) {
  std::vector<tb::HostRequest> reqs;
  for (int i = 0; i < 32; ++i) reqs.push_back(in(1, 10, tb::IoOp::Append, 0));
  for (uint64_t p = 0; p < 40; ++p) reqs.push_back(in(1, 5000 + 30 * p, tb::IoOp::Read, p * kPage));
  const tb::RunResult r = run(drive(), reqs);
  const auto& rep = r.report;
  EXPECT_TRUE(r.data_intact) << rep["scoreboard"].dump();
  EXPECT_EQ(rep["scoreboard"]["pages_checked"].get<uint64_t>(), 40u);
  EXPECT_EQ(rep["requests"]["append"].get<uint64_t>(), 32u);
  EXPECT_EQ(rep["requests"]["write"].get<uint64_t>(), 32u);
  EXPECT_EQ(rep["requests"]["write_bytes"].get<uint64_t>(), 32 * kPage);
  EXPECT_EQ(rep["requests"]["failed_status"].get<uint64_t>(), 0u);
  EXPECT_EQ(rep["zoned"]["appends"].get<uint64_t>(), 32u);
  EXPECT_EQ(figure(rep["zoned"]["pages_programmed"]), 32u);
}

// 512-byte logical blocks: 64 appends of 2 blocks at once fill 16 units, 4 appends to a unit
// (a unit holds the latest append's data); every unit reads back.
TEST(ZoneCommands, SubUnitAppendsShareUnits) {
  std::vector<tb::HostRequest> reqs;
  for (int i = 0; i < 64; ++i) reqs.push_back(in(1, 10, tb::IoOp::Append, 0, 1024));
  for (uint64_t p = 0; p < 17; ++p) reqs.push_back(in(1, 5000 + 30 * p, tb::IoOp::Read, p * kPage));
  const tb::RunResult r = run(drive({{"lba_bytes", 512}}), reqs);
  EXPECT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
  EXPECT_EQ(r.report["scoreboard"]["pages_checked"].get<uint64_t>(), 17u);
  EXPECT_EQ(figure(r.report["zoned"]["units_written"]), 16u);
}

// Zone 0 written whole (32 writes of 16 KiB: full), reset, read (zeroes), appended to and read
// again. The reset erases the zone's 4 blocks; the reads sent just after it wait for it.
TEST(ZoneCommands, AResetErasesItsZoneWhichThenReadsAsZeroes) {
  std::vector<tb::HostRequest> reqs;
  double t = 0;
  for (uint64_t p = 0; p < 128; p += 4)
    reqs.push_back(in(1, t += 50, tb::IoOp::Write, p * kPage, 4 * kPage));
  reqs.push_back(action(t += 50, ZoneAction::Reset, 0));
  for (uint64_t p = 0; p < 128; ++p) reqs.push_back(in(1, t += 1, tb::IoOp::Read, p * kPage));
  for (int i = 0; i < 4; ++i) reqs.push_back(in(1, t += 30, tb::IoOp::Append, 0));
  for (uint64_t p = 0; p < 8; ++p) reqs.push_back(in(1, t += 200, tb::IoOp::Read, p * kPage));
  const tb::RunResult r = run(drive(), reqs);
  const auto& rep = r.report;
  EXPECT_TRUE(r.data_intact) << rep["scoreboard"].dump();
  EXPECT_EQ(rep["scoreboard"]["pages_checked"].get<uint64_t>(), 128u + 8);
  EXPECT_EQ(rep["requests"]["zone_action"].get<uint64_t>(), 1u);
  EXPECT_EQ(rep["requests"]["count"].get<uint64_t>(), 32u + 1 + 128 + 4 + 8);
  EXPECT_EQ(rep["zoned"]["zone_actions"].get<uint64_t>(), 1u);
  EXPECT_EQ(figure(rep["zoned"]["blocks_erased"]), 4u);
  EXPECT_EQ(figure(rep["zoned"]["zones_filled"]), 1u);
  EXPECT_EQ(rep["flash_ops"]["erase"].get<uint64_t>(), 4u);
  // The reset's latency: its 4 erases on 4 dies side by side, one erase time in the flash.
  const config::DriveConfig cfg = drive();
  const auto& latency = rep["latency_us"]["zone_action"];
  const auto& parts = rep["latency_breakdown_us"]["zone_action"];
  EXPECT_EQ(latency["count"].get<uint64_t>(), 1u);
  EXPECT_NEAR(parts["mean"]["flash"].get<double>(), cfg.flash.t_erase_us, 1e-9);
  double sum_us = 0;
  for (const auto& [stage, us] : parts["mean"].items()) sum_us += us.get<double>();
  EXPECT_NEAR(sum_us, latency["mean"].get<double>(), 1e-6);
  // The namespace's own zone figures; db, conventional, has none.
  const auto& z = rep["namespaces"][1]["zoned"];
  EXPECT_FALSE(rep["namespaces"][0].contains("zoned"));
  EXPECT_EQ(z["zones"].get<uint32_t>(), 8u);
  EXPECT_EQ(z["zones_filled"].get<uint64_t>(), 1u);
  EXPECT_EQ(z["zones_reset"].get<uint64_t>(), 1u);
  EXPECT_EQ(z["open_zones"].get<uint32_t>(), 1u);  // by the appends after the reset
  EXPECT_EQ(z["active_zones"].get<uint32_t>(), 1u);
  EXPECT_EQ(z["append"].get<uint64_t>(), 4u);
  EXPECT_EQ(z["zone_action"].get<uint64_t>(), 1u);
  EXPECT_EQ(z["zone_action_latency_us"], latency);
  // Its flash side: zone 0's 128 pages, then the 4 appended (a 4 KiB unit is a page, programmed
  // as it arrives), and the reset's 4 erases among its band: 8 blocks on each die's one plane.
  EXPECT_EQ(z["units_written"].get<uint64_t>(), 128u + 4);
  EXPECT_EQ(z["pages_programmed"].get<uint64_t>(), 128u + 4);
  EXPECT_EQ(z["blocks_erased"].get<uint64_t>(), 4u);
  EXPECT_EQ(z["erase_counts"]["min"].get<uint32_t>(), 0u);
  EXPECT_EQ(z["erase_counts"]["max"].get<uint32_t>(), 1u);
  EXPECT_DOUBLE_EQ(z["erase_counts"]["mean"].get<double>(), 4.0 / 32);
  EXPECT_NE(r.summary.find("  zone_action latency us: mean "), std::string::npos) << r.summary;
}

std::vector<std::string> statuses(const std::string& csv) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while ((at = csv.find('\n', at)) != std::string::npos) {
    const std::size_t end = csv.find('\n', at + 1);
    if (end == std::string::npos) break;
    const std::string line = csv.substr(at + 1, end - at - 1);
    // op and status are the 4th and 9th fields.
    std::vector<std::string> f;
    for (std::size_t b = 0, e; b <= line.size(); b = e + 1) {
      e = line.find(',', b);
      if (e == std::string::npos) e = line.size();
      f.push_back(line.substr(b, e - b));
    }
    out.push_back(f.at(3) + " " + f.at(8));
    at = end;
  }
  return out;
}

// Zone 0 written whole by 32 writes of 16 KiB (4 pages, one a die), one at a time, then read
// back. Without a write cache each write waits for its programs; with a cache of 16 KiB a write
// waits only for the programs of the one before it still running (its own overlap the next
// transfer); with one larger than the zone no write waits for a program, so every write takes
// the same time (its median its longest).
TEST(ZoneCommands, AWriteCacheAcknowledgesWritesBeforeTheirPrograms) {
  const auto write_zone = [](uint64_t cache_bytes) {
    std::vector<tb::HostRequest> reqs;
    for (uint64_t p = 0; p < 128; p += 4)
      reqs.push_back(in(1, 0, tb::IoOp::Write, p * kPage, 4 * kPage));
    for (uint64_t p = 0; p < 128; ++p) reqs.push_back(in(1, 0, tb::IoOp::Read, p * kPage));
    tb::VectorSource src(std::move(reqs), false, 1);
    return tb::run_simulation(drive({{"write_cache_bytes", cache_bytes}}), src, {});
  };
  const tb::RunResult none = write_zone(0), page = write_zone(4 * kPage),
                      zone = write_zone(2 * kZoneBytes);
  for (const tb::RunResult* r : {&none, &page, &zone}) {
    EXPECT_TRUE(r->data_intact) << r->report["scoreboard"].dump();
    EXPECT_EQ(r->report["scoreboard"]["pages_checked"].get<uint64_t>(), 128u);
    EXPECT_EQ(figure(r->report["zoned"]["pages_programmed"]), 128u);
  }
  const auto writes = [](const tb::RunResult& r) { return r.report["latency_us"]["write"]; };
  const double t_prog = drive().flash.t_prog_us;
  EXPECT_EQ(figure(none.report["zoned"]["cache_waits"]), 0u);
  EXPECT_GT(writes(none)["p50"].get<double>(), t_prog);
  EXPECT_EQ(figure(page.report["zoned"]["cache_waits"]), 31u);  // all but the first
  EXPECT_LT(writes(page)["mean"].get<double>(), writes(none)["mean"].get<double>());
  EXPECT_EQ(figure(zone.report["zoned"]["cache_waits"]), 0u);
  EXPECT_LT(writes(zone)["max"].get<double>(), t_prog);
  EXPECT_EQ(writes(zone)["p50"], writes(zone)["max"]);
}

TEST(ZoneCommands, AWriteCacheKeepsItsRules) {
  const auto error = [](const nlohmann::json& zones, const nlohmann::json& patch = nullptr) {
    try {
      drive(zones, patch);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(error({{"write_cache_bytes", 1000}})
                .find("namespaces[1].zones.write_cache_bytes: must be 0 (no write cache) or hold "
                      "a page (flash.page_bytes 4096), got 1000"),
            std::string::npos);
  EXPECT_NE(error({{"write_cache_bytes", 1 << 20}}, {{"power", {{"hold_up", {{"loss_at_ms", 5}}}}}})
                .find("namespaces[1].zones.write_cache_bytes: does not run with a loss of the "
                      "supply (power.hold_up.loss_at_ms) yet"),
            std::string::npos);
}

// What the zones refuse, each with its NVMe status in the request log (in completion order,
// one at a time): closing an empty zone, a third explicit open past max_open 2, an append to a
// finished zone, a write away from a write pointer, a zone command to the conventional
// namespace. Refused commands are out of the figures.
TEST(ZoneCommands, RefusalsCarryTheirNvmeStatus) {
  std::vector<tb::HostRequest> reqs;
  double t = 0;
  reqs.push_back(action(t += 100, ZoneAction::Close, 0));
  reqs.push_back(action(t += 100, ZoneAction::Open, 1));
  reqs.push_back(action(t += 100, ZoneAction::Open, 2));
  reqs.push_back(action(t += 100, ZoneAction::Open, 3));
  reqs.push_back(action(t += 100, ZoneAction::Finish, 1));
  reqs.push_back(in(1, t += 100, tb::IoOp::Append, kZoneBytes));
  reqs.push_back(in(1, t += 100, tb::IoOp::Write, 2 * kZoneBytes + kPage));
  reqs.push_back(action(t += 100, ZoneAction::Reset, 0, 0));
  reqs.push_back(in(0, t += 100, tb::IoOp::Append, 0));
  reqs.push_back(in(1, t += 100, tb::IoOp::Append, 2 * kZoneBytes));
  const std::string dir = test::temp_dir("refusals");
  const tb::RunResult r = run(drive({{"max_open", 2}}), reqs, dir);
  EXPECT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
  EXPECT_EQ(statuses(test::slurp(dir + "/requests.csv")),
            (std::vector<std::string>{"zone_manage status_0x01bf",  // invalid zone state transition
                                      "zone_manage ok", "zone_manage ok",
                                      "zone_manage status_0x01be",  // too many open zones
                                      "zone_manage ok",             // finish: zone 1 full
                                      "append status_0x01b9",       // zone is full
                                      "write status_0x01bc",        // zone invalid write
                                      "zone_manage status_0x0001",  // invalid command opcode
                                      "append status_0x0001", "append ok"}));
  const auto& req = r.report["requests"];
  EXPECT_EQ(req["failed_status"].get<uint64_t>(), 6u);
  EXPECT_EQ(req["zone_action"].get<uint64_t>(), 3u);
  EXPECT_EQ(req["append"].get<uint64_t>(), 1u);
  EXPECT_EQ(req["count"].get<uint64_t>(), 4u);
  EXPECT_EQ(r.report["zoned"]["refused"].get<uint64_t>(), 4u);  // the namespace's own
  // Finishing the empty zone 1 programs nothing (no open program unit to pad).
  EXPECT_EQ(figure(r.report["zoned"]["pages_programmed"]), 1u);
}

// Overlapping work at a queue depth: appends of 1-4 pages to 4 zones, reads anywhere in them,
// resets now and then, writes and reads of db, in a closed loop; every read checked.
void soak(uint32_t qd, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<tb::HostRequest> reqs;
  for (int i = 0; i < 4000; ++i) {
    const uint64_t zone = rng() % 4, pages = 1 + rng() % 4, pick = rng() % 100;
    if (pick < 55)
      reqs.push_back(in(1, 0, tb::IoOp::Append, zone * kZoneBytes, pages * kPage));
    else if (pick < 85)
      reqs.push_back(
          in(1, 0, tb::IoOp::Read, zone * kZoneBytes + rng() % 125 * kPage, pages * kPage));
    else if (pick < 88)
      reqs.push_back(action(0, ZoneAction::Reset, zone));
    else
      reqs.push_back(in(0, 0, pick < 94 ? tb::IoOp::Write : tb::IoOp::Read, rng() % 2048 * kPage));
  }
  tb::VectorSource src(reqs, false, qd);
  const tb::RunResult r = tb::run_simulation(
      drive(nlohmann::json::object(), {{"host", {{"interface", "nvme"}, {"queue_depth", qd}}}}),
      src, tb::RunOptions{});
  const auto& rep = r.report;
  EXPECT_TRUE(r.data_intact) << qd << rep["scoreboard"].dump();
  EXPECT_GT(rep["scoreboard"]["pages_checked"].get<uint64_t>(), 3000u) << qd;
  EXPECT_GT(rep["requests"]["append"].get<uint64_t>(), 1000u) << qd;
  EXPECT_GT(rep["requests"]["zone_action"].get<uint64_t>(), 50u) << qd;
  EXPECT_GT(figure(rep["zoned"]["blocks_erased"]), 50u) << qd;
  // Every action timed, and z's own figures those of the drive's one zoned namespace.
  const auto& z = rep["namespaces"][1]["zoned"];
  EXPECT_EQ(rep["latency_us"]["zone_action"]["count"], rep["requests"]["zone_action"]) << qd;
  EXPECT_EQ(z["zone_action"], rep["requests"]["zone_action"]) << qd;
  EXPECT_EQ(z["append"], rep["requests"]["append"]) << qd;
  EXPECT_EQ(z["zones_reset"].get<double>(), rep["zoned"]["zones_reset"].get<double>()) << qd;
  EXPECT_EQ(z["open_zones"].get<double>(), rep["zoned"]["open_zones"].get<double>()) << qd;
  for (const char* figure : {"units_written", "pages_programmed", "units_padded", "blocks_erased"})
    EXPECT_EQ(z[figure].get<double>(), rep["zoned"][figure].get<double>()) << qd << figure;
  // Its wear: the erases over its band's 8 blocks on each of the 4 planes.
  EXPECT_DOUBLE_EQ(z["erase_counts"]["mean"].get<double>() * 8 * 4,
                   rep["zoned"]["blocks_erased"].get<double>())
      << qd;
}

TEST(ZoneCommands, TheScoreboardFollowsAppendsAndResetsAtQueueDepth32) { soak(32, 3); }
TEST(ZoneCommands, TheScoreboardFollowsAppendsAndResetsAtQueueDepth256) { soak(256, 4); }

// rw=zoneappend: the job's requests, worked out by hand. Two zones of 512 KiB, one written at a
// time in 256 KiB appends: zone 0 twice (full: zone 1 is next), zone 1 twice (full: zone 0 is
// next, and holds data, so it is reset first), zone 0 again.
TEST(ZoneCommands, AZoneAppendJobWrapsItsLogWithResets) {
  const std::vector<std::pair<std::string_view, std::string_view>> keys = {
      {"rw", "zoneappend"}, {"namespace", "z"}, {"size", "1m"}, {"bs", "256k"}, {"count", "7"}};
  tb::JobStream job(tb::parse_job(keys, tb::AddressSpace(drive().namespace_layout()),
                                  tb::JobSyntax{"workload: ", false}));
  EXPECT_EQ(tb::describe_job(job.spec()),
            "rw=zoneappend,mix=0,bs=262144,qd=1,count=7,seed=1,offset=0,size=1048576,namespace=z,"
            "zones=1");
  std::vector<std::string> got;
  tb::HostRequest r;
  while (job.next(r))
    got.push_back(
        std::string(tb::to_string(r.op)) + " " + std::to_string(r.offset_bytes / 1024) + "k " +
        std::to_string(r.length_bytes / 1024) + "k" +
        (r.op == tb::IoOp::ZoneManage ? " " + std::string(to_string(r.zone_action)) : ""));
  EXPECT_EQ(got, (std::vector<std::string>{"append 0k 256k", "append 0k 256k", "append 512k 256k",
                                           "append 512k 256k", "zone_manage 0k 0k reset",
                                           "append 0k 256k", "append 0k 256k"}));
}

std::string job_error(const std::string& spec) {
  try {
    tb::make_workload(spec, tb::AddressSpace(drive({{"lba_bytes", 512}}).namespace_layout()));
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(ZoneCommands, AZoneAppendJobsBrokenKeysAreNamed) {
  EXPECT_EQ(job_error("rw=zoneappend,count=5"),
            "workload: rw: zoneappend needs a zoned namespace (namespace=NAME); namespace db is "
            "conventional");
  EXPECT_EQ(job_error("rw=zoneappend,namespace=z,offset=4k,count=5"),
            "workload: offset: zoneappend spans whole zones: expected a multiple of the zone size, "
            "524288 bytes, got \"4k\"");
  EXPECT_EQ(job_error("rw=zoneappend,namespace=z,zones=9,count=5"),
            "workload: zones: expected 1 to 8 zones written side by side (the span's), got \"9\"");
  EXPECT_EQ(job_error("rw=zoneappend,namespace=z,bs=1m,count=5"),
            "workload: bs: larger than a zone's capacity, 524288 bytes, got \"1m\"");
  EXPECT_EQ(job_error("rw=randwrite,zones=2,count=5"),
            "workload: zones: applies only to rw=zoneappend");
  EXPECT_EQ(job_error("rw=zoneappend,namespace=z,bs=1536,count=5"), "accepted");  // 512 B blocks
  EXPECT_NE(job_error("rw=zoneappend,namespace=z,size=768k,count=5").find("workload: size: "),
            std::string::npos);
}

// A workload file: a zone append job with reads (3 zones side by side, 2 open at most, so the
// drive closes zones implicitly) beside random reads and writes of db, at queue depth 32 each on
// NVMe; every read checked, the log wrapped many times.
TEST(ZoneCommands, AZoneAppendJobRunsBesideRandomWrites) {
  const config::DriveConfig cfg =
      drive({{"max_open", 2}}, {{"host", {{"interface", "nvme"}, {"queue_depth", 64}}}});
  const std::string path = test::temp_dir("zoneappend") + "/w.json";
  std::ofstream(path) << R"({"seed": 8, "jobs": [
    {"name": "log", "rw": "zoneappend", "namespace": "z", "zones": 3, "bs": "16k", "mix": 0.3,
     "qd": 32, "count": 6000},
    {"name": "db", "rw": "randrw", "namespace": "db", "bs": "4k", "qd": 32, "count": 6000}]})";
  tb::JsonWorkload w(path, tb::AddressSpace(cfg.namespace_layout()));
  const tb::RunResult r = tb::run_simulation(cfg, w, tb::RunOptions{});
  const auto& rep = r.report;
  EXPECT_TRUE(r.data_intact) << rep["scoreboard"].dump();
  EXPECT_EQ(rep["requests"]["failed_status"].get<uint64_t>(), 0u);
  EXPECT_GT(rep["requests"]["zone_action"].get<uint64_t>(), 20u);
  EXPECT_EQ(rep["requests"]["zone_action"].get<uint64_t>(),
            rep["zoned"]["zone_actions"].get<uint64_t>());
  EXPECT_EQ(rep["namespaces"][1]["write"].get<uint64_t>(),
            rep["requests"]["append"].get<uint64_t>());
  EXPECT_GT(rep["scoreboard"]["pages_checked"].get<uint64_t>(), 8000u);
}

}  // namespace
}  // namespace ssd
