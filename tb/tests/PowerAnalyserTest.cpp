// Supply rails and the power-analyser metrics, exactly: a board baseline adds I x V x t, a
// regulator's efficiency divides, the windowed peak and the current histogram of hand-built
// waveforms, and the founding study's busy-period idle of two dies.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <sstream>
#include <string>

#include "model/power/EnergyMonitor.h"
#include "tb/run/Simulation.h"
#include "tb/tests/TestUtil.h"
#include "tb/tests/VcdReader.h"
#include "tb/workload/VectorSource.h"

namespace ssd {
namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() > tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

using model::EnergyMonitor;
using model::PowerState;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_US;

void expect_rel(double got, double want) {
  EXPECT_NEAR(got, want, std::abs(want) * 1e-9) << "got " << got << ", want " << want;
}

double component_j(const nlohmann::ordered_json& rep, const std::string& comp) {
  double sum = 0;
  for (const auto& [state, j] : rep["energy_j"][comp].items()) sum += j.get<double>();
  return sum;
}

// One 4 KB write on the small drive (as EnergyTest's SingleWriteEnergy), with a power section.
nlohmann::ordered_json single_write(const config::PowerConfig& power) {
  auto cfg = test::shipped("small_gc");
  cfg.host.link_mb_per_s = 256;  // 16 us exactly
  cfg.power = power;
  tb::VectorSource src({test::request(0, tb::IoOp::Write, 0, 4096)});
  return tb::run_simulation(cfg, src, tb::RunOptions{}).report;
}

TEST(SupplyRails, BaselineAddsExactlyCurrentTimesVoltageTimesTime) {
  const auto base = test::shipped("small_gc").power;
  auto with = base;
  with.rails[0].i_baseline_ma = 117.3;
  const auto a = single_write(base), b = single_write(with);
  const double span = a["energy_span_s"].get<double>();
  ASSERT_EQ(b["energy_span_s"].get<double>(), span);  // the baseline changes no timing
  const double board_j = 117.3e-3 * 5.0 * span;
  expect_rel(b["energy_j"]["board"]["on"].get<double>(), board_j);
  expect_rel(b["energy_total_j"].get<double>() - a["energy_total_j"].get<double>(), board_j);
  expect_rel(b["rails"][0]["baseline_j"].get<double>(), board_j);
  expect_rel(b["rails"][0]["energy_j"].get<double>(), b["energy_total_j"].get<double>());
  expect_rel(b["peak_power_w"].get<double>() - a["peak_power_w"].get<double>(), 117.3e-3 * 5.0);
  expect_rel(b["peak_current_ma"].get<double>() - a["peak_current_ma"].get<double>(), 117.3);
  EXPECT_FALSE(a["energy_j"].contains("board"));  // no baseline, no board: outputs as before
}

// The founding study's X25-M (Cho et al., ACM TOS 2015, Fig. 6): at its 5 V input the drive
// drew 180 mA with no page in flight and 17 mA more per page in flight. configs/x25m.json
// refers the NAND currents to that rail and derives the board baseline from the same figure,
// so by hand: 96.9 (board) + 15 x 3.3 / 5 (controller idle, 9.9) + 20 x 3.3 / 5 (DRAM idle,
// 13.2) + 20 k + 3 (20 - k) (dies at 5 V) = 180 + 17 k mA. One write of k pages on the idle
// drive puts k dies in program at once (channel-first: one page a die); the VCD gives the
// drive current at every change, and wherever exactly k dies program while every other
// component rests it must be 180 + 17 k.
TEST(SupplyRails, X25mCurrentRisesSeventeenMilliampsPerPageInFlight) {
  const auto cfg = test::shipped("x25m");
  ASSERT_EQ(cfg.power.regulators.nand.currents_at, config::CurrentsAt::Rail);
  ASSERT_EQ(cfg.power.rails[0].i_baseline_ma, 96.9);
  for (const uint32_t k : {1u, 2u, 8u, 17u}) {
    SCOPED_TRACE("k = " + std::to_string(k));
    tb::VectorSource src({test::request(0, tb::IoOp::Write, 0, uint64_t(k) * 4096)});
    tb::RunOptions o;
    o.out_dir = test::temp_dir("k" + std::to_string(k));
    o.series = false;
    o.waveform.vcd = true;
    tb::run_simulation(cfg, src, o);
    // The VCD's signals (their last value) by name; changes applied a timestamp at a time.
    const test::Vcd vcd = test::read_vcd(o.out_dir + "/current.vcd");
    std::multimap<std::string, std::string> names_of;  // identifier -> dotted names
    for (const auto& [name, id] : vcd.id_of) names_of.emplace(id, name);
    std::map<std::string, double> value;  // dotted name -> mA
    uint32_t matches = 0;
    const auto check = [&] {
      uint32_t programming = 0;
      for (const auto& [name, ma] : value) {
        if (ends_with(name, "_mw") || ends_with(name, ".busy") || ends_with(name, ".reading") ||
            ends_with(name, ".programming") || ends_with(name, ".erasing"))
          continue;  // a channel's power and counts: its bus and dies, checked one by one
        const bool die = name.rfind("ssd.ch", 0) == 0 && name.find(".w") != std::string::npos;
        if (die && ma == 20) {
          ++programming;
        } else if (die ? ma != 3
                       : (name == "ssd.controller_ma" ? ma != 15
                          : name == "ssd.dram_ma"     ? ma != 20
                          : name == "ssd.board_ma" || name == "ssd.drive_total_ma" ||
                                  name == "ssd.rail_5v_ma"
                              ? false
                              : ma != 0)) {
          return;  // something other than the programming dies works
        }
      }
      if (programming != k) return;
      ++matches;
      EXPECT_NEAR(value.at("ssd.drive_total_ma"), 180.0 + 17.0 * k, (180.0 + 17.0 * k) * 1e-9);
    };
    for (size_t i = 0; i < vcd.changes.size(); ++i) {
      const auto& c = vcd.changes[i];
      for (auto [it, end] = names_of.equal_range(c.id); it != end; ++it)
        value[it->second] = std::stod(c.value);
      if (i + 1 == vcd.changes.size() || vcd.changes[i + 1].t != c.t) check();
    }
    EXPECT_GT(matches, 0u) << "no time with exactly k dies programming and the rest at rest";
  }
}

TEST(SupplyRails, RegulatorEfficiencyDividesExactly) {
  const auto base = test::shipped("small_gc").power;
  auto lossy = base;
  lossy.regulators.nand.efficiency = 0.8;
  lossy.regulators.controller.efficiency = 0.9;
  const auto a = single_write(base), b = single_write(lossy);
  for (const char* die : {"ch0.w0d0", "ch1.w0d0", "ch0.w1d0", "ch1.w1d0"})
    expect_rel(component_j(b, die), component_j(a, die) / 0.8);
  expect_rel(component_j(b, "controller"), component_j(a, "controller") / 0.9);
  expect_rel(component_j(b, "dram"), component_j(a, "dram"));
  double nand_j = 0;
  for (const char* die : {"ch0.w0d0", "ch1.w0d0", "ch0.w1d0", "ch1.w1d0"})
    nand_j += component_j(b, die);
  expect_rel(b["rails"][0]["regulator_loss_j"].get<double>(),
             nand_j * (1 - 0.8) + component_j(b, "controller") * (1 - 0.9));
  // The VCD and peak_ma_by_component keep each component's current at its own supply.
  EXPECT_EQ(b["power_analyser"]["peak_current_ma_by_component"]["controller"].get<double>(),
            a["power_analyser"]["peak_current_ma_by_component"]["controller"].get<double>());
}

// Two rails: each component's power lands on its own rail; the drive is their sum.
TEST(SupplyRails, PeakPerRail) {
  tb::reset_kernel();
  EnergyMonitor::Options o;
  o.rails = {{"12v", 12.0, 0.5}, {"3v3", 3.3, 0.0}};
  o.regulators = {{"core", 1, 0.5}};
  EnergyMonitor m(o);
  const auto a = m.add_component(
      "a", "core", 1.0, {{PowerState::Idle, 0}, {PowerState::Active, 10}}, PowerState::Idle);
  const auto b = m.add_component("b", "other", 2.0, {{PowerState::Idle, 1}, {PowerState::Read, 5}},
                                 PowerState::Idle);
  m.transition(a, sc_time(1, SC_US), PowerState::Active);  // a: [1, 3) 10 mW / 0.5 on 3v3
  m.transition(a, sc_time(3, SC_US), PowerState::Idle);
  m.transition(b, sc_time(2, SC_US), PowerState::Read);  // b: [2, 6) 10 mW on 12v
  m.transition(b, sc_time(6, SC_US), PowerState::Idle);
  m.finish(sc_time(10, SC_US));
  // 12v: board 6 mW + b; 3v3: a.
  expect_rel(m.rail_peak_power_w(0), 0.006 + 0.010);
  expect_rel(m.rail_peak_power_w(1), 0.020);
  expect_rel(m.peak_power_w(), 0.006 + 0.010 + 0.020);
  expect_rel(m.peak_current_ma(), (0.036 / 12.0) * 1e3);  // at the main (first) rail
  expect_rel(m.total_energy_j(), 0.006 * 10e-6 + 0.020 * 2e-6 + 0.010 * 4e-6 + 0.002 * 6e-6);
}

// A hand-built drive power at 1 V (1 mA = 1 mW): 10 mW over [0, 3) us, 40 over [3, 4),
// 30 over [4, 6), nothing over [6, 20).
class HandBuiltWaveform : public ::testing::Test {
 protected:
  void run(std::vector<sc_time> windows, std::vector<double> levels_ma) {
    tb::reset_kernel();
    EnergyMonitor::Options o;
    o.rails = {{"1v", 1.0, 0.0}};
    o.peak_windows = std::move(windows);
    o.current_levels_ma = std::move(levels_ma);
    m = std::make_unique<EnergyMonitor>(o);
    const auto a = m->add_component(
        "a", "g", 1.0, {{PowerState::Idle, 0}, {PowerState::Active, 10}}, PowerState::Idle);
    const auto c = m->add_component(
        "c", "g", 1.0, {{PowerState::Idle, 0}, {PowerState::Active, 30}}, PowerState::Idle);
    m->transition(a, sc_time(0, SC_US), PowerState::Active);
    m->transition(a, sc_time(4, SC_US), PowerState::Idle);
    m->transition(c, sc_time(3, SC_US), PowerState::Active);
    m->transition(c, sc_time(6, SC_US), PowerState::Idle);
    m->finish(sc_time(20, SC_US));
  }
  std::unique_ptr<EnergyMonitor> m;
};

TEST_F(HandBuiltWaveform, WindowedPeak) {
  run({sc_time(1, SC_US), sc_time(2, SC_US), sc_time(10, SC_US), sc_time(30, SC_US)}, {});
  const auto& w = m->windowed_peaks();
  ASSERT_EQ(w.size(), 4u);
  expect_rel(m->peak_power_w(), 0.040);
  // 1 us: the 40 mW step itself.
  expect_rel(w.peak_w(0), 0.040);
  expect_rel(w.start_s(0), 3e-6);
  // 2 us: [3, 5) holds 40 + 30 mW us, more than [2, 4) (50) or [4, 6) (60).
  expect_rel(w.peak_w(1), 0.070 / 2);
  expect_rel(w.start_s(1), 3e-6);
  // 10 us: all 130 mW us of activity fit in [0, 10).
  expect_rel(w.peak_w(2), 0.130 / 10);
  EXPECT_EQ(w.start_s(2), 0.0);
  // A window longer than the 20 us span: the span's average.
  expect_rel(w.peak_w(3), 0.130 / 20);
}

TEST_F(HandBuiltWaveform, CurrentHistogram) {
  run({}, {10, 35});
  const auto& bands = m->current_band_ps();
  ASSERT_EQ(bands.size(), 3u);
  EXPECT_EQ(bands[0], 14'000'000u);  // below 10 mA: [6, 20)
  EXPECT_EQ(bands[1], 5'000'000u);   // 10 mA counts as at the level: [0, 3) and [4, 6)
  EXPECT_EQ(bands[2], 1'000'000u);   // 35 mA and above: [3, 4)
}

// The windowed peak and the current histogram against brute force: a random waveform of four
// components on whole nanoseconds, every window start tried (the earliest at the peak wins).
// The energy series is on, so its window boundaries cut the segments too; the waveform is long
// enough for the analyser to drop the points it is done with. Each component is on for up to
// 60 ns and off for up to `max_off_ns`: a long one makes a drive that idles between spikes,
// whose short windows the analyser skips by the stretches of low power.
void expect_brute_force_peaks(unsigned seed, uint64_t max_off_ns = 60) {
  EnergyMonitor::Options o;
  o.rails = {{"1v", 1.0, 0.0}};
  const std::vector<uint64_t> windows_ns = {1, 37, 500, 3000};
  for (uint64_t w : windows_ns) o.peak_windows.emplace_back(double(w), SC_NS);
  o.window = sc_time(100, SC_NS);
  o.series_path = test::temp_dir("series") + "/energy.csv";
  // Levels the drive's 0 to 15 mA crosses several at once, up and down.
  const std::vector<int> levels_ma = {2, 5, 9, 14};
  o.current_levels_ma.assign(levels_ma.begin(), levels_ma.end());
  EnergyMonitor m(o);
  constexpr uint64_t kEnd = 20000;
  std::vector<int> power(kEnd, 0);  // mW per ns
  std::mt19937 rng(seed);
  std::vector<EnergyMonitor::ComponentId> ids;
  for (int k = 0; k < 4; ++k)
    ids.push_back(m.add_component("c" + std::to_string(k), "g", 1.0,
                                  {{PowerState::Idle, 0}, {PowerState::Active, double(1 << k)}},
                                  PowerState::Idle));
  for (int k = 0; k < 4; ++k) {
    const int ma = 1 << k;
    const auto id = ids[std::size_t(k)];
    bool on = false;
    for (uint64_t t = 0; t < kEnd;) {
      const uint64_t next = std::min<uint64_t>(kEnd, t + 1 + rng() % (on ? 60 : max_off_ns));
      if (on)
        for (uint64_t u = t; u < next; ++u) power[u] += ma;
      on = !on;
      if (next < kEnd)
        m.transition(id, sc_time(double(next), SC_NS), on ? PowerState::Active : PowerState::Idle);
      t = next;
    }
  }
  // Any component still on at kEnd stays on to the end, which is kEnd.
  m.finish(sc_time(double(kEnd), SC_NS));
  std::vector<uint64_t> band_ps(levels_ma.size() + 1, 0);
  for (uint64_t u = 0; u < kEnd; ++u)
    band_ps[std::size_t(std::upper_bound(levels_ma.begin(), levels_ma.end(), power[u]) -
                        levels_ma.begin())] += 1000;
  EXPECT_EQ(m.current_band_ps(), band_ps) << "seed " << seed;
  for (std::size_t i = 0; i < windows_ns.size(); ++i) {
    const uint64_t w = windows_ns[i];
    long best = -1;
    uint64_t best_start = 0;
    long sum = 0;
    for (uint64_t u = 0; u < w; ++u) sum += power[u];
    for (uint64_t s = 0;; ++s) {
      if (sum > best) {
        best = sum;
        best_start = s;
      }
      if (s + w >= kEnd) break;
      sum += power[s + w] - power[s];
    }
    SCOPED_TRACE("seed " + std::to_string(seed) + ", window " + std::to_string(w) + " ns");
    expect_rel(m.windowed_peaks().peak_w(i), double(best) / double(w) * 1e-3);
    EXPECT_DOUBLE_EQ(m.windowed_peaks().start_s(i), double(best_start) * 1e-9);
  }
}

TEST(WindowedPeak, MatchesBruteForceOnRandomWaveforms) {
  // One kernel for all the monitors (a second kernel in one test leaks, as LeakSanitizer sees).
  tb::reset_kernel();
  for (unsigned seed = 1; seed <= 12; ++seed) expect_brute_force_peaks(seed);
  for (unsigned seed = 13; seed <= 24; ++seed) expect_brute_force_peaks(seed, 900);
}

// The founding study's NAND idle: a die idle while another die works. Die a programs over
// [10, 30) us, die b over [20, 50); the span is 100 us.
TEST(NandBreakdown, BusyPeriodIdleOfTwoDies) {
  tb::reset_kernel();
  EnergyMonitor m(EnergyMonitor::Options{});
  const std::vector<model::StateCurrent> die = {{PowerState::Idle, 3}, {PowerState::Program, 20}};
  const auto a = m.add_component("a", "nand", 1.0, die, PowerState::Idle);
  const auto b = m.add_component("b", "nand", 1.0, die, PowerState::Idle);
  m.transition(a, sc_time(10, SC_US), PowerState::Program);
  m.transition(a, sc_time(30, SC_US), PowerState::Idle);
  m.transition(b, sc_time(20, SC_US), PowerState::Program);
  m.transition(b, sc_time(50, SC_US), PowerState::Idle);
  m.finish(sc_time(100, SC_US));
  // Busy period [10, 50): b idles over [10, 20), a over [30, 50): 30 us at 3 mW.
  expect_rel(m.nand_busy_period_idle_j(), 3e-3 * 30e-6);
  // Plain idle, all of it: a 80 us, b 70 us.
  double idle = 0;
  for (const auto& c : m.component_energy())
    for (const auto& [state, j] : c.energy_j)
      if (state == PowerState::Idle) idle += j;
  expect_rel(idle, 3e-3 * 150e-6);
  // Both dies at their active current over [20, 30).
  expect_rel(m.all_dies_active_s(), 10e-6);
}

}  // namespace
}  // namespace ssd
