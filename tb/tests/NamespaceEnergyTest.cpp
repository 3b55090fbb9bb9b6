// Energy per namespace (report.json namespaces[].flash_energy_j, docs/report.md#namespaces): each
// flash operation's energy counts for the namespace whose data it moves, derived by hand from the
// config on small_gc (one page type, one plane, 4 KiB pages: every read, program and erase of it
// costs the same), and the namespaces' sums against the operations the drive did.
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "config/DriveConfig.h"
#include "tb/run/Simulation.h"
#include "tb/tests/ExactEnergy.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"

namespace ssd {
namespace {

using test::expect_rel;

constexpr uint64_t kMiB = 1 << 20;
constexpr uint64_t kPage = 4096;

config::DriveConfig with(const nlohmann::json& namespaces) {
  nlohmann::json doc = config::to_json(test::shipped("small_gc"));
  doc["namespaces"] = namespaces;
  return config::parse_drive_config(doc, "t.json");
}

// db (12 MiB), logs (8 MiB).
config::DriveConfig two() {
  return with(
      {{{"name", "db"}, {"size_bytes", 12 * kMiB}}, {{"name", "logs"}, {"size_bytes", 8 * kMiB}}});
}

tb::HostRequest in(uint32_t ns, double at_us, tb::IoOp op, uint64_t offset) {
  tb::HostRequest r = test::request(at_us, op, offset, kPage);
  r.ns = ns;
  return r;
}

// One operation's energy at the die and on the bus: its array time at its current, the page's
// transfer at the die's transfer current and the bus's.
struct OpEnergy {
  explicit OpEnergy(const config::FlashConfig& f) {
    const double xfer = kPage * f.bus_ns_per_byte * 1e-9;
    const double transfer = (f.i_transfer_ma * f.voltage_v + f.i_bus_ma * f.bus_voltage_v) * 1e-3;
    read = f.i_read_ma * 1e-3 * f.voltage_v * f.t_read_us * 1e-6 + transfer * xfer;
    program = f.i_prog_ma * 1e-3 * f.voltage_v * f.t_prog_us * 1e-6 + transfer * xfer;
    erase = f.i_erase_ma * 1e-3 * f.voltage_v * f.t_erase_us * 1e-6;
  }
  double read, program, erase;
};

double j(const nlohmann::ordered_json& energy, const char* kind) {
  return energy[kind].get<double>();
}

// The report of `reqs` on `cfg`, every read checked by the scoreboard.
nlohmann::ordered_json run(const config::DriveConfig& cfg, const std::vector<tb::HostRequest>& reqs,
                           bool precondition = false) {
  tb::VectorSource src(reqs);
  tb::RunOptions o;
  o.precondition = precondition;
  tb::RunResult r = tb::run_simulation(cfg, src, o);
  EXPECT_TRUE(r.data_intact) << r.report["scoreboard"].dump();
  return std::move(r.report);
}

// Namespace `i`'s flash energy.
const nlohmann::ordered_json& energy_of(const nlohmann::ordered_json& rep, std::size_t i) {
  return rep["namespaces"][i]["flash_energy_j"];
}

// 16 pages of db and 32 of logs written, then 8 of db's and 4 of logs' read back, each after the
// last has ended: every operation counts for the namespace of its page, nothing for none.
TEST(NamespaceEnergy, EachOperationCountsForTheNamespaceOfItsData) {
  const config::DriveConfig cfg = two();
  std::vector<tb::HostRequest> reqs;
  double t = 0;
  for (uint64_t p = 0; p < 16; ++p) reqs.push_back(in(0, t += 1000, tb::IoOp::Write, p * kPage));
  for (uint64_t p = 0; p < 32; ++p) reqs.push_back(in(1, t += 1000, tb::IoOp::Write, p * kPage));
  for (uint64_t p = 0; p < 8; ++p) reqs.push_back(in(0, t += 1000, tb::IoOp::Read, p * kPage));
  for (uint64_t p = 0; p < 4; ++p) reqs.push_back(in(1, t += 1000, tb::IoOp::Read, p * kPage));
  const nlohmann::ordered_json rep = run(cfg, reqs);
  const OpEnergy e(cfg.flash);
  // Namespace, kind, pages x each.
  for (const auto& [ns, kind, want] :
       {std::tuple{0, "program", 16 * e.program}, std::tuple{0, "read", 8 * e.read},
        std::tuple{0, "total", 16 * e.program + 8 * e.read},
        std::tuple{1, "program", 32 * e.program}, std::tuple{1, "read", 4 * e.read}})
    expect_rel(j(energy_of(rep, std::size_t(ns)), kind), want);
  EXPECT_EQ(j(energy_of(rep, 0), "erase"), 0.0);
  EXPECT_EQ(j(rep["flash_energy_no_namespace_j"], "total"), 0.0);
}

// Random writes into db on a preconditioned drive: GC copies db's data and logs' (which the host
// never writes) and erases blocks holding both. Every operation counts once, for the namespaces
// whose data it moved, so the namespaces' sums are the drive's operations; logs pays for the
// copies of its data and its share of the erased blocks.
TEST(NamespaceEnergy, CopiesAndErasesCountForTheDataTheyMove) {
  const config::DriveConfig cfg = two();
  std::mt19937_64 rng(11);
  std::vector<tb::HostRequest> reqs;
  double t = 0;
  for (int i = 0; i < 6000; ++i)
    reqs.push_back(in(0, t += 20, tb::IoOp::Write, rng() % (12 * kMiB / kPage) * kPage));
  const nlohmann::ordered_json rep = run(cfg, reqs, true);
  ASSERT_GT(rep["gc"]["victims"].get<uint64_t>(), 0u);
  const OpEnergy e(cfg.flash);
  const auto& db = energy_of(rep, 0);
  const auto& logs = energy_of(rep, 1);
  const auto& none = rep["flash_energy_no_namespace_j"];
  const auto& ops = rep["flash_ops"];
  for (const auto& [kind, each, count] :
       {std::tuple{"read", e.read, ops["read"].get<double>()},
        std::tuple{"program", e.program, ops["program"].get<double>()},
        std::tuple{"erase", e.erase, ops["erase"].get<double>()}})
    expect_rel(j(db, kind) + j(logs, kind) + j(none, kind), count * each);
  // Every programmed page holds a namespace's data.
  EXPECT_EQ(j(none, "program"), 0.0);
  // logs' data: its copies' reads and programs exactly, by the bytes GC programmed of it.
  const double logs_pages = rep["namespaces"][1]["flash_bytes_programmed"].get<double>() / kPage;
  ASSERT_GT(logs_pages, 0.0);
  expect_rel(j(logs, "program"), logs_pages * e.program);
  expect_rel(j(logs, "read"), logs_pages * e.read);
  EXPECT_GT(j(logs, "erase"), 0.0);
  EXPECT_GT(j(db, "erase"), j(logs, "erase"));
}

// A zone written whole (4 blocks, one a die) and reset: its programs and the reset's 4 erases are
// the zoned namespace's; db's writes are db's, and its blocks are never erased.
TEST(NamespaceEnergy, AZoneResetsEraseIsItsNamespaces) {
  const config::DriveConfig cfg =
      with({{{"name", "db"}, {"size_bytes", 8 * kMiB}},
            {{"name", "z"}, {"kind", "zoned"}, {"zones", {{"count", 8}}}}});
  std::vector<tb::HostRequest> reqs;
  double t = 0;
  for (uint64_t p = 0; p < 128; ++p) {
    reqs.push_back(in(1, t += 50, tb::IoOp::Write, p * kPage));
    if (p % 8 == 0) reqs.push_back(in(0, t += 50, tb::IoOp::Write, p * kPage));
  }
  tb::HostRequest reset = in(1, t += 100000, tb::IoOp::ZoneManage, 0);
  reset.length_bytes = 0;
  reset.zone_action = fw::zns::ZoneAction::Reset;
  reqs.push_back(reset);
  const nlohmann::ordered_json rep = run(cfg, reqs);
  ASSERT_EQ(rep["zoned"]["blocks_erased"].get<double>(), 4.0);
  ASSERT_EQ(rep["flash_ops"]["erase"].get<uint64_t>(), 4u);
  const OpEnergy e(cfg.flash);
  const auto& db = energy_of(rep, 0);
  const auto& z = energy_of(rep, 1);
  expect_rel(j(z, "program"), 128 * e.program);
  expect_rel(j(z, "erase"), 4 * e.erase);
  expect_rel(j(db, "program"), 16 * e.program);
  EXPECT_EQ(j(db, "erase"), 0.0);
  EXPECT_EQ(j(rep["flash_energy_no_namespace_j"], "total"), 0.0);
}

}  // namespace
}  // namespace ssd
