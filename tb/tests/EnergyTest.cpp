// Exact energy arithmetic: a tiny scenario computed by hand from the config, the monitor's
// integration with transitions reported out of global order, peak and time at peak, the
// energy series adding up, and the NAND power-off policy.
#include <fstream>
#include <numeric>

#include <gtest/gtest.h>

#include "common/Format.h"
#include "model/power/EnergyMonitor.h"
#include "tb/run/Simulation.h"
#include "tb/tests/ExactEnergy.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"

namespace ssd {
namespace {

using model::PowerState;
using tb::IoOp;

using test::expect_rel;
using test::state_j;

double component_j(const nlohmann::ordered_json& rep, const std::string& comp) {
  double sum = 0;
  for (const auto& [state, j] : rep["energy_j"][comp].items()) sum += j.get<double>();
  return sum;
}

// One 4 KB write at t = 0 on the small drive; every figure below follows from the config.
class SingleWriteEnergy : public ::testing::Test {
 protected:
  void run(config::NandIdlePolicy policy) {
    cfg = test::shipped("small_gc");
    cfg.flash.idle_policy = policy;
    // 4096 B at 256 MB/s is exactly 16 us; at 300 MB/s the model rounds to 1 ps, which would
    // blur a 1e-9 comparison with rounding rather than test the arithmetic.
    cfg.host.link_mb_per_s = 256;
    tb::VectorSource src({test::request(0, IoOp::Write, 0, 4096)});
    tb::RunOptions opts;
    opts.out_dir = test::temp_dir("out");
    rep = tb::run_simulation(cfg, src, opts).report;
    csv_path = opts.out_dir + "/energy.csv";
    // Times in seconds.
    link = 4096 / cfg.host.link_mb_per_s * 1e-6;
    dram_active = 3 * cfg.dram.t_access_ns * 1e-9;
    ctrl_active = (cfg.controller.t_fw_per_cmd_us + cfg.controller.t_fw_per_page_us +
                   cfg.controller.t_cmd_issue_us) *
                      1e-6 +
                  dram_active;
    xfer = 4096 * cfg.flash.bus_ns_per_byte * 1e-9;
    prog = cfg.flash.t_prog_us * 1e-6;
    end = link + ctrl_active + xfer + prog;
  }
  config::DriveConfig cfg;
  nlohmann::ordered_json rep;
  std::string csv_path;
  double link, dram_active, ctrl_active, xfer, prog, end;
};

TEST_F(SingleWriteEnergy, EveryComponentByHand) {
  run(config::NandIdlePolicy::AlwaysOn);
  const auto& h = cfg.host;
  const auto& c = cfg.controller;
  const auto& d = cfg.dram;
  const auto& f = cfg.flash;
  expect_rel(rep["energy_span_s"].get<double>(), end);
  expect_rel(state_j(rep, "host_if", "transfer"), h.i_transfer_ma * 1e-3 * h.voltage_v * link);
  expect_rel(state_j(rep, "controller", "active"),
             c.i_active_ma * 1e-3 * c.voltage_v * ctrl_active);
  expect_rel(state_j(rep, "controller", "idle"),
             c.i_idle_ma * 1e-3 * c.voltage_v * (end - ctrl_active));
  // DRAM: N_op x I_op V T_op + I_idle V (T - N_op T_op), the brief's equation.
  expect_rel(component_j(rep, "dram"),
             3 * d.i_active_ma * 1e-3 * d.voltage_v * d.t_access_ns * 1e-9 +
                 d.i_idle_ma * 1e-3 * d.voltage_v * (end - dram_active));
  expect_rel(state_j(rep, "ch0", "transfer"), f.i_bus_ma * 1e-3 * f.bus_voltage_v * xfer);
  EXPECT_EQ(state_j(rep, "ch1", "transfer"), 0.0);
  // The page went to die 0 = (ch0, w0); the other dies idled throughout.
  expect_rel(component_j(rep, "ch0.w0d0"),
             f.voltage_v * 1e-3 *
                 (f.i_transfer_ma * xfer + f.i_prog_ma * prog + f.i_idle_ma * (end - xfer - prog)));
  for (const char* die : {"ch1.w0d0", "ch0.w1d0", "ch1.w1d0"})
    expect_rel(component_j(rep, die), f.i_idle_ma * 1e-3 * f.voltage_v * end);
  double total = 0;
  for (const auto& [comp, states] : rep["energy_j"].items()) total += component_j(rep, comp);
  expect_rel(rep["energy_total_j"].get<double>(), total);
  expect_rel(rep["avg_power_w"].get<double>(), total / end);
}

TEST_F(SingleWriteEnergy, PeakIsDuringTheTableAccesses) {
  run(config::NandIdlePolicy::AlwaysOn);
  const auto& f = cfg.flash;
  const double dies_idle = 4 * f.i_idle_ma * 1e-3 * f.voltage_v;
  // While the DRAM serves the three accesses the controller is active too: the highest sum.
  const double peak = cfg.controller.i_active_ma * 1e-3 * cfg.controller.voltage_v +
                      cfg.dram.i_active_ma * 1e-3 * cfg.dram.voltage_v + dies_idle;
  expect_rel(rep["peak_power_w"].get<double>(), peak);
  expect_rel(rep["peak_current_ma"].get<double>(), peak / cfg.power.drive_voltage_v() * 1e3);
  expect_rel(rep["time_at_peak_s"].get<double>(), dram_active);
  // The accesses start after the command decode and the FTL step.
  expect_rel(rep["first_peak_s"].get<double>(),
             link + (cfg.controller.t_fw_per_cmd_us + cfg.controller.t_fw_per_page_us) * 1e-6);
}

TEST_F(SingleWriteEnergy, OperationEnergyByWork) {
  run(config::NandIdlePolicy::AlwaysOn);
  const auto& c = cfg.controller;
  const auto& f = cfg.flash;
  const double ctrl_w = c.i_active_ma * 1e-3 * c.voltage_v;
  // Data work: decode, FTL step and command issue on the core; the page's transfer (die and
  // bus) and program.
  expect_rel(rep["energy_by_work_j"]["host_data"].get<double>(),
             ctrl_w * (c.t_fw_per_cmd_us + c.t_fw_per_page_us + c.t_cmd_issue_us) * 1e-6 +
                 (f.i_transfer_ma * f.voltage_v + f.i_bus_ma * f.bus_voltage_v) * 1e-3 * xfer +
                 f.i_prog_ma * 1e-3 * f.voltage_v * prog);
  // Mapping work: three table accesses, the core waiting on each.
  expect_rel(rep["energy_by_work_j"]["mapping"].get<double>(),
             dram_active * (ctrl_w + cfg.dram.i_active_ma * 1e-3 * cfg.dram.voltage_v));
  EXPECT_EQ(rep["energy_by_work_j"]["gc"].get<double>(), 0.0);
}

TEST_F(SingleWriteEnergy, SeriesAddsUpToTheTotal) {
  run(config::NandIdlePolicy::AlwaysOn);
  std::ifstream in(csv_path);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line.rfind("t_start_s,t_end_s,energy_j,avg_power_w,peak_power_w,avg_current_ma", 0),
            0u);
  double sum = 0, last_end = 0;
  int rows = 0;
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string t0, t1, e;
    std::getline(ss, t0, ',');
    std::getline(ss, t1, ',');
    std::getline(ss, e, ',');
    EXPECT_DOUBLE_EQ(std::stod(t0), last_end);
    last_end = std::stod(t1);
    sum += std::stod(e);
    ++rows;
  }
  EXPECT_EQ(rows, 1);  // 0.58 ms of activity in one 10 ms window (the last one is partial)
  expect_rel(last_end, end);
  expect_rel(sum, rep["energy_total_j"].get<double>());
}

