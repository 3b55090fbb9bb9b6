// A loss of the supply with hold-up capacitors (power.hold_up, docs/reliability.md#power-loss):
// the meter's arithmetic, the controller part's bookkeeping, the config's rules, and whole runs
// whose energy and losses follow from the config by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "model/controller/PowerLoss.h"
#include "model/power/HoldUpMeter.h"
#include "tb/run/Simulation.h"
#include "tb/tests/ExactEnergy.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"

namespace ssd {
namespace {

constexpr uint64_t kUs = 1000000;  // ps

TEST(HoldUpMeter, CountsFromTheLossToTheFlushEnd) {
  model::HoldUpMeter m(10 * kUs, 1.0, 1000, 0);  // 500 kJ: never out
  m.add(0, 12 * kUs, 1000);                      // 2 us after the loss at 1000 nW
  m.flush_ended(15 * kUs);
  m.add(12 * kUs, 20 * kUs, 3000);  // 3 us of it before the flush ended
  m.add(20 * kUs, 30 * kUs, 5000);  // after: not counted
  EXPECT_EQ(m.used_nwps(), model::EnergyNwPs(1000) * 2 * kUs + model::EnergyNwPs(3000) * 3 * kUs);
  EXPECT_FALSE(m.runs_out_ps());
}

TEST(HoldUpMeter, RunsOutInsideTheSegmentThatPassesTheHeldEnergy) {
  // 40 pF from 1 V to 0: 2e-11 J, 2e10 nW ps. 5 us at 2000 nW leave 1e10, which last 2.5 us at
  // 4000 nW.
  model::HoldUpMeter m(0, 40e-12, 1, 0);
  EXPECT_NEAR(double(m.held_nwps()), 2e10, 1);
  m.add(0, 5 * kUs, 2000);
  EXPECT_FALSE(m.runs_out_ps());
  m.add(5 * kUs, 100 * kUs, 4000);
  ASSERT_TRUE(m.runs_out_ps());
  EXPECT_EQ(*m.runs_out_ps(),
            5 * kUs + uint64_t((m.held_nwps() - model::EnergyNwPs(2000) * 5 * kUs) / 4000));
  EXPECT_NEAR(double(*m.runs_out_ps()), 7.5 * double(kUs), 1);
}

TEST(HoldUpMeter, TheBankVoltageFollowsTheEnergyDrawnDownToTheCutoff) {
  // 1 mF charged to 12 V: 10 mJ drawn leave sqrt(144 - 2 x 0.01 / 0.001) = sqrt(124) V.
  model::HoldUpMeter m(0, 1e-3, 12, 5);
  EXPECT_EQ(m.bank_v(), 12.0);
  m.add(0, 1000 * kUs, 10000000000);  // 10 W for 1 ms
  EXPECT_NEAR(m.bank_v(), std::sqrt(124.0), 1e-12);
  m.add(1000 * kUs, 100000 * kUs, 10000000000);  // far past the 59.5 mJ held
  EXPECT_EQ(m.bank_v(), 5.0);
  EXPECT_EQ(model::HoldUpMeter(0, 0, 0, 0).bank_v(), 0.0);
}

TEST(HoldUpMeter, NoCapacitanceRunsOutAtTheLoss) {
  model::HoldUpMeter m(7 * kUs, 0, 0, 0);
  m.add(0, 7 * kUs, 100);
  m.add(7 * kUs, 9 * kUs, 100);
  ASSERT_TRUE(m.runs_out_ps());
  EXPECT_EQ(*m.runs_out_ps(), 7 * kUs);
}

TEST(PowerLossPart, KeepsTheHostDataOfProgramsEndingAfterTheLoss) {
  model::controller::PowerLoss loss(sc_core::sc_time(100, sc_core::SC_US));
  ASSERT_TRUE(loss.armed());
  const fw::PageToken a[2] = {{1, 11}, {2, 12}};
  const fw::PageToken b[1] = {{3, 13}};
  const fw::PageToken c[1] = {{4, 14}};
  loss.programming(1, a, 2, 0b10);  // unit 0 came from a read: not host data
  loss.programming(2, b, 1, 1);
  loss.programming(3, c, 1, 1);
  loss.ended(2, sc_core::sc_time(90, sc_core::SC_US));  // before the loss: on flash
  loss.ended(1, sc_core::sc_time(150, sc_core::SC_US));
  loss.ended(3, sc_core::sc_time(300, sc_core::SC_US));
  loss.ended(9, sc_core::sc_time(300, sc_core::SC_US));  // not a program of host data
  ASSERT_EQ(loss.late().size(), 2u);
  EXPECT_EQ(loss.late()[0].data, (fw::PageToken{2, 12}));
  const std::vector<fw::PageToken> lost = loss.ended_after(sc_core::sc_time(200, sc_core::SC_US));
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0], (fw::PageToken{4, 14}));
  EXPECT_FALSE(model::controller::PowerLoss(sc_core::sc_max_time()).armed());
}

