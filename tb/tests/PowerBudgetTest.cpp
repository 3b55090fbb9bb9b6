// The peak-power budget (docs/thermal.md#peak-power-budget): its worst-case floor from the
// config by hand, a cap that lets exactly k dies work at once (counted in the VCD), the
// recorded drive power within the cap over a saturating workload with IOPS as the arithmetic
// predicts, a cap too small for one operation, and the monitor's own assertion.
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "common/Errors.h"
#include "model/power/EnergyMonitor.h"
#include "tb/run/Simulation.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"

namespace ssd {
namespace {

using tb::IoOp;

// The X25-M class drive, its DRAM as configured (no part chosen from the table).
config::DriveConfig drive() {
  config::DriveConfig cfg = test::shipped("default");
  cfg.ftl.size_dram_from_table = false;
  return cfg;
}

// Everything the budget does not gate at its highest state, every die idle, in W (by hand), at
// the voltages the currents are referred to (the X25-M's NAND currents are at its 5 V rail).
double floor_w(const config::DriveConfig& drive) {
  const config::DriveConfig c = config::referred_to_rails(drive);
  return c.power.rails[0].voltage_v * c.power.rails[0].i_baseline_ma * 1e-3 +
         c.host.voltage_v * std::max(c.host.i_transfer_ma, c.host.i_idle_ma) * 1e-3 +
         c.controller.voltage_v * c.controller.i_active_ma * 1e-3 +
         c.dram.voltage_v * c.dram.i_active_ma * 1e-3 +
         c.flash.channels * c.flash.bus_voltage_v * c.flash.i_bus_ma * 1e-3 +
         c.flash.dies() * c.flash.voltage_v * c.flash.i_idle_ma * 1e-3;
}

// What a program adds to its die's idle power (it also moves its data in, at the same current).
double program_w(const config::DriveConfig& drive) {
  const config::DriveConfig c = config::referred_to_rails(drive);
  return c.flash.voltage_v *
         (std::max(c.flash.i_prog_ma, c.flash.i_transfer_ma) - c.flash.i_idle_ma) * 1e-3;
}

// The most dies drawing more than idle current at one time in a VCD (signals chN.wWdD_ma).
int most_dies_active(const std::string& vcd_path, double idle_ma) {
  std::ifstream in(vcd_path);
  std::string line, scope;
  std::map<std::string, double> die_ma;  // by VCD id
  int most = 0;
  const auto count = [&] {
    int n = 0;
    for (const auto& [id, ma] : die_ma) n += ma > idle_ma;
    most = std::max(most, n);
  };
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string w;
    words >> w;
    if (w == "$scope") {
      words >> w >> scope;
    } else if (w == "$upscope") {
      scope.clear();
    } else if (w == "$var") {
      std::string type, size, id, name;
      words >> size >> size >> id >> name;
      if (scope.rfind("ch", 0) == 0 && name[0] == 'w') die_ma[id] = 0;
    } else if (w[0] == '#') {
      count();  // the levels held up to this time
    } else if (w[0] == 'r') {
      std::string id;
      words >> id;
      if (auto it = die_ma.find(id); it != die_ma.end()) it->second = std::stod(w.substr(1));
    }
  }
  return most;
}

// 20 writes at t = 0 to 20 consecutive pages: one per die (channel_first).
nlohmann::ordered_json twenty_writes(const config::DriveConfig& cfg, const std::string& out) {
  std::vector<tb::HostRequest> reqs;
  for (uint64_t i = 0; i < 20; ++i) reqs.push_back(test::request(0, IoOp::Write, i * 4096, 4096));
  tb::VectorSource src(std::move(reqs));
  tb::RunOptions opts;
  opts.out_dir = out;
  opts.waveform.vcd = true;
  return tb::run_simulation(cfg, src, opts).report;
}

TEST(PowerBudget, FloorIsTheWorstCaseOfWhatItDoesNotGate) {
  config::DriveConfig cfg = drive();
  cfg.power_budget.enabled = true;
  cfg.power_budget.max_power_w = 2.0;
  const auto rep = twenty_writes(cfg, test::temp_dir("out"));
  EXPECT_NEAR(rep["power_budget"]["floor_w"].get<double>(), floor_w(cfg), 1e-9);
  EXPECT_NEAR(rep["power_budget"]["cap_w"].get<double>(), 2.0, 1e-12);
  EXPECT_NEAR(rep["power_budget"]["cap_current_ma"].get<double>(), 2.0 / 5.0 * 1e3, 1e-9);
}

// Room for k programs and most of another: exactly k dies work at once (one kernel per test).
void exactly_k_dies(int k) {
  config::DriveConfig cfg = drive();
  cfg.power_budget.enabled = true;
  cfg.power_budget.max_power_w = floor_w(cfg) + (k + 0.9) * program_w(cfg);
  const std::string out = test::temp_dir("out");
  const auto rep = twenty_writes(cfg, out);
  EXPECT_EQ(most_dies_active(out + "/current.vcd", cfg.flash.i_idle_ma), k);
  EXPECT_EQ(rep["power_budget"]["operations"].get<uint64_t>(), 20u);
  EXPECT_GT(rep["power_budget"]["operations_waited"].get<uint64_t>(), 0u);
  EXPECT_LE(rep["peak_power_w"].get<double>(), cfg.power_budget.max_power_w);
  EXPECT_EQ(rep["scoreboard"]["mismatches"].get<uint64_t>(), 0u);
}

TEST(PowerBudget, LetsExactlyOneDieProgramAtOnce) { exactly_k_dies(1); }
TEST(PowerBudget, LetsExactlyThreeDiesProgramAtOnce) { exactly_k_dies(3); }
TEST(PowerBudget, LetsExactlySevenDiesProgramAtOnce) { exactly_k_dies(7); }

TEST(PowerBudget, WithoutBudgetMoreDiesWorkAtOnce) {
  const config::DriveConfig cfg = drive();
  const std::string out = test::temp_dir("free");
  const auto rep = twenty_writes(cfg, out);
  EXPECT_GT(most_dies_active(out + "/current.vcd", cfg.flash.i_idle_ma), 7);
  EXPECT_FALSE(rep.contains("power_budget"));
}

// Saturating random writes (32 outstanding): the budget lets k programs run, each holding its
// share from data-in to the end of tPROG, so the drive writes k pages per (transfer + tPROG).
TEST(PowerBudget, SaturatingWritesStayUnderTheCapAndIopsFollowTheArithmetic) {
  config::DriveConfig cfg = drive();
  const int k = 4;
  cfg.power_budget.enabled = true;
  cfg.power_budget.max_current_ma =
      (floor_w(cfg) + (k + 0.5) * program_w(cfg)) / cfg.power.drive_voltage_v() * 1e3;
  std::vector<tb::HostRequest> reqs;
  std::mt19937_64 rng(5);
  const uint64_t pages = cfg.logical_pages();
  for (int i = 0; i < 3000; ++i)
    reqs.push_back(test::request(0, IoOp::Write, (rng() % pages) * 4096, 4096));
  tb::VectorSource src(std::move(reqs), false, 32);
  tb::RunOptions opts;
  const auto rep = tb::run_simulation(cfg, src, opts).report;  // throws if the cap is exceeded
  const double cap_w = cfg.power_budget.max_current_ma * 1e-3 * cfg.power.drive_voltage_v();
  EXPECT_LE(rep["peak_power_w"].get<double>(), cap_w);
  for (const auto& w : rep["power_analyser"]["peak_windows"])
    EXPECT_LE(w["peak_power_w"].get<double>(), cap_w);
  EXPECT_EQ(rep["flash_ops"]["erase"].get<uint64_t>(), 0u);  // no GC: programs only
  const double hold_s = 4096 * cfg.flash.bus_ns_per_byte * 1e-9 + cfg.flash.t_prog_us * 1e-6;
  const double predicted = k / hold_s;
  EXPECT_NEAR(rep["iops"].get<double>(), predicted, predicted * 0.002);
  EXPECT_GT(rep["power_budget"]["wait_s"].get<double>(), 0.0);
}

TEST(PowerBudget, CapBelowOneOperationIsAConfigError) {
  config::DriveConfig cfg = drive();
  cfg.power_budget.enabled = true;
  cfg.power_budget.max_power_w = floor_w(cfg) + 0.5 * program_w(cfg);
  tb::VectorSource src({test::request(0, IoOp::Write, 0, 4096)});
  try {
    tb::run_simulation(cfg, src, tb::RunOptions{});
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("power_budget.max_power_w"), std::string::npos)
        << e.what();
  }
}