TEST_F(SingleWriteEnergy, DiesOffWhileTheDriveIsIdle) {
  run(config::NandIdlePolicy::OffWhenIdle);
  const auto& f = cfg.flash;
  // Dies power on when the command reaches the controller (after the link transfer) and off
  // when its last flash operation ends, which is the end of the run.
  const double on = end - link;
  for (const char* die : {"ch1.w0d0", "ch0.w1d0", "ch1.w1d0"}) {
    expect_rel(state_j(rep, die, "idle"), f.i_idle_ma * 1e-3 * f.voltage_v * on);
    EXPECT_EQ(state_j(rep, die, "off"), f.i_off_ma * 1e-3 * f.voltage_v * link);
  }
  expect_rel(state_j(rep, "ch0.w0d0", "idle"),
             f.i_idle_ma * 1e-3 * f.voltage_v * (on - xfer - prog));
}

// The monitor on its own: transitions of two components reported out of global order.
TEST(EnergyMonitor, IntegratesOutOfOrderReportsExactly) {
  tb::reset_kernel();
  model::EnergyMonitor::Options o;
  o.rails = {{"5v", 5.0, 0.0}};
  model::EnergyMonitor m(o);
  const auto a = m.add_component("a", "g", 2.0, {{PowerState::Idle, 1}, {PowerState::Active, 10}},
                                 PowerState::Idle);
  const auto b = m.add_component("b", "g", 1.0, {{PowerState::Idle, 2}, {PowerState::Read, 30}},
                                 PowerState::Idle);
  using sc_core::sc_time;
  using sc_core::SC_US;
  m.transition(a, sc_time(10, SC_US), PowerState::Active);  // a: active [10, 40)
  m.transition(a, sc_time(40, SC_US), PowerState::Idle);
  m.transition(b, sc_time(20, SC_US), PowerState::Read);  // b: read [20, 30)
  m.transition(b, sc_time(30, SC_US), PowerState::Idle);
  m.finish(sc_time(100, SC_US));
  // a: 10 mA x 2 V x 30 us + 1 mA x 2 V x 70 us; b: 30 mA x 1 V x 10 us + 2 mA x 1 V x 90 us.
  expect_rel(m.total_energy_j(), 20e-3 * 30e-6 + 2e-3 * 70e-6 + 30e-3 * 10e-6 + 2e-3 * 90e-6);
  // Peak: a active (20 mW) + b read (30 mW) over [20, 30).
  expect_rel(m.peak_power_w(), 0.050);
  expect_rel(m.time_at_peak_s(), 10e-6);
  expect_rel(m.first_peak_time_s(), 20e-6);
  expect_rel(m.peak_current_ma(), 0.050 / 5.0 * 1e3);
}