std::string config_problem(const std::string& doc) {
  try {
    config::parse_drive_config(nlohmann::json::parse(doc), "t.json");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(PowerLossConfig, TheBankGivesEnergyOnlyBetweenItsVoltages) {
  EXPECT_EQ(config_problem(R"({"name": "d", "power": {"hold_up": {"loss_at_ms": 1,
            "capacitance_uf": 100, "charged_v": 5, "cutoff_v": 5}}})"),
            "t.json: power.hold_up.charged_v: must be above power.hold_up.cutoff_v (5) when "
            "power.hold_up.capacitance_uf is set: the bank gives energy only between the two "
            "(got 5)");
  EXPECT_EQ(config_problem(R"({"name": "d", "power": {"hold_up": {"loss_at_ms": -1}}})"),
            "t.json: power.hold_up.loss_at_ms: must be in [0, 3600000]");
  // No capacitors: everything not on flash at the loss is lost, which is a question too.
  EXPECT_EQ(config_problem(R"({"name": "d", "power": {"hold_up": {"loss_at_ms": 1}}})"), "");
}

// small_gc (4 dies on 2 channels, 4 KiB pages, tPROG 500 us) with a write buffer that keeps
// its pages until a flush, eight 4 KiB writes acknowledged from it, and the supply lost at
// 1 ms: the flush programs two pages on each die, one after the other. Every current is 0 but
// the board's baseline (0.5 W at 5 V) and, with `i_prog_ma`, the dies' program current.
config::DriveConfig buffered_drive(double i_prog_ma) {
  config::DriveConfig cfg = test::shipped("small_gc");
  cfg.dram.write_buffer_mb = 1;
  cfg.dram.write_buffer_idle_us = 1e9;  // never destaged while idle
  cfg.dram.i_active_ma = cfg.dram.i_idle_ma = 0;
  cfg.controller.i_active_ma = cfg.controller.i_idle_ma = 0;
  config::FlashConfig& f = cfg.flash;
  f.i_read_ma = f.i_erase_ma = f.i_transfer_ma = f.i_idle_ma = f.i_bus_ma = 0;
  f.i_prog_ma = i_prog_ma;
  cfg.host.i_transfer_ma = cfg.host.i_idle_ma = 0;
  cfg.power.rails[0].i_baseline_ma = 100;
  config::HoldUpConfig& h = cfg.power.hold_up;
  h.loss_at_ms = 1;
  h.charged_v = 12;
  h.cutoff_v = 5;
  return cfg;
}

// Into `out_dir` (test::temp_dir).
nlohmann::ordered_json run_eight_writes(const config::DriveConfig& cfg, const std::string& out_dir,
                                        bool vcd = false) {
  std::vector<tb::HostRequest> reqs;
  for (uint64_t i = 0; i < 8; ++i)
    reqs.push_back(test::request(20.0 * i, tb::IoOp::Write, i * 4096, 4096));
  tb::VectorSource src(reqs);
  tb::RunOptions opts;
  opts.out_dir = out_dir;
  opts.waveform.vcd = vcd;
  return tb::run_simulation(cfg, src, opts).report;
}

// The values the VCD in `dir` gives the hold-up bank's voltage, in order.
std::vector<double> bank_voltages(const std::string& dir) {
  std::ifstream in(dir + "/current.vcd");
  std::string line, id;
  std::vector<double> out;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string w, kind, width, code, name;
    words >> w;
    if (w == "$var" && words >> kind >> width >> code >> name && name == "bank_v") id = code;
    if (!id.empty() && w.size() > 1 && w[0] == 'r' && words >> code && code == id)
      out.push_back(std::stod(w.substr(1)));
  }
  return out;
}

// Enough energy: the flush needs the baseline over its time and eight programs' energy.
TEST(PowerLossRun, TheFlushNeedsTheEnergyDerivedByHand) {
  config::DriveConfig cfg = buffered_drive(20);
  cfg.power.hold_up.capacitance_uf = 1000;
  const std::string dir = test::temp_dir("power_loss_energy");
  const nlohmann::ordered_json rep = run_eight_writes(cfg, dir, true);
  const auto& p = rep["power_loss"];
  EXPECT_EQ(rep["requests"]["write"], 8);
  EXPECT_EQ(p["unacknowledged_requests"], 0);
  EXPECT_EQ(p["pages_flushed"], 8);
  EXPECT_EQ(rep["flash_ops"]["program"], 8);
  const double t_prog = cfg.flash.t_prog_us * 1e-6;
  const double flush_s = p["flush_s"];
  // Two programs a die, each after its page's transfer (82 us; two dies share a bus) and the
  // firmware's issue.
  const double xfer = 4096 * cfg.flash.bus_ns_per_byte * 1e-9;
  EXPECT_GT(flush_s, 2 * t_prog + 3 * xfer);
  EXPECT_LT(flush_s, 2 * t_prog + 4 * xfer + 200e-6);
  test::expect_rel(p["flush_ended_s"].get<double>() - p["at_s"].get<double>(), flush_s);
  const double baseline_w = 5.0 * 0.1;
  const double program_j = 8 * cfg.flash.voltage_v * 20e-3 * t_prog;
  test::expect_rel(p["energy_needed_j"], baseline_w * flush_s + program_j);
  test::expect_rel(p["energy_held_j"], 0.5 * 1000e-6 * (12.0 * 12 - 5.0 * 5));
  test::expect_rel(p["energy_margin_j"],
                   p["energy_held_j"].get<double>() - p["energy_needed_j"].get<double>());
  EXPECT_TRUE(p["runs_out_s"].is_null());
  test::expect_rel(p["time_margin_s"], p["energy_margin_j"].get<double>() /
                                           (p["energy_needed_j"].get<double>() / flush_s));
  EXPECT_EQ(p["acknowledged_units_lost"], 0);
  EXPECT_EQ(rep["scoreboard"]["lost_by_power_loss"], 0);
  EXPECT_EQ(rep["scoreboard"]["mismatches"], 0);
  // The bank in the waveform: charged, then down to what the drawn energy leaves.
  const std::vector<double> v = bank_voltages(dir);
  ASSERT_GE(v.size(), 3u);
  EXPECT_EQ(v.front(), 12.0);
  EXPECT_NEAR(v.back(), std::sqrt(12.0 * 12 - 2 * p["energy_needed_j"].get<double>() / 1000e-6),
              2e-6);
  for (std::size_t i = 1; i < v.size(); ++i) EXPECT_LE(v[i], v[i - 1]);
}