TEST(PowerBudget, BothOrNeitherCapIsRejected) {
  nlohmann::ordered_json doc = config::to_json(drive());
  doc["power_budget"] = {{"enabled", true}};
  EXPECT_THROW(config::parse_drive_config(doc, "t"), ConfigError);
  doc["power_budget"] = {{"enabled", true}, {"max_power_w", 3}, {"max_current_ma", 500}};
  EXPECT_THROW(config::parse_drive_config(doc, "t"), ConfigError);
}

// The monitor's own record: a drive power above the cap held for any time is a model error.
TEST(PowerBudget, MonitorRejectsPowerAboveTheCap) {
  using model::PowerState;
  tb::reset_kernel();
  model::EnergyMonitor::Options o;
  o.power_cap_nw = 15'000'000;  // 15 mW
  model::EnergyMonitor m(o);
  const auto a = m.add_component("a", "g", 1.0, {{PowerState::Idle, 1}, {PowerState::Active, 10}},
                                 PowerState::Idle);
  const auto b = m.add_component("b", "g", 1.0, {{PowerState::Idle, 1}, {PowerState::Active, 10}},
                                 PowerState::Idle);
  using sc_core::sc_time;
  using sc_core::SC_US;
  m.transition(a, sc_time(1, SC_US), PowerState::Active);
  m.transition(a, sc_time(2, SC_US), PowerState::Idle);
  m.transition(b, sc_time(2, SC_US), PowerState::Active);  // a hand-over: never both at once
  m.transition(b, sc_time(3, SC_US), PowerState::Idle);
  m.transition(a, sc_time(4, SC_US), PowerState::Active);
  m.transition(b, sc_time(4, SC_US), PowerState::Active);  // both: 20 mW
  m.transition(a, sc_time(5, SC_US), PowerState::Idle);
  EXPECT_THROW(m.finish(sc_time(10, SC_US)), sc_core::sc_report);
}

}  // namespace
}  // namespace ssd