TEST(EnergyMonitor, EqualPowerLevelsAccumulateTimeAtPeak) {
  tb::reset_kernel();
  model::EnergyMonitor m(model::EnergyMonitor::Options{});
  const auto a = m.add_component("a", "g", 1.0, {{PowerState::Idle, 0}, {PowerState::Active, 5}},
                                 PowerState::Idle);
  using sc_core::sc_time;
  using sc_core::SC_US;
  for (int i = 0; i < 3; ++i) {  // three 2 us bursts at the same level
    m.transition(a, sc_time(10 * i, SC_US), PowerState::Active);
    m.transition(a, sc_time(10 * i + 2, SC_US), PowerState::Idle);
  }
  m.finish(sc_time(50, SC_US));
  expect_rel(m.time_at_peak_s(), 6e-6);
  expect_rel(m.total_energy_j(), 5e-3 * 6e-6);
}

// A window's peak is a level held inside it; a run ending on a window boundary has no
// empty extra row; boundaries print as round numbers.
TEST(EnergyMonitor, SeriesWindowsAtBoundaries) {
  tb::reset_kernel();
  model::EnergyMonitor::Options o;
  o.window = sc_core::sc_time(10, sc_core::SC_US);
  o.series_path = test::temp_dir("series") + "/energy.csv";
  {
    model::EnergyMonitor m(o);
    const auto a = m.add_component("a", "g", 1.0, {{PowerState::Idle, 1}, {PowerState::Active, 10}},
                                   PowerState::Idle);
    m.transition(a, sc_core::SC_ZERO_TIME, PowerState::Active);
    m.transition(a, sc_core::sc_time(10, sc_core::SC_US), PowerState::Idle);  // on the boundary
    m.finish(sc_core::sc_time(20, sc_core::SC_US));
  }
  EXPECT_EQ(test::slurp(o.series_path),
            "t_start_s,t_end_s,energy_j,avg_power_w,peak_power_w,avg_current_ma,g_j\n"
            "0,1e-05,1e-07,0.01,0.01,2,1e-07\n"
            "1e-05,2e-05,1e-08,0.001,0.001,0.2,1e-08\n");
}

