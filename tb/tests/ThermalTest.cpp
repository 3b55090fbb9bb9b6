// The thermal model (docs/thermal.md): an RC node after a power step against the closed form,
// the same through the energy monitor, node mapping, the throttle's hysteresis, throttle entry
// and exit at the sampled thresholds in a run, and the shipped many-resource drive heating
// into throttling with its performance loss in the report.
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "common/Errors.h"
#include "model/power/EnergyMonitor.h"
#include "model/thermal/ThermalModel.h"
#include "model/thermal/ThermalThrottle.h"
#include "tb/run/Simulation.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"

namespace ssd {
namespace {

using model::PowerState;
using model::ThermalModel;
using tb::IoOp;

constexpr uint64_t kPsPerS = 1'000'000'000'000;

// T(t) of an RC node holding P from T0: the closed form the model must reproduce.
double closed_form(double ambient, double p_w, double r, double c, double t0_c, double dt_s) {
  const double steady = ambient + p_w * r;
  return steady + (t0_c - steady) * std::exp(-dt_s / (r * c));
}

TEST(ThermalModel, NodeAfterAPowerStepFollowsTheClosedForm) {
  const double r = 4.0, c = 0.25, amb = 30.0;  // tau = 1 s
  ThermalModel m(amb, {{"controller", 10, 1}, {"nand", r, c}});
  m.add_power(1, 0, 2'000'000'000);            // 2 W from 0
  m.add_power(1, kPsPerS / 2, 3'000'000'000);  // 5 W from 0.5 s
  const double at_half = closed_form(amb, 2.0, r, c, amb, 0.5);
  EXPECT_NEAR(m.temperature_c(1, kPsPerS / 2), at_half, 1e-9);
  const double at_2s = closed_form(amb, 5.0, r, c, at_half, 1.5);
  EXPECT_NEAR(m.temperature_c(1, 2 * kPsPerS), at_2s, 1e-9);
  // Stepping in many small pieces gives the same (exact stepping, not Euler).
  ThermalModel fine(amb, {{"controller", 10, 1}, {"nand", r, c}});
  fine.add_power(1, 0, 2'000'000'000);
  fine.add_power(1, kPsPerS / 2, 3'000'000'000);
  for (uint64_t k = 1; k <= 1000; ++k) fine.add_power(1, kPsPerS / 2 + k * 1'500'000'000, 0);
  EXPECT_NEAR(fine.temperature_c(1, 2 * kPsPerS), at_2s, 1e-9);
  // The other node saw no power: ambient. Peak is the end of the heating.
  EXPECT_EQ(m.temperature_c(0, 2 * kPsPerS), amb);
  m.finish(2 * kPsPerS);
  EXPECT_NEAR(m.peak_c(1), at_2s, 1e-9);
  // Energy: 2 W x 0.5 s + 5 W x 1.5 s.
  EXPECT_NEAR(m.energy_j(false), 8.5, 1e-9);
}

TEST(ThermalModel, CoolingAfterAStepDownAndPeak) {
  ThermalModel m(25.0, {{"controller", 2.0, 0.5}, {"nand", 1, 1}});
  m.add_power(0, 0, 10'000'000'000);         // 10 W: towards 45 C, tau 1 s
  m.add_power(0, kPsPerS, -10'000'000'000);  // off at 1 s
  const double hot = closed_form(25, 10, 2, 0.5, 25, 1.0);
  EXPECT_NEAR(m.temperature_c(0, 3 * kPsPerS), closed_form(25, 0, 2, 0.5, hot, 2.0), 1e-9);
  m.finish(3 * kPsPerS);
  EXPECT_NEAR(m.peak_c(0), hot, 1e-9);
}

TEST(ThermalModel, ComponentsHeatTheirNode) {
  config::DriveConfig cfg = test::shipped("default");
  cfg.thermal.nand_nodes = config::NandNodes::PerChannel;
  const ThermalModel m = ThermalModel::from_config(cfg);
  ASSERT_EQ(m.nodes().size(), 1 + cfg.flash.channels);
  EXPECT_EQ(m.node_of("controller", "controller"), 0u);
  EXPECT_EQ(m.node_of("board", "board"), 0u);
  EXPECT_EQ(m.node_of("dram", "dram"), 0u);
  EXPECT_EQ(m.node_of("ch3", "channel"), 4u);
  EXPECT_EQ(m.node_of("ch7.w1d0", "nand"), 8u);
  cfg.thermal.nand_nodes = config::NandNodes::One;
  EXPECT_EQ(ThermalModel::from_config(cfg).node_of("ch7.w1d0", "nand"), 1u);
}

// Through the monitor: a component's transitions heat its node; the sensor reads the closed
// form, and energy.csv rows carry the temperature at their end.
TEST(ThermalModel, MonitorDrivesTheNetwork) {
  tb::reset_kernel();
  model::EnergyMonitor::Options o;
  o.rails = {{"5v", 5.0, 0.0}};
  o.window = sc_core::sc_time(1, sc_core::SC_MS);
  o.series_path = test::temp_dir("series") + "/energy.csv";
  o.thermal = std::make_shared<ThermalModel>(
      20.0, std::vector<ThermalModel::Node>{{"controller", 10, 1e-3}, {"nand", 5, 1e-3}});
  using sc_core::SC_MS;
  using sc_core::sc_time;
  double at_3ms = 0, at_5ms = 0;
  {
    model::EnergyMonitor m(o);
    const auto ctl = m.add_component("controller", "controller", 2.0,
                                     {{PowerState::Idle, 100}, {PowerState::Active, 1000}},
                                     PowerState::Idle);  // 0.2 W, 2 W active
    m.transition(ctl, sc_time(1, SC_MS), PowerState::Active);
    m.transition(ctl, sc_time(4, SC_MS), PowerState::Idle);
    // tau = 10 ms: 0.2 W over [0, 1) ms, 2 W over [1, 4) ms, 0.2 W after.
    const double t1 = closed_form(20, 0.2, 10, 1e-3, 20, 1e-3);
    at_3ms = closed_form(20, 2.0, 10, 1e-3, t1, 2e-3);
    EXPECT_NEAR(m.read_temperatures(sc_time(3, SC_MS))[0], at_3ms, 1e-9);
    EXPECT_EQ(m.read_temperatures(sc_time(3, SC_MS))[1], 20.0);
    const double t4 = closed_form(20, 2.0, 10, 1e-3, t1, 3e-3);
    at_5ms = closed_form(20, 0.2, 10, 1e-3, t4, 1e-3);
    m.finish(sc_time(5, SC_MS));
    EXPECT_NEAR(m.thermal()->temperature_c(0, 5 * kPsPerS / 1000), at_5ms, 1e-9);
    EXPECT_NEAR(m.thermal()->peak_c(0), t4, 1e-9);
  }
  std::ifstream csv(o.series_path);
  std::string header, row;
  std::getline(csv, header);
  EXPECT_NE(header.find(",temp_controller_c,temp_nand_c"), std::string::npos) << header;
  std::string last;
  while (std::getline(csv, row)) last = row;
  const std::size_t comma = last.rfind(',');
  const std::size_t before = last.rfind(',', comma - 1);
  EXPECT_NEAR(std::stod(last.substr(before + 1, comma - before - 1)), at_5ms, 1e-9);
}

// The ConfigError message for the default drive with `thermal` replaced.
std::string thermal_error(const nlohmann::ordered_json& thermal) {
  nlohmann::ordered_json doc = config::to_json(test::shipped("default"));
  doc["thermal"] = thermal;
  try {
    config::parse_drive_config(doc, "t");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(ThermalConfig, RejectsImpossibleSettings) {
  EXPECT_NE(thermal_error({{"enabled", true}, {"throttle", {{"t_on_c", 80}, {"t_off_c", 80}}}})
                .find("thermal.throttle.t_off_c"),
            std::string::npos);
  EXPECT_NE(thermal_error({{"throttle", {{"action", "dies"}}}}).find("thermal.throttle.action"),
            std::string::npos);
  EXPECT_NE(thermal_error({{"enabled", true}, {"throttle", {{"action", "slower_clock"}}}})
                .find("unknown throttle action"),
            std::string::npos);
  EXPECT_NE(thermal_error({{"enabled", true}, {"throttle", {{"action", "power_budget"}}}})
                .find("thermal.throttle.max_power_w"),
            std::string::npos);
  EXPECT_NE(thermal_error({{"enabled", true}, {"nand", {{"c_j_per_k", 0}}}})
                .find("thermal.nand.c_j_per_k"),
            std::string::npos);
  EXPECT_EQ(thermal_error({{"enabled", true}, {"nand_nodes", "per_channel"}}), "");
}

TEST(ThrottleHysteresis, EntersAboveOnAndLeavesBelowOff) {
  model::ThrottleHysteresis h(87.0, 85.0);
  EXPECT_FALSE(h.update(86.9));
  EXPECT_FALSE(h.update(87.0));  // at the threshold: not above
  EXPECT_TRUE(h.update(87.001));
  EXPECT_TRUE(h.update(86.0));  // inside the band: stays
  EXPECT_TRUE(h.update(85.0));  // at t_off: not below
  EXPECT_FALSE(h.update(84.999));
  EXPECT_FALSE(h.update(86.5));  // inside the band: stays off
  EXPECT_TRUE(h.update(90));
}

// The temperature signals of a VCD: time -> values of temp_<node>_c, by node name.
std::map<std::string, std::vector<std::pair<uint64_t, double>>> vcd_temperatures(
    const std::string& path) {
  std::ifstream in(path);
  std::map<std::string, std::string> names;  // id -> node
  std::map<std::string, std::vector<std::pair<uint64_t, double>>> out;
  std::string line;
  uint64_t t = 0;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string w;
    words >> w;
    if (w == "$var") {
      std::string size, id, name;
      words >> size >> size >> id >> name;
      if (name.rfind("temp_", 0) == 0) names[id] = name.substr(5, name.size() - 7);
    } else if (!w.empty() && w[0] == '#') {
      t = std::stoull(w.substr(1));
    } else if (!w.empty() && w[0] == 'r') {
      std::string id;
      words >> id;
      if (auto it = names.find(id); it != names.end())
        out[it->second].push_back({t, std::stod(w.substr(1))});
    }
  }
  return out;
}

// A small drive heated hard: throttling starts at the first sensor reading above t_on and
// ends at the first below t_off.
TEST(ThermalThrottle, EntersAndLeavesAtTheThresholds) {
  config::DriveConfig cfg = test::shipped("default");
  cfg.thermal.enabled = true;
  cfg.thermal.ambient_c = 25;
  cfg.thermal.nand = {20.0, 2e-4};  // tau 4 ms
  cfg.thermal.controller = {5.0, 1e-3};
  cfg.thermal.sample_us = 200;
  cfg.thermal.throttle.action = config::ThrottleAction::Dies;
  cfg.thermal.throttle.max_active_dies = 2;
  // Idle, the NAND node sits at 25 + 20 K/W x 20 dies x 3 mA x 5 V (their currents are at the
  // rail) = 31 C; throttled to 2 dies programming, 25 + 20 x (0.3 + 2 x 17 mA x 5 V) = 34.4 C,
  // below t_off.
  cfg.thermal.throttle.t_on_c = 39;
  cfg.thermal.throttle.t_off_c = 37;
  std::vector<tb::HostRequest> reqs;
  std::mt19937_64 rng(3);
  for (int i = 0; i < 1500; ++i)
    reqs.push_back(test::request(0, IoOp::Write, (rng() % 1000000) * 4096, 4096));
  tb::VectorSource src(std::move(reqs), false, 32);
  tb::RunOptions opts;
  opts.out_dir = test::temp_dir("out");
  opts.waveform.vcd = true;
  const auto rep = tb::run_simulation(cfg, src, opts).report;
  const auto& th = rep["thermal"]["throttle"];
  ASSERT_GE(th["entries"].get<uint64_t>(), 1u);
  ASSERT_GE(th["exits"].get<uint64_t>(), 1u);
  const auto temps = vcd_temperatures(opts.out_dir + "/current.vcd");
  ASSERT_TRUE(temps.count("nand"));
  // The sensor's readings of the hottest node, by time (the NAND here: 20 K/W).
  const auto& nand = temps.at("nand");
  const uint64_t entry = uint64_t(std::llround(th["first_entry_s"].get<double>() * 1e12));
  const uint64_t exit = uint64_t(std::llround(th["first_exit_s"].get<double>() * 1e12));
  const uint64_t period = uint64_t(cfg.thermal.sample_us * 1e6);
  EXPECT_EQ(entry % period, 0u);
  EXPECT_EQ(exit % period, 0u);
  // Value at each sample time: the last change at or before it.
  const auto at = [&](uint64_t t) {
    double v = cfg.thermal.ambient_c;
    for (const auto& [when, c] : nand)
      if (when <= t) v = c;
    return v;
  };
  EXPECT_GT(at(entry), 39.0);
  for (uint64_t t = period; t < entry; t += period) EXPECT_LE(at(t), 39.0) << t;
  EXPECT_LT(at(exit), 37.0);
  for (uint64_t t = entry; t < exit; t += period) EXPECT_GE(at(t), 37.0) << t;
  EXPECT_GT(th["time_s"].get<double>(), 0.0);
  EXPECT_GT(rep["thermal"]["peak_c"].get<double>(), 39.0);
}

// The shipped many-resource drive on its workload (shortened): the NAND heats past 87 C, the
// drive throttles, and the report shows the power cut and the performance lost; without
// protection the same run gets hotter and completes sooner.
TEST(ThermalThrottle, ManyResourceDriveThrottlesAndLosesPerformance) {
  const std::string out = test::temp_dir("out");
  std::string log;
  ASSERT_EQ(test::run_cli("--config configs/pcie_many_resource.json --workload-file "
                          "workloads/thermal-randwrite.json --out " +
                              out + " --no-series",
                          log),
            0)
      << log;
  const auto rep = nlohmann::json::parse(test::slurp(out + "/report.json"));
  const auto& t = rep["thermal"];
  const auto& th = t["throttle"];
  EXPECT_GT(t["peak_c"].get<double>(), 87.0);
  EXPECT_LT(t["peak_c"].get<double>(), 90.0);
  EXPECT_GE(th["entries"].get<uint64_t>(), 1u);
  EXPECT_GT(th["time_s"].get<double>(), 0.0);
  EXPECT_GT(th["power_cut"].get<double>(), 0.10);
  EXPECT_LT(th["power_cut"].get<double>(), 0.20);
  EXPECT_GT(th["performance_loss"].get<double>(), 0.10);
  // No cap of its own: every wait for the budget came while throttled.
  EXPECT_GT(th["budget_wait_s"].get<double>(), 0.0);
  EXPECT_EQ(th["budget_wait_s"].get<double>(), rep["power_budget"]["wait_s"].get<double>());
  EXPECT_NE(log.find("thermal    peak"), std::string::npos) << log;
  const std::string free_out = test::temp_dir("free");
  ASSERT_EQ(test::run_cli("--config configs/pcie_many_resource.json --workload-file "
                          "workloads/thermal-randwrite.json --out " +
                              free_out + " --no-series --set thermal.throttle.action=none",
                          log),
            0)
      << log;
  const auto free = nlohmann::json::parse(test::slurp(free_out + "/report.json"));
  EXPECT_GT(free["thermal"]["peak_c"].get<double>(), 92.0);
  EXPECT_EQ(free["thermal"]["throttle"]["entries"].get<uint64_t>(), 0u);
  EXPECT_GT(free["iops"].get<double>(), rep["iops"].get<double>());
}

}  // namespace
}  // namespace ssd
