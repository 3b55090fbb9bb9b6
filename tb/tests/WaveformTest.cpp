// The waveform outputs (docs/energy-model.md#currentvcd): the VCD's values are the currents
// rounded to the nanoamp (so integrating them gives energy.csv), a window keeps exactly the
// changes in [START, END) with the values at START, a selection keeps the signals it names,
// --fst converts through GTKWave's vcd2fst, and bad options are usage errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/Errors.h"
#include "model/power/EnergyMonitor.h"
#include "tb/run/Simulation.h"
#include "tb/run/Waveform.h"
#include "tb/tests/TraceTestUtil.h"
#include "tb/tests/VcdReader.h"

namespace ssd {
namespace {

using model::EnergyMonitor;
using model::PowerState;
using model::VcdWriter;
using sc_core::sc_time;
using sc_core::SC_US;

using test::read_vcd;
using test::Vcd;

// A monitor's options: one 1 V rail, DIR/current.vcd with the selection.
EnergyMonitor::Options vcd_options(const std::string& dir, VcdWriter::Selection sel) {
  // One kernel per process however many monitors a test builds: a second kernel in one test
  // leaks, as LeakSanitizer sees (the monitor is no module, so they can share it).
  static const bool kernel = (tb::reset_kernel(), true);
  (void)kernel;
  EnergyMonitor::Options o;
  o.rails = {{"1v", 1.0, 0.0}};
  o.vcd_path = dir + "/current.vcd";
  o.vcd_selection = std::move(sel);
  return o;
}

// One component "a" at 1 V on a 1 V rail: 0 mA idle, 10 mA active, switched at the given
// microseconds (idle, active, idle, ...), the run ending at 20 us.
Vcd hand_built(const std::string& dir, VcdWriter::Selection sel, const std::vector<int>& at_us,
               double active_ma = 10) {
  const EnergyMonitor::Options o = vcd_options(dir, std::move(sel));
  EnergyMonitor m(o);
  const auto a = m.add_component(
      "a", "g", 1.0, {{PowerState::Idle, 0}, {PowerState::Active, active_ma}}, PowerState::Idle);
  m.add_component("b.c", "g", 1.0, {{PowerState::Idle, 2}}, PowerState::Idle);
  bool active = false;
  for (int us : at_us) {
    active = !active;
    m.transition(a, sc_time(us, SC_US), active ? PowerState::Active : PowerState::Idle);
  }
  m.finish(sc_time(20, SC_US));
  return read_vcd(o.vcd_path);
}

constexpr uint64_t kUs = 1000000;  // ps

// The changes of one signal: (time, value).
std::vector<std::pair<uint64_t, std::string>> of(const Vcd& v, const std::string& name) {
  std::vector<std::pair<uint64_t, std::string>> out;
  const std::string id = v.id_of.at(name);
  for (const auto& c : v.changes)
    if (c.id == id) out.emplace_back(c.t, c.value);
  return out;
}

TEST(Vcd, WholeRunHasEveryChangeOnce) {
  const Vcd v = hand_built(test::temp_dir("vcd"), {}, {1, 3, 4, 6});
  EXPECT_EQ(v.dumpvars_t, 0u);
  using C = std::vector<std::pair<uint64_t, std::string>>;
  EXPECT_EQ(of(v, "ssd.a_ma"),
            (C{{0, "0"}, {1 * kUs, "10"}, {3 * kUs, "0"}, {4 * kUs, "10"}, {6 * kUs, "0"}}));
  EXPECT_EQ(of(v, "ssd.b.c_ma"), (C{{0, "2"}}));
  EXPECT_EQ(of(v, "ssd.drive_total_ma"),
            (C{{0, "2"}, {1 * kUs, "12"}, {3 * kUs, "2"}, {4 * kUs, "12"}, {6 * kUs, "2"}}));
  // One rail: its signal and the drive total are one identifier, written once per change.
  EXPECT_EQ(v.id_of.at("ssd.rail_1v_ma"), v.id_of.at("ssd.drive_total_ma"));
  EXPECT_EQ(v.last_t, 20 * kUs);
  // One timestamp per time, in order.
  EXPECT_TRUE(std::is_sorted(v.stamps.begin(), v.stamps.end()));
  EXPECT_EQ(std::adjacent_find(v.stamps.begin(), v.stamps.end()), v.stamps.end());
}

TEST(Vcd, WindowKeepsExactlyTheChangesInStartToEnd) {
  VcdWriter::Selection sel;
  sel.start_ps = 3 * kUs;
  sel.end_ps = 6 * kUs;
  const Vcd v = hand_built(test::temp_dir("vcd"), sel, {1, 3, 4, 5, 6, 7});
  using C = std::vector<std::pair<uint64_t, std::string>>;
  // The change at START is in $dumpvars (the value from START on); the one at END is out.
  EXPECT_EQ(v.dumpvars_t, 3 * kUs);
  EXPECT_EQ(of(v, "ssd.a_ma"), (C{{3 * kUs, "0"}, {4 * kUs, "10"}, {5 * kUs, "0"}}));
  EXPECT_EQ(of(v, "ssd.b.c_ma"), (C{{3 * kUs, "2"}}));
  EXPECT_EQ(v.stamps.front(), 3 * kUs);
  EXPECT_EQ(v.last_t, 6 * kUs);
}

TEST(Vcd, WindowPastTheRunEndsAtTheRunsEnd) {
  VcdWriter::Selection sel;
  sel.start_ps = 2 * kUs;
  const Vcd v = hand_built(test::temp_dir("late"), sel, {1, 3});
  EXPECT_EQ(v.dumpvars_t, 2 * kUs);
  EXPECT_EQ(v.last_t, 20 * kUs);
  sel.start_ps = 50 * kUs;  // after the run: the values at its end, at its end
  const Vcd w = hand_built(test::temp_dir("after"), sel, {1, 3});
  EXPECT_EQ(w.dumpvars_t, 20 * kUs);
  EXPECT_EQ(w.stamps, std::vector<uint64_t>{20 * kUs});
  EXPECT_EQ(of(w, "ssd.a_ma").front().second, "0");
}

TEST(Vcd, SelectionKeepsTheSignalsItNames) {
  VcdWriter::Selection sel;
  sel.patterns = {"b.*", "drive_*"};
  const Vcd v = hand_built(test::temp_dir("vcd"), sel, {1, 3});
  EXPECT_EQ(v.id_of.size(), 2u);
  EXPECT_EQ(v.id_of.count("ssd.b.c_ma"), 1u);
  EXPECT_EQ(v.id_of.count("ssd.drive_total_ma"), 1u);
  EXPECT_EQ(of(v, "ssd.drive_total_ma").size(), 3u);
  for (const auto& c : v.changes) EXPECT_NE(c.id, "") << c.t;
}

TEST(Vcd, ValuesAreTheCurrentToTheNanoamp) {
  const Vcd v = hand_built(test::temp_dir("vcd"), {}, {1}, 0.0123455);
  EXPECT_EQ(of(v, "ssd.a_ma").back().second, "0.012346");
  const Vcd w = hand_built(test::temp_dir("big"), {}, {1}, 1234.000001);
  EXPECT_EQ(of(w, "ssd.a_ma").back().second, "1234.000001");
  EXPECT_EQ(of(w, "ssd.drive_total_ma").back().second, "1236.000001");
}

// Times across the writer's eight-digit steps (up to 2^64 ps), and values a signal comes
// back to after others: each written as it is, whether formatted anew or repeated.
TEST(Vcd, TimesAndRepeatedValuesAreWrittenExactly) {
  const std::string path = test::temp_dir("vcd") + "/current.vcd";
  using C = std::vector<std::pair<uint64_t, std::string>>;
  const C expected = {{0, "1.5"},
                      {7, "10"},
                      {99'999'999, "0.000125"},
                      {100'000'000, "10"},
                      {100'000'007, "-3.5"},
                      {9'999'999'999'999'999, "0.000125"},
                      {10'000'000'000'000'000, "10"},
                      {12'345'678'901'234'567'890u, "1.5"},
                      {18'446'744'073'709'551'614u, "10"}};
  {
    VcdWriter w(path, -1, {});
    w.declare({"a"}, {false}, {1.5}, {1.0}, {{"1v", 0.0}}, 0.0);
    for (std::size_t i = 1; i < expected.size(); ++i)
      w.change(expected[i].first, 0, std::stod(expected[i].second));
    w.finish(UINT64_MAX);
  }
  const Vcd v = read_vcd(path);
  EXPECT_EQ(of(v, "ssd.a_ma"), expected);
  EXPECT_EQ(v.last_t, UINT64_MAX);
}

// A channel's bus "ch0" at 1.2 V and its dies "ch0.d0", "ch0.d1" at 3.3 V: the group's power
// is the sum of the three currents as written times their voltages, once per time however many
// of them change then, whether or not they are selected themselves.
Vcd channel_built(const std::string& dir, VcdWriter::Selection sel) {
  const EnergyMonitor::Options o = vcd_options(dir, std::move(sel));
  EnergyMonitor m(o);
  const auto state = [](double idle, double active) {
    return std::vector<model::StateCurrent>{{PowerState::Idle, idle}, {PowerState::Active, active}};
  };
  const auto bus = m.add_component("ch0", "channel", 1.2, state(1, 5), PowerState::Idle);
  const auto d0 = m.add_component("ch0.d0", "nand", 3.3, state(2, 10), PowerState::Idle);
  const auto d1 = m.add_component("ch0.d1", "nand", 3.3, state(2, 10.25), PowerState::Idle);
  m.add_component("dram", "dram", 1.0, {{PowerState::Idle, 3}}, PowerState::Idle);
  const auto at = [](int us) { return sc_time(us, SC_US); };
  m.transition(d0, at(1), PowerState::Active);
  m.transition(bus, at(1), PowerState::Active);
  m.transition(d1, at(2), PowerState::Active);
  m.transition(d0, at(3), PowerState::Idle);
  m.transition(d1, at(3), PowerState::Idle);
  m.transition(bus, at(4), PowerState::Idle);
  m.finish(sc_time(20, SC_US));
  return read_vcd(o.vcd_path);
}

TEST(Vcd, AChannelsPowerIsItsBusAndDiesSummed) {
  using C = std::vector<std::pair<uint64_t, std::string>>;
  // mW: 1 x 1.2 + 2 x 3.3 + 2 x 3.3 idle; bus 5 mA and die 0 10 mA at 1 us; die 1 10.25 mA
  // at 2 us; both dies idle at 3 us; the bus at 4 us.
  const C expected = {
      {0, "14.4"}, {1 * kUs, "45.6"}, {2 * kUs, "72.825"}, {3 * kUs, "19.2"}, {4 * kUs, "14.4"}};
  const Vcd v = channel_built(test::temp_dir("vcd"), {});
  EXPECT_EQ(of(v, "ssd.ch0.power_mw"), expected);
  EXPECT_EQ(v.id_of.count("ssd.dram.power_mw"), 0u);  // a component alone has no group
  VcdWriter::Selection sel;
  sel.patterns = {"ch0.power"};
  const Vcd only = channel_built(test::temp_dir("only"), sel);
  EXPECT_EQ(only.id_of.size(), 1u);
  EXPECT_EQ(of(only, "ssd.ch0.power_mw"), expected);
  sel.start_ps = 2 * kUs;  // in a window: the total at its start in $dumpvars
  sel.end_ps = 4 * kUs;
  const Vcd window = channel_built(test::temp_dir("window"), sel);
  EXPECT_EQ(of(window, "ssd.ch0.power_mw"), (C{{2 * kUs, "72.825"}, {3 * kUs, "19.2"}}));
  EXPECT_EQ(VcdWriter::signal_names({"ch0", "ch0.d0", "ch0.d1", "dram"}, {false, true, true, false},
                                    {"1v"}),
            (std::vector<std::string>{"ch0", "ch0.d0", "ch0.d1", "dram", "rail_1v", "drive_total",
                                      "ch0.power", "ch0.busy", "ch0.reading", "ch0.programming",
                                      "ch0.erasing"}));
}

// How many of the channel's dies are busy (the bus is the channel itself, not counted): die 0
// from 1 us, die 1 from 2 us, both at rest at 3 us; selected alone it opens the channel's scope;
// in a window, its value at the start, then its changes.
TEST(Vcd, AChannelsBusyDiesCount) {
  using C = std::vector<std::pair<uint64_t, std::string>>;
  const Vcd v = channel_built(test::temp_dir("busy"), {});
  EXPECT_EQ(of(v, "ssd.ch0.busy"), (C{{0, "0"}, {1 * kUs, "1"}, {2 * kUs, "2"}, {3 * kUs, "0"}}));
  VcdWriter::Selection sel;
  sel.patterns = {"ch0.busy"};
  const Vcd only = channel_built(test::temp_dir("busy_only"), sel);
  EXPECT_EQ(of(only, "ssd.ch0.busy"), of(v, "ssd.ch0.busy"));
  EXPECT_EQ(only.id_of.size(), 1u);
  sel.start_ps = 2 * kUs + kUs / 2;
  const Vcd window = channel_built(test::temp_dir("busy_window"), sel);
  EXPECT_EQ(of(window, "ssd.ch0.busy"), (C{{sel.start_ps, "2"}, {3 * kUs, "0"}}));
}

// A channel's dies by what they do: die 0 reads from 1 us then transfers from 2 us, die 1
// programs from 1 us (two planes from 2 us: still programming), then erases from 3 us; both rest
// from 4 us. Busy counts them all, transfers included; a bus alone has no such counts.
TEST(Vcd, AChannelsDiesByActivity) {
  using C = std::vector<std::pair<uint64_t, std::string>>;
  const EnergyMonitor::Options o = vcd_options(test::temp_dir("activity"), {});
  EnergyMonitor m(o);
  const std::vector<model::StateCurrent> die_states = {
      {PowerState::Idle, 1},   {PowerState::Read, 20},    {PowerState::Program, 25},
      {PowerState::Erase, 30}, {PowerState::Transfer, 5}, {PowerState::ProgramMultiplane, 35}};
  const auto bus = m.add_component(
      "ch0", "channel", 1.2, {{PowerState::Idle, 1}, {PowerState::Active, 5}}, PowerState::Idle);
  const auto d0 = m.add_component("ch0.d0", "nand", 3.3, die_states, PowerState::Idle);
  const auto d1 = m.add_component("ch0.d1", "nand", 3.3, die_states, PowerState::Idle);
  m.add_component("host.a", "host", 3.3, {{PowerState::Idle, 0}, {PowerState::Active, 1}},
                  PowerState::Idle);
  m.add_component("host.b", "host", 3.3, {{PowerState::Idle, 0}, {PowerState::Active, 1}},
                  PowerState::Idle);
  const auto at = [](int us) { return sc_time(us, SC_US); };
  m.transition(d0, at(1), PowerState::Read);
  m.transition(d1, at(1), PowerState::Program);
  m.transition(bus, at(2), PowerState::Active);
  m.transition(d0, at(2), PowerState::Transfer);
  m.transition(d1, at(2), PowerState::ProgramMultiplane);
  m.transition(d1, at(3), PowerState::Erase);
  m.transition(d0, at(4), PowerState::Idle);
  m.transition(d1, at(4), PowerState::Idle);
  m.transition(bus, at(4), PowerState::Idle);
  m.finish(sc_time(10, SC_US));
  const Vcd v = read_vcd(o.vcd_path);
  EXPECT_EQ(of(v, "ssd.ch0.busy"), (C{{0, "0"}, {1 * kUs, "2"}, {4 * kUs, "0"}}));
  EXPECT_EQ(of(v, "ssd.ch0.reading"), (C{{0, "0"}, {1 * kUs, "1"}, {2 * kUs, "0"}}));
  EXPECT_EQ(of(v, "ssd.ch0.programming"), (C{{0, "0"}, {1 * kUs, "1"}, {3 * kUs, "0"}}));
  EXPECT_EQ(of(v, "ssd.ch0.erasing"), (C{{0, "0"}, {3 * kUs, "1"}, {4 * kUs, "0"}}));
  EXPECT_EQ(v.id_of.count("ssd.host.reading"), 0u);  // no die in the group
  EXPECT_EQ(v.id_of.count("ssd.host.busy"), 1u);
}

TEST(Vcd, PatternMatchingNoSignalIsAUsageError) {
  const auto names = VcdWriter::signal_names({"ch0", "ch0.w0d0"}, {false, false}, {"5v"});
  EXPECT_EQ(names, (std::vector<std::string>{"ch0", "ch0.w0d0", "rail_5v", "drive_total",
                                             "ch0.power", "ch0.busy"}));
  EXPECT_NO_THROW(VcdWriter::check_patterns({"ch0.*", "rail_*", "drive_total"}, names, "--x"));
  try {
    VcdWriter::check_patterns({"ch0", "ch9.*"}, names, "--vcd-signals");
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--vcd-signals: \"ch9.*\" matches no signal (the signals: ch0, ch0.w0d0, rail_5v, "
              "drive_total, ch0.power, ch0.busy)");
  }
}

TEST(Vcd, WindowSyntax) {
  const auto window = [](const std::string& text) {
    VcdWriter::Selection s;
    tb::parse_window(text, s);
    return std::make_pair(s.start_ps, s.end_ps);
  };
  EXPECT_EQ(window("10ms:20ms"),
            std::make_pair(uint64_t(10'000'000'000), uint64_t(20'000'000'000)));
  EXPECT_EQ(window("1.5us:2"), std::make_pair(uint64_t(1'500'000), uint64_t(2'000'000'000'000)));
  EXPECT_EQ(window(":7ps"), std::make_pair(uint64_t(0), uint64_t(7)));
  EXPECT_EQ(window("0.001ns:"), std::make_pair(uint64_t(1), UINT64_MAX));
  EXPECT_EQ(window(":"), std::make_pair(uint64_t(0), UINT64_MAX));  // the whole run
  for (const char* bad : {"5ms", "2ms:1ms", "1ms:1ms", "x:1ms",
                          "1.5.1ms:", "1ks:", "0.0001ns:", "-1ms:", "99999999999s:"}) {
    VcdWriter::Selection s;
    EXPECT_THROW(tb::parse_window(bad, s), UsageError) << bad;
  }
}

// Integrating the VCD's drive total (mA at the main rail's voltage) over each energy.csv row
// gives the row's energy: the nanoamp rounding loses nothing a report shows.
TEST(Vcd, DriveTotalIntegratesToTheEnergySeries) {
  const std::string dir = test::temp_dir("out");
  std::string out;
  ASSERT_EQ(test::run_ssdtlm(
                "--config " + test::source_path("configs/small_gc.json") +
                    " --workload rw=randrw,bs=8k,qd=8,count=2000,seed=5 --vcd -q --out " + dir,
                out),
            0)
      << out;
  const Vcd v = read_vcd(dir + "/current.vcd");
  const double volts = 5.0;  // small_gc's main rail
  const std::string id = v.id_of.at("ssd.drive_total_ma");
  std::vector<std::pair<uint64_t, double>> steps;  // (from, mA)
  for (const auto& c : v.changes)
    if (c.id == id) steps.emplace_back(c.t, std::stod(c.value));
  const auto energy = [&](uint64_t from, uint64_t to) {
    double j = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const uint64_t a = std::max(from, steps[i].first);
      const uint64_t b = std::min(to, i + 1 < steps.size() ? steps[i + 1].first : v.last_t);
      if (b > a) j += steps[i].second * 1e-3 * volts * double(b - a) * 1e-12;
    }
    return j;
  };
  std::istringstream csv(test::slurp(dir + "/energy.csv"));
  std::string row;
  std::getline(csv, row);  // header
  int rows = 0;
  while (std::getline(csv, row)) {
    double t0 = 0, t1 = 0, j = 0;
    char comma = 0;
    std::istringstream(row) >> t0 >> comma >> t1 >> comma >> j;
    const auto ps = [](double s) { return uint64_t(std::llround(s * 1e12)); };
    EXPECT_NEAR(energy(ps(t0), ps(t1)), j, j * 1e-7) << row;
    ++rows;
  }
  EXPECT_GT(rows, 10);
}

TEST(Vcd, FstIsGtkwavesConversionOfTheVcd) {
  ASSERT_EQ(std::system("command -v vcd2fst >/dev/null && command -v fst2vcd >/dev/null"), 0)
      << "vcd2fst missing: scripts/install-deps.sh installs gtkwave";
  const std::string dir = test::temp_dir("out");
  const std::string run =
      "--config " + test::source_path("configs/small_gc.json") +
      " --workload rw=randwrite,qd=8,count=300,seed=3 -q --vcd-window 1us: --out " + dir;
  std::string out;
  ASSERT_EQ(test::run_ssdtlm(run + " --fst", out), 0) << out;
  EXPECT_FALSE(std::filesystem::exists(dir + "/current.vcd"));  // --fst alone: the FST alone
  ASSERT_EQ(
      std::system(("fst2vcd " + dir + "/current.fst >" + dir + "/back.vcd 2>/dev/null").c_str()),
      0);
  const Vcd back = read_vcd(dir + "/back.vcd");
  ASSERT_EQ(test::run_ssdtlm(run + " --fst --vcd", out), 0) << out;
  const Vcd vcd = read_vcd(dir + "/current.vcd");
  EXPECT_TRUE(std::filesystem::exists(dir + "/current.fst"));
  // The same signals and the same changes (fst2vcd may order one time's values otherwise).
  EXPECT_EQ(back.id_of.size(), vcd.id_of.size());
  EXPECT_EQ(back.changes.size(), vcd.changes.size());
  EXPECT_EQ(back.dumpvars_t, uint64_t(1'000'000));
  EXPECT_EQ(back.last_t, vcd.last_t);
}

TEST(Vcd, FstWithoutVcd2fstFailsBeforeSimulating) {
  const std::string dir = test::temp_dir("out") + "/run";
  const std::string path = std::getenv("PATH");
  ::setenv("PATH", "/nonexistent", 1);
  std::string out;
  const int rc = test::run_ssdtlm("--config " + test::source_path("configs/small_gc.json") +
                                      " --workload rw=read,count=10 --fst --out " + dir,
                                  out);
  ::setenv("PATH", path.c_str(), 1);
  EXPECT_EQ(rc, 1) << out;
  EXPECT_NE(out.find("current.fst: cannot run GTKWave's vcd2fst"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(dir + "/report.json"));
}

TEST(Vcd, BadOptionsAreUsageErrors) {
  const std::string run = "--config " + test::source_path("configs/small_gc.json") +
                          " --workload rw=read,count=10 --out " + test::temp_dir("out") + " ";
  const std::pair<std::string, std::string> cases[] = {
      {run + "--vcd-window 1ms:2ms", "--vcd-window: applies only with --vcd or --fst"},
      {run + "--vcd-signals ch0", "--vcd-signals: applies only with --vcd or --fst"},
      {run + "--vcd --vcd-window 5ms", "--vcd-window: no ':', got \"5ms\""},
      {run + "--vcd --vcd-window 2ms:1ms",
       "--vcd-window: END must be after START, got \"2ms:1ms\""},
      {run + "--vcd --vcd-signals ch0,,dram", "--vcd-signals: an empty pattern, got \"ch0,,dram\""},
      {run + "--fst --vcd-signals 'ch0,ch7*'", "--vcd-signals: \"ch7*\" matches no signal"},
  };
  for (const auto& [args, message] : cases) {
    std::string out;
    EXPECT_EQ(test::run_ssdtlm(args, out), 2) << args << "\n" << out;
    EXPECT_NE(out.find("ssdtlm: error: " + message), std::string::npos) << args << "\n" << out;
  }
}

}  // namespace
}  // namespace ssd