// Too little: at 0.5 W the bank lasts 2 tPROG after the loss, past each die's first program
// (which ends by 1.5 tPROG) and short of its second (2 tPROG and two transfers at least), so
// the four pages of the second stripe are lost.
TEST(PowerLossRun, TooLittleCapacitanceLosesTheWritesProgrammedAfterItRanOut) {
  config::DriveConfig cfg = buffered_drive(0);
  const double baseline_w = 0.5;
  const double lasts_s = 2 * cfg.flash.t_prog_us * 1e-6;
  cfg.power.hold_up.capacitance_uf = baseline_w * lasts_s / (0.5 * (12.0 * 12 - 5.0 * 5)) * 1e6;
  const std::string dir = test::temp_dir("power_loss_short");
  const nlohmann::ordered_json rep = run_eight_writes(cfg, dir, true);
  const auto& p = rep["power_loss"];
  test::expect_rel(p["runs_out_s"], 1e-3 + lasts_s);
  EXPECT_LT(p["time_margin_s"].get<double>(), 0);
  test::expect_rel(p["energy_needed_j"], baseline_w * p["flush_s"].get<double>());
  EXPECT_EQ(p["acknowledged_units_lost"], 4);
  EXPECT_EQ(rep["scoreboard"]["lost_by_power_loss"], 4);
  EXPECT_EQ(rep["scoreboard"]["mismatches"], 0);
  // The bank's voltage stops at the cutoff, where the drive stopped.
  const std::vector<double> v = bank_voltages(dir);
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v.back(), 5.0);
}

// No capacitors: the eight acknowledged writes still in DRAM are all lost.
TEST(PowerLossRun, WithoutCapacitorsEverythingBufferedIsLost) {
  const nlohmann::ordered_json rep =
      run_eight_writes(buffered_drive(0), test::temp_dir("power_loss_none"));
  const auto& p = rep["power_loss"];
  EXPECT_EQ(p["energy_held_j"], 0.0);
  test::expect_rel(p["runs_out_s"], 1e-3);
  EXPECT_EQ(p["acknowledged_units_lost"], 8);
}

// A loss mid-run: 200 writes of 8 KiB arriving every 10 us, faster than the link moves them,
// the supply lost at 1 ms. Those the drive fetched by then either completed (the run's
// requests) or stay unacknowledged; none arriving after the loss was sent.
TEST(PowerLossRun, RequestsInFlightAtTheLossStayUnacknowledged) {
  config::DriveConfig cfg = buffered_drive(20);
  cfg.power.hold_up.capacitance_uf = 1000;
  std::vector<tb::HostRequest> reqs;
  for (uint64_t i = 0; i < 200; ++i)
    reqs.push_back(test::request(10.0 * double(i), tb::IoOp::Write, (i % 50) * 8192, 8192));
  tb::VectorSource src(reqs);
  tb::RunOptions opts;
  opts.out_dir = test::temp_dir("power_loss_mid_run");
  const nlohmann::ordered_json rep = tb::run_simulation(cfg, src, opts).report;
  const auto& p = rep["power_loss"];
  const uint64_t fetched = rep["host_queues"][0]["fetched"];
  EXPECT_LE(fetched, 100u);
  EXPECT_EQ(rep["requests"]["write"].get<uint64_t>() + p["unacknowledged_requests"].get<uint64_t>(),
            fetched);
  EXPECT_GT(p["unacknowledged_requests"].get<uint64_t>(), 0u);
  EXPECT_EQ(p["at_s"], 1e-3);
  EXPECT_EQ(p["acknowledged_units_lost"], 0);
  EXPECT_EQ(rep["scoreboard"]["mismatches"], 0);
}

}  // namespace
}  // namespace ssd
