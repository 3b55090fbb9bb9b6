// Report Zones from the host (NVMe ZNS Zone Management Receive): the firmware's answer on a
// known state (descriptors, Number of Zones, filters, partial reports, refusals), the host's
// check of every answer against the zones its completed commands left (a wrong one is a
// mismatch), and a zone append job reporting its zones through the whole drive at queue depth 32.
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "config/DriveConfig.h"
#include "firmware/Firmware.h"
#include "ip/Scoreboard.h"
#include "tb/host/HostZones.h"
#include "tb/run/Simulation.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/JsonWorkload.h"

namespace ssd {
namespace {

using fw::zns::ZoneReportFilter;
using fw::zns::ZoneState;
using fw::zns::ZoneStatus;

constexpr uint64_t kMiB = 1 << 20;
constexpr uint64_t kBlock = 4096;            // the zoned namespace's logical block
constexpr uint64_t kZoneBytes = 512 * 1024;  // 128 blocks: 4 blocks of 32 pages
constexpr uint64_t kEntry = fw::zns::kZoneReportEntryBytes;

// small_gc with db (8 MiB) and z: 8 zones over all 4 dies.
config::DriveConfig drive() {
  nlohmann::json doc = config::to_json(test::shipped("small_gc"));
  doc["namespaces"] = {{{"name", "db"}, {"size_bytes", 8 * kMiB}},
                       {{"name", "z"}, {"kind", "zoned"}, {"zones", {{"count", 8}}}}};
  return config::parse_drive_config(doc, "t.json");
}

// The firmware on a FakeHal; offsets in z's bytes.
struct Zoned {
  Zoned() : cfg(drive()), hal(cfg.flash), firmware(cfg, hal) {}
  fw::Completion run(fw::CommandOp op, uint64_t offset, uint64_t length) {
    fw::HostCommand cmd{op, z_first + offset, length, ++version};
    return execute(cmd);
  }
  fw::Completion execute(const fw::HostCommand& cmd) {
    fw::Completion done = firmware.execute(cmd, nullptr);
    hal.done(done);
    return done;
  }
  fw::Completion report(uint64_t offset, uint64_t buffer,
                        ZoneReportFilter filter = ZoneReportFilter::All, bool partial = false) {
    fw::HostCommand cmd{fw::CommandOp::ZoneReport, z_first + offset, buffer, 0};
    cmd.report_filter = filter;
    cmd.partial_report = partial;
    return execute(cmd);
  }
  config::DriveConfig cfg;
  test::FakeHal hal;
  fw::Firmware firmware;
  uint64_t z_first = cfg.namespace_layout()[1].first_byte;
  uint64_t version = 0;
};

// "state@write pointer" of each descriptor, in z's blocks from the zone's start.
std::vector<std::string> listed(const fw::Completion& done) {
  std::vector<std::string> out;
  for (const fw::zns::ZoneDescriptor& d : done.zones)
    out.push_back(std::to_string(d.start / (kZoneBytes / kBlock)) + " " +
                  fw::zns::to_string(d.state) + "@" + std::to_string(d.write_pointer - d.start));
  return out;
}

// Zone 0 written 10 blocks, zone 1 to its capacity, zone 2 opened explicitly.
TEST(ZoneReport, ListsEachZoneAsItIs) {
  Zoned d;
  d.run(fw::CommandOp::Write, 0, 10 * kBlock);
  for (uint64_t b = 0; b < 128; b += 32)
    d.run(fw::CommandOp::Write, kZoneBytes + b * kBlock, 32 * kBlock);
  fw::HostCommand open{fw::CommandOp::ZoneManage, d.z_first + 2 * kZoneBytes, 0, 0};
  open.zone_action = fw::zns::ZoneAction::Open;
  ASSERT_FALSE(d.execute(open).failed);

  const fw::Completion all = d.report(0, 9 * kEntry);
  EXPECT_FALSE(all.failed);
  EXPECT_EQ(all.zones_reported, 8u);
  const std::string opened = fw::zns::to_string(ZoneState::ImplicitlyOpened);
  const std::string empty = fw::zns::to_string(ZoneState::Empty);
  EXPECT_EQ(
      listed(all),
      (std::vector<std::string>{
          "0 " + opened + "@10", "1 " + std::string(to_string(ZoneState::Full)) + "@128",
          "2 " + std::string(to_string(ZoneState::ExplicitlyOpened)) + "@0", "3 " + empty + "@0",
          "4 " + empty + "@0", "5 " + empty + "@0", "6 " + empty + "@0", "7 " + empty + "@0"}));
  // Only the full ones; the buffer bounds what is listed, not the Number of Zones.
  EXPECT_EQ(listed(d.report(0, 9 * kEntry, ZoneReportFilter::Full)).size(), 1u);
  const fw::Completion empties = d.report(0, 3 * kEntry, ZoneReportFilter::Empty);
  EXPECT_EQ(empties.zones_reported, 5u);
  EXPECT_EQ(listed(empties), (std::vector<std::string>{"3 " + empty + "@0", "4 " + empty + "@0"}));
  // From the zone holding the offset on; partial: the Number of Zones counts only those listed.
  const fw::Completion from1 = d.report(kZoneBytes + 8 * kBlock, 3 * kEntry);
  EXPECT_EQ(from1.zones_reported, 7u);
  EXPECT_EQ(listed(from1).front().substr(0, 2), "1 ");
  EXPECT_EQ(
      d.report(kZoneBytes + 8 * kBlock, 3 * kEntry, ZoneReportFilter::All, true).zones_reported,
      2u);
  // A header's buffer lists none and still counts them.
  const fw::Completion header = d.report(0, kEntry);
  EXPECT_FALSE(header.failed);
  EXPECT_EQ(header.zones_reported, 8u);
  EXPECT_TRUE(header.zones.empty());
}

TEST(ZoneReport, RefusalsCarryTheirNvmeStatus) {
  Zoned d;
  const auto status = [](const fw::Completion& done) {
    EXPECT_TRUE(done.failed);
    EXPECT_TRUE(done.zones.empty());
    return ZoneStatus(done.status);
  };
  EXPECT_EQ(status(d.report(0, kEntry - 1)), ZoneStatus::InvalidField);  // not even a header
  EXPECT_EQ(status(d.report(0, 9 * kEntry, ZoneReportFilter(8))), ZoneStatus::InvalidField);
  fw::HostCommand conventional{fw::CommandOp::ZoneReport, 0, 9 * kEntry, 0};
  EXPECT_EQ(status(d.execute(conventional)), ZoneStatus::InvalidOpcode);
}

// The host's check: zone 0 written 4 blocks; an answer putting its write pointer at 3, one
// listing zones out of order and one missing a zone are each a mismatch; the right one is not.
TEST(ZoneReport, AWrongAnswerIsAMismatch) {
  const config::DriveConfig cfg = drive();
  const std::vector<config::NamespaceRange> layout = cfg.namespace_layout();
  ip::Scoreboard board;
  tb::HostZones zones(layout, kBlock, board);
  std::vector<ip::Scoreboard::Watch> watches;
  tb::HostRequest w = test::request(0, tb::IoOp::Write, 0, 4 * kBlock);
  w.ns = 1;
  fw::HostCommand write{fw::CommandOp::Write, layout[1].first_byte, 4 * kBlock, 1};
  zones.issued(w, write, watches);
  model::HostCommandExt done;
  done.cmd = write;
  done.ns = 1;
  zones.completed(done, watches, nullptr);
  ASSERT_EQ(board.mismatches(), 0u);

  const auto answer = [&](std::vector<fw::zns::ZoneDescriptor> listed, uint64_t number) {
    tb::HostRequest r = test::request(0, tb::IoOp::ZoneReport, 0, 3 * kEntry);
    r.ns = 1;
    fw::HostCommand cmd{fw::CommandOp::ZoneReport, layout[1].first_byte, 3 * kEntry, 0};
    std::vector<ip::Scoreboard::Watch> none;
    zones.issued(r, cmd, none);
    model::HostCommandExt ext;
    ext.cmd = cmd;
    ext.ns = 1;
    ext.zones = std::move(listed);
    ext.zones_reported = number;
    zones.completed(ext, none, nullptr);
    return board.mismatches();
  };
  const fw::zns::ZoneDescriptor z0{ZoneState::ImplicitlyOpened, 0, 4},
      z1{ZoneState::Empty, 128, 128};
  EXPECT_EQ(answer({z0, z1}, 8), 0u);
  EXPECT_EQ(answer({{ZoneState::ImplicitlyOpened, 0, 3}, z1}, 8), 1u);
  EXPECT_EQ(answer({z1, z0}, 8), 2u);
  EXPECT_EQ(answer({z0}, 8), 3u);
  EXPECT_EQ(answer({z0, z1}, 7), 4u);
  EXPECT_NE(board.messages().front().find("zone report: zone 0"), std::string::npos)
      << board.messages().front();
}

// A zone append job reporting its 4 zones every 50 requests beside random writes of db, at
// queue depth 32 each: every report matches the host's zones, and each is timed.
TEST(ZoneReport, AJobsReportsMatchTheHostsZones) {
  const config::DriveConfig cfg = drive();
  const nlohmann::json jobs = {
      {"jobs",
       {{{"name", "log"},
         {"namespace", "z"},
         {"rw", "zoneappend"},
         {"size", "2m"},
         {"bs", "8k"},
         {"qd", 32},
         {"count", 3000},
         {"zones", 2},
         {"zone_report_every", 50},
         {"mix", 0.2}},
        {{"name", "db"}, {"namespace", "db"}, {"rw", "randwrite"}, {"qd", 32}, {"count", 2000}}}}};
  const std::string dir = test::temp_dir("report");
  std::ofstream(dir + "/w.json") << jobs.dump();
  tb::JsonWorkload source(dir + "/w.json", tb::AddressSpace(cfg.namespace_layout()));
  tb::RunOptions o;
  o.out_dir = dir;
  o.request_log = "requests.csv";
  const tb::RunResult r = tb::run_simulation(cfg, source, o);
  const auto& rep = r.report;
  EXPECT_TRUE(r.data_intact) << rep["scoreboard"].dump();
  EXPECT_EQ(rep["requests"]["zone_report"].get<uint64_t>(), 59u);  // after 50, 100, ..., 2950
  EXPECT_EQ(rep["latency_us"]["zone_report"]["count"].get<uint64_t>(), 59u);
  EXPECT_EQ(rep["namespaces"][1]["zoned"]["zone_report"].get<uint64_t>(), 59u);
  EXPECT_EQ(rep["zoned"]["zone_reports"].get<uint64_t>(), 59u);
  EXPECT_GT(rep["latency_us"]["zone_report"]["mean"].get<double>(), 0.0);
  // The request log names them.
  const std::string log = test::slurp(dir + "/requests.csv");
  uint64_t logged = 0;
  for (std::size_t at = log.find(",zone_report,"); at != std::string::npos;
       at = log.find(",zone_report,", at + 1))
    ++logged;
  EXPECT_EQ(logged, 59u);
}

}  // namespace
}  // namespace ssd