// energy.csv sums each group's energy exactly, in integer nW x ps, and rounds once per cell:
// a thousand segments whose products are beyond a double's 53 bits give the exact integral
// (summed in doubles, the last digits would depend on the segments).
TEST(EnergyMonitor, SeriesCellsAreTheExactIntegral) {
  using sc_core::SC_NS;
  using sc_core::sc_time;
  tb::reset_kernel();
  model::EnergyMonitor::Options o;
  o.window = sc_time(10, sc_core::SC_MS);
  o.series_path = test::temp_dir("series") + "/energy.csv";
  const int64_t read_nw = 2'566'410'000, program_nw = 1'690'590'000;  // 777.7, 512.3 mA at 3.3 V
  model::EnergyNwPs exact = 0;
  {
    model::EnergyMonitor m(o);
    const auto a = m.add_component(
        "a", "g", 3.3, {{PowerState::Read, 777.7}, {PowerState::Program, 512.3}}, PowerState::Read);
    uint64_t since_ps = 0;
    PowerState s = PowerState::Read;
    for (uint64_t t_ns = 9973; t_ns < 10'000'000; t_ns += 9973) {
      exact += model::EnergyNwPs(s == PowerState::Read ? read_nw : program_nw) *
               model::EnergyNwPs(t_ns * 1000 - since_ps);
      since_ps = t_ns * 1000;
      s = s == PowerState::Read ? PowerState::Program : PowerState::Read;
      m.transition(a, sc_time(double(t_ns), SC_NS), s);
    }
    exact += model::EnergyNwPs(s == PowerState::Read ? read_nw : program_nw) *
             model::EnergyNwPs(10'000'000'000 - since_ps);
    m.finish(o.window);
  }
  const std::string rows = test::slurp(o.series_path);
  const std::string row = rows.substr(rows.find('\n') + 1);
  const std::string g_j = row.substr(row.rfind(',') + 1);
  EXPECT_EQ(g_j, format_double(double(exact) / 1e21) + "\n");
  EXPECT_EQ(g_j, "0.021288089017139997\n");  // the doubles' running sum gives ...140074
}

// The monitor holds back each report and lets the same component's next report at the same
// time replace it (the DRAM's back-to-back accesses): every figure must be what one long
// access gives, while the component still counts every transition reported.
TEST(EnergyMonitor, BackToBackReportsGiveTheFiguresOfOneLongState) {
  using sc_core::SC_NS;
  using sc_core::sc_time;
  struct Figures {
    double energy_j, peak_w, at_peak_s, first_peak_s, busy_idle_j;
    std::vector<double> window_w, window_start_s;
    std::vector<uint64_t> bands_ps;
    uint64_t dram_transitions;
    std::string series;
  };
  tb::reset_kernel();  // once: a replaced kernel is leaked on purpose (tb/run/Simulation.cpp)
  const auto run = [](bool split) {
    model::EnergyMonitor::Options o;
    o.peak_windows = {sc_time(3, SC_NS), sc_time(50, SC_NS)};
    o.current_levels_ma = {10, 40};
    o.window = sc_time(7, SC_NS);
    o.series_path = test::temp_dir("series") + "/energy.csv";
    model::EnergyMonitor m(o);
    const auto dram = m.add_component(
        "dram", "dram", 1.0, {{PowerState::Idle, 2}, {PowerState::Active, 70}}, PowerState::Idle);
    const auto die = m.add_component(
        "die", "nand", 1.0, {{PowerState::Idle, 1}, {PowerState::Program, 25}}, PowerState::Idle);
    const auto die2 = m.add_component(
        "die2", "nand", 1.0, {{PowerState::Idle, 1}, {PowerState::Program, 25}}, PowerState::Idle);
    m.transition(die, sc_time(5, SC_NS), PowerState::Program);
    m.transition(dram, sc_time(10, SC_NS), PowerState::Active);
    if (split) {  // three accesses back to back, one with another report between
      m.transition(dram, sc_time(12, SC_NS), PowerState::Idle);
      m.transition(dram, sc_time(12, SC_NS), PowerState::Active);
      m.transition(dram, sc_time(14, SC_NS), PowerState::Idle);
      m.transition(die2, sc_time(14, SC_NS), PowerState::Program);
      m.transition(dram, sc_time(14, SC_NS), PowerState::Active);
    } else {
      m.transition(die2, sc_time(14, SC_NS), PowerState::Program);
    }
    m.transition(dram, sc_time(20, SC_NS), PowerState::Idle);
    m.transition(die, sc_time(30, SC_NS), PowerState::Idle);
    m.transition(die2, sc_time(40, SC_NS), PowerState::Idle);
    m.finish(sc_time(100, SC_NS));
    Figures f{m.total_energy_j(),
              m.peak_power_w(),
              m.time_at_peak_s(),
              m.first_peak_time_s(),
              m.nand_busy_period_idle_j(),
              {},
              {},
              m.current_band_ps(),
              0,
              test::slurp(o.series_path)};
    for (std::size_t i = 0; i < m.windowed_peaks().size(); ++i) {
      f.window_w.push_back(m.windowed_peaks().peak_w(i));
      f.window_start_s.push_back(m.windowed_peaks().start_s(i));
    }
    for (const auto& c : m.component_energy())
      if (c.name == "dram") f.dram_transitions = c.transitions;
    return f;
  };
  const Figures split = run(true), whole = run(false);
  EXPECT_EQ(split.energy_j, whole.energy_j);
  EXPECT_EQ(split.peak_w, whole.peak_w);
  EXPECT_EQ(split.at_peak_s, whole.at_peak_s);
  EXPECT_EQ(split.first_peak_s, whole.first_peak_s);
  EXPECT_EQ(split.busy_idle_j, whole.busy_idle_j);
  EXPECT_EQ(split.window_w, whole.window_w);
  EXPECT_EQ(split.window_start_s, whole.window_start_s);
  EXPECT_EQ(split.bands_ps, whole.bands_ps);
  EXPECT_EQ(split.series, whole.series);
  EXPECT_EQ(split.dram_transitions, 6u);
  EXPECT_EQ(whole.dram_transitions, 2u);
  // And by hand: the DRAM at 70 mW over [10, 20) ns and both dies programming over [14, 20).
  expect_rel(whole.peak_w, 0.070 + 0.025 + 0.025);
  expect_rel(whole.at_peak_s, 6e-9);
  expect_rel(whole.first_peak_s, 14e-9);
}

TEST(EnergyMonitor, UndeclaredStateIsAnError) {
  tb::reset_kernel();
  model::EnergyMonitor m(model::EnergyMonitor::Options{});
  const auto a = m.add_component("a", "g", 1.0, {{PowerState::Idle, 0}}, PowerState::Idle);
  EXPECT_THROW(m.transition(a, sc_core::sc_time(1, sc_core::SC_US), PowerState::Erase),
               sc_core::sc_report);
}

}  // namespace
}  // namespace ssd
