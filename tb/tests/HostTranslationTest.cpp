// A block workload on a zoned namespace through the host's zone translation layer
// (namespaces[].host_translation, tb/host/TranslatedNamespace.h): its config rules, the zone
// commands it refuses, a host request timed to its plan's last command, and the scoreboard
// checking every read at queue depths 32 and 256 while the layer's garbage collection copies and
// resets zones, with the layer's figures against the drive's.
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "report/Summary.h"
#include "tb/run/Simulation.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/JsonWorkload.h"
#include "tb/workload/VectorSource.h"

namespace ssd {
namespace {

constexpr uint64_t kMiB = 1 << 20;
constexpr uint64_t kPage = 4096;
// small_gc's zones (4 dies x 1 block of 32 pages of 4 KiB): 512 KiB; 8 of them, 3 spare.
constexpr uint64_t kZoneBytes = 512 * 1024;
constexpr uint64_t kCapacity = 5 * kZoneBytes;

// small_gc with db (8 MiB) and z (8 zones, 4 open), z translated; `patch` merged into z.
nlohmann::json drive_doc(const nlohmann::json& patch = nullptr) {
  nlohmann::json doc = config::to_json(test::shipped("small_gc"));
  nlohmann::json z = {{"name", "z"},
                      {"kind", "zoned"},
                      {"zones", {{"count", 8}, {"max_open", 4}, {"max_active", 4}}},
                      {"host_translation", {{"enabled", true}, {"chunk_bytes", kPage}}}};
  if (!patch.is_null()) z.merge_patch(patch);
  doc["namespaces"] = {{{"name", "db"}, {"size_bytes", 8 * kMiB}}, z};
  return doc;
}

config::DriveConfig drive(const nlohmann::json& patch = nullptr, uint32_t qd = 32) {
  nlohmann::json doc = drive_doc(patch);
  doc["host"]["interface"] = "nvme";
  doc["host"]["queue_depth"] = qd;
  return config::parse_drive_config(doc, "t.json");
}

tb::HostRequest on(uint32_t ns, tb::IoOp op, uint64_t offset, uint64_t length = kPage) {
  tb::HostRequest r = test::request(0, op, offset, length);
  r.ns = ns;
  return r;
}

tb::RunResult run(const config::DriveConfig& cfg, std::vector<tb::HostRequest> reqs,
                  uint32_t qd = 0) {
  tb::VectorSource src(std::move(reqs), false, qd);
  return tb::run_simulation(cfg, src, tb::RunOptions{});
}

uint64_t count(const nlohmann::json& j) { return j.get<uint64_t>(); }

TEST(HostTranslation, ConfigRulesNameTheirKeys) {
  const auto error = [](const nlohmann::json& patch) {
    return test::config_error(drive_doc(patch).dump());
  };
  EXPECT_NE(error({{"host_translation", {{"chunk_bytes", 6144}}}})
                .find("namespaces[1].host_translation.chunk_bytes: must be a power of two of "
                      "whole mapping units (4096 bytes) dividing the zone capacity (524288 "
                      "bytes), got 6144"),
            std::string::npos);
  EXPECT_NE(error({{"host_translation", {{"chunk_bytes", 2048}}}})
                .find("namespaces[1].host_translation.chunk_bytes"),
            std::string::npos);
  EXPECT_NE(error({{"host_translation", {{"spare_zones", 8}}}})
                .find("namespaces[1].host_translation.spare_zones: must be at least open_zones "
                      "+ gc_zones + free_zones (3) and fewer than the namespace's 8 zones, got 8"),
            std::string::npos);
  EXPECT_NE(error({{"host_translation", {{"spare_zones", 2}}}})
                .find("namespaces[1].host_translation.spare_zones"),
            std::string::npos);
  EXPECT_NE(error({{"host_translation", {{"open_zones", 2}}}})
                .find("namespaces[1].host_translation.spare_zones: must be at least open_zones "
                      "+ gc_zones + free_zones (4)"),
            std::string::npos);
  EXPECT_NE(error({{"zones", {{"max_open", 1}}}})
                .find("namespaces[1].host_translation.open_zones: the translation keeps 2 zones "
                      "open"),
            std::string::npos);
  EXPECT_NE(error({{"host_translation", {{"open_zones", 4}, {"spare_zones", 6}}}})
                .find("namespaces[1].host_translation.open_zones: the translation keeps 5 zones "
                      "open (open_zones for host chunks, gc_zones for its copies); the namespace "
                      "allows 4 open and 4 active"),
            std::string::npos);
  EXPECT_NE(error({{"host_translation", {{"gc_zones", 2}, {"free_zones", 2}, {"spare_zones", 4}}}})
                .find("namespaces[1].host_translation.spare_zones: must be at least open_zones "
                      "+ gc_zones + free_zones (5) and fewer than the namespace's 8 zones, got 4"),
            std::string::npos);
  EXPECT_NE(error({{"host_translation", {{"open_zones", 2}, {"gc_zones", 3}, {"spare_zones", 6}}}})
                .find("namespaces[1].host_translation.open_zones: the translation keeps 5 zones"),
            std::string::npos);
  for (const char* key : {"gc_zones", "free_zones"})
    EXPECT_NE(error({{"host_translation", {{key, 0}}}})
                  .find(std::string("namespaces[1].host_translation.") + key),
              std::string::npos)
        << key;
  nlohmann::json doc = drive_doc();
  doc["namespaces"][0]["host_translation"] = {{"enabled", true}};
  EXPECT_NE(test::config_error(doc.dump())
                .find("namespaces[0].host_translation.enabled: only a zoned namespace (kind "
                      "zoned) is translated"),
            std::string::npos);
}

// The host sees the zones but the spare ones, each to its capacity.
TEST(HostTranslation, TheHostSeesTheZonesButTheSpareOnes) {
  const config::DriveConfig cfg = drive();
  EXPECT_EQ(cfg.namespace_layout()[1].host_bytes(), kCapacity);
  EXPECT_EQ(cfg.namespace_layout()[1].size_bytes, 8 * kZoneBytes);
}

TEST(HostTranslation, ZoneCommandsAreTheLayersToSend) {
  tb::HostRequest append = on(1, tb::IoOp::Append, 0);
  try {
    run(drive(), {append});
    FAIL() << "an append to a translated namespace ran";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("host_translation"), std::string::npos) << e.what();
  }
}

// One write, then its read, one at a time: each a single zone command, so the host request's
// latency is exactly the drive command's.
TEST(HostTranslation, ARequestIsTimedToItsPlansLastCommand) {
  const tb::RunResult r = run(
      drive(),
      {on(1, tb::IoOp::Write, 8 * kPage, 2 * kPage), on(1, tb::IoOp::Read, 8 * kPage, 2 * kPage)},
      1);
  const auto& rep = r.report;
  ASSERT_TRUE(r.data_intact) << rep["scoreboard"].dump();
  const auto& t = rep["namespaces"][1]["zone_translation"];
  EXPECT_EQ(count(t["requests"]), 2u);
  EXPECT_EQ(count(rep["requests"]["count"]), 2u);
  EXPECT_EQ(count(t["bytes_sent"]), 2 * kPage);
  EXPECT_EQ(count(t["host_bytes_written"]), 2 * kPage);
  EXPECT_EQ(t["waf_host"].get<double>(), 1.0);
  EXPECT_EQ(count(rep["scoreboard"]["pages_checked"]), 2u);
  for (const char* kind : {"read", "write"})
    EXPECT_EQ(t["latency_us"][kind]["mean"].get<double>(),
              rep["latency_us"][kind]["mean"].get<double>())
        << kind;
  const std::string summary = report::summarize(rep);
  EXPECT_NE(summary.find("ns z       through the host's zone translation: 2 requests (read 1, "
                         "write 1, trim 0), 0 zones reset\n    WAF      host side 1, end to end 1\n"
                         "    host read  latency us: mean "),
            std::string::npos)
      << summary;
}

// Two host writes sent together land in the same open zone: the second's command goes only once
// the first's completed (one write a zone in flight, as Linux's zone write plugging keeps), so
// the second request takes both commands' times.
TEST(HostTranslation, AZonesWritesGoOneAtATime) {
  const tb::RunResult r =
      run(drive(), {on(1, tb::IoOp::Write, 0), on(1, tb::IoOp::Write, 40 * kPage)}, 2);
  const auto& rep = r.report;
  ASSERT_TRUE(r.data_intact) << rep["scoreboard"].dump();
  const auto& drive_writes = rep["latency_us"]["write"];
  const auto& host_writes = rep["namespaces"][1]["zone_translation"]["latency_us"]["write"];
  ASSERT_EQ(count(drive_writes["count"]), 2u);
  EXPECT_NEAR(host_writes["max"].get<double>(), 2 * drive_writes["mean"].get<double>(), 1e-6);
}

// With two zones open for host chunks, host writes take them in turn, and writes to the two go
// side by side (each zone's one at a time), so every request takes just its own command's time.
TEST(HostTranslation, WritesToZonesOpenSideBySideGoTogether) {
  std::vector<tb::HostRequest> reqs = {on(1, tb::IoOp::Write, 0), on(1, tb::IoOp::Write, kPage),
                                       on(1, tb::IoOp::Write, 2 * kPage),
                                       on(1, tb::IoOp::Write, 3 * kPage)};
  for (std::size_t i = 0; i < reqs.size(); ++i)
    reqs[i].arrival = sc_core::sc_time(i < 2 ? 2000.0 * double(i) : 4000.0, sc_core::SC_US);
  tb::VectorSource src(reqs);
  const tb::RunResult r = tb::run_simulation(
      drive({{"host_translation", {{"open_zones", 2}, {"spare_zones", 4}}}}), src, {});
  const auto& rep = r.report;
  ASSERT_TRUE(r.data_intact) << rep["scoreboard"].dump();
  const auto& t = rep["namespaces"][1]["zone_translation"];
  EXPECT_EQ(count(t["open_zones"]), 2u);
  EXPECT_EQ(count(t["capacity_bytes"]), 4 * kZoneBytes);
  EXPECT_EQ(count(rep["namespaces"][1]["zoned"]["open_zones"]), 2u);
  EXPECT_EQ(t["latency_us"]["write"]["max"], rep["latency_us"]["write"]["max"]);
  EXPECT_EQ(t["latency_us"]["write"]["mean"], rep["latency_us"]["write"]["mean"]);
}

// Two jobs, one on each namespace: the translated one's flow counts its host requests (their
// latency the layer's figures), the other's its commands; the drive's write amplification end
// to end counts the layer's copies against what the host's requests wrote.
TEST(HostTranslation, AFlowOnATranslatedNamespaceCountsItsRequests) {
  const config::DriveConfig cfg = drive();
  const std::string dir = test::temp_dir("translated-flows");
  {
    std::ofstream f(dir + "/w.json");
    f << R"({"seed": 3, "jobs": [
      {"name": "zt", "namespace": "z", "rw": "randrw", "mix": 0.3, "qd": 16, "count": 3000},
      {"name": "dbt", "namespace": "db", "rw": "randwrite", "qd": 4, "count": 500}]})";
  }
  tb::JsonWorkload source(dir + "/w.json", tb::AddressSpace(cfg.namespace_layout()));
  const tb::RunResult r = tb::run_simulation(cfg, source, tb::RunOptions{});
  const auto& rep = r.report;
  ASSERT_TRUE(r.data_intact) << rep["scoreboard"].dump();
  const auto& t = rep["namespaces"][1]["zone_translation"];
  ASSERT_GT(count(t["zones_reset"]), 0u);
  const auto& zt = rep["flows"][0];
  ASSERT_EQ(zt["name"], "zt");
  EXPECT_EQ(count(zt["requests"]), 3000u);
  EXPECT_EQ(count(zt["requests"]), count(t["requests"]));
  EXPECT_EQ(count(zt["write"]), count(t["write"]));
  for (const char* kind : {"read", "write"})
    for (const char* stat : {"count", "mean", "p99", "max"})
      EXPECT_EQ(zt["latency_us"][kind][stat], t["latency_us"][kind][stat]) << kind << stat;
  EXPECT_EQ(count(rep["flows"][1]["write"]), 500u);
  // The drive took the layer's commands: more than the host's requests.
  EXPECT_GT(count(rep["requests"]["count"]), 3500u);
  const double host_written = double(count(rep["requests"]["write_bytes"])) -
                              double(count(t["bytes_sent"])) +
                              double(count(t["host_bytes_written"]));
  EXPECT_DOUBLE_EQ(rep["waf_end_to_end"].get<double>(),
                   double(count(rep["flash_ops"]["program"])) * double(kPage) / host_written);
  EXPECT_GT(rep["waf_end_to_end"].get<double>(), rep["waf"].get<double>());
  EXPECT_NE(report::summarize(rep).find(
                ", WAF " + std::to_string(rep["waf"].get<double>()) + " (end to end " +
                std::to_string(rep["waf_end_to_end"].get<double>()) + ")\n"),
            std::string::npos);
}

// Seeded random 4-16 KiB writes (60 %), reads (30 %) and trims of what z's host sees (2.5 MiB
// with one zone open for host chunks, one for copies and one kept free; the fewer zones those
// leave, the less), and db's writes and reads, at queue depth `qd`: enough to make the layer
// collect throughout.
void soak(uint32_t qd, uint64_t seed, uint32_t open_zones = 1, uint32_t gc_zones = 1,
          uint32_t free_zones = 1) {
  const uint32_t spare = open_zones + gc_zones + free_zones;
  const uint64_t kCapacity = (8 - spare) * kZoneBytes;
  std::mt19937_64 rng(seed);
  std::vector<tb::HostRequest> reqs;
  uint64_t z_writes = 0, z_write_bytes = 0, z_requests = 0;
  for (int i = 0; i < 3000; ++i) {
    const uint64_t pages = 1 + rng() % 4, pick = rng() % 100;
    const uint64_t offset = rng() % (kCapacity / kPage - pages + 1) * kPage;
    if (pick >= 92) {
      reqs.push_back(on(0, pick < 96 ? tb::IoOp::Write : tb::IoOp::Read, rng() % 2048 * kPage));
      continue;
    }
    const tb::IoOp op = pick < 60 ? tb::IoOp::Write : pick < 88 ? tb::IoOp::Read : tb::IoOp::Trim;
    reqs.push_back(on(1, op, offset, pages * kPage));
    ++z_requests;
    if (op == tb::IoOp::Write) {
      ++z_writes;
      z_write_bytes += pages * kPage;
    }
  }
  const tb::RunResult r = run(drive({{"host_translation",
                                      {{"open_zones", open_zones},
                                       {"gc_zones", gc_zones},
                                       {"free_zones", free_zones},
                                       {"spare_zones", spare}}}},
                                    qd),
                              reqs, qd);
  const auto& rep = r.report;
  EXPECT_TRUE(r.data_intact) << qd << rep["scoreboard"].dump();
  EXPECT_GT(count(rep["scoreboard"]["pages_checked"]), 2000u) << qd;
  const auto& n = rep["namespaces"][1];
  const auto& t = n["zone_translation"];
  EXPECT_EQ(count(t["requests"]), z_requests) << qd;
  EXPECT_EQ(count(t["write"]), z_writes) << qd;
  EXPECT_EQ(count(t["latency_us"]["write"]["count"]), z_writes) << qd;
  EXPECT_EQ(count(t["host_bytes_written"]), z_write_bytes) << qd;
  EXPECT_EQ(count(t["failed"]), 0u) << qd;
  EXPECT_EQ(count(n["zoned"]["failed_status"]), 0u) << qd;
  // What the layer sent is what the drive's namespace took; its resets are the zone actions.
  EXPECT_EQ(count(t["bytes_sent"]), count(n["write_bytes"])) << qd;
  EXPECT_GT(count(t["zones_reset"]), 10u) << qd;
  EXPECT_EQ(count(t["zones_reset"]), count(n["zoned"]["zone_action"])) << qd;
  EXPECT_EQ(count(t["zones_reset"]), uint64_t(n["zoned"]["zones_reset"].get<double>())) << qd;
  EXPECT_EQ(count(t["bytes_sent"]), z_write_bytes + count(t["gc_bytes_copied"])) << qd;
  EXPECT_DOUBLE_EQ(t["waf_host"].get<double>(), double(count(t["bytes_sent"])) / z_write_bytes);
  EXPECT_DOUBLE_EQ(t["waf_end_to_end"].get<double>(),
                   double(count(n["flash_bytes_programmed"])) / z_write_bytes);
  EXPECT_GT(t["waf_host"].get<double>(), 1.2) << qd;
}

TEST(HostTranslation, TheScoreboardChecksEveryReadThroughCollectionAtQueueDepth32) { soak(32, 5); }
TEST(HostTranslation, TheScoreboardChecksEveryReadThroughCollectionAtQueueDepth256) {
  soak(256, 6);
}
TEST(HostTranslation, TheScoreboardChecksEveryReadWithThreeZonesOpenForHostChunks) {
  soak(256, 7, 3);
}
TEST(HostTranslation, TheScoreboardChecksEveryReadWithTwoZonesForCopiesAndTwoKeptFree) {
  soak(256, 8, 1, 2, 2);
}

}  // namespace
}  // namespace ssd
