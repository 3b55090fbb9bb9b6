// Low-power states (docs/energy-model.md#low-power-states): one 4 KB write on an idle small
// drive, arriving after a chosen idle time, and every figure computed by hand from the
// config: the host link's state and exit latency, DRAM self-refresh and its energy, a die
// powered down and woken; and the keys' validation.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/Errors.h"
#include "tb/run/Simulation.h"
#include "tb/tests/ExactEnergy.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"

namespace ssd {
namespace {

using tb::IoOp;

using test::expect_rel;
using test::state_j;

// The small drive with a link of exactly 16 us per 4 KB page (see EnergyTest.cpp).
config::DriveConfig small_drive() {
  config::DriveConfig cfg = test::shipped("small_gc");
  cfg.host.link_mb_per_s = 256;
  return cfg;
}

// One 4 KB write to page 0 at `at_us`; its latency and the report.
struct OneWrite {
  nlohmann::ordered_json rep;
  double latency_us = 0;
};

OneWrite write_at(const config::DriveConfig& cfg, double at_us) {
  tb::VectorSource src({test::request(at_us, IoOp::Write, 0, 4096)});
  tb::RunOptions opts;
  opts.series = false;
  OneWrite w;
  w.rep = tb::run_simulation(cfg, src, opts).report;
  EXPECT_EQ(w.rep["latency_us"]["write"]["count"].get<uint64_t>(), 1u);
  w.latency_us = w.rep["latency_us"]["write"]["max"].get<double>();
  return w;
}

// The write's latency on an idle drive with no low-power state, in us (EnergyTest.cpp's
// SingleWriteEnergy): link, controller (decode, FTL step, three table accesses, command
// issue), the page's transfer on the channel and its program.
struct Baseline {
  explicit Baseline(const config::DriveConfig& cfg)
      : link(4096 / cfg.host.link_mb_per_s),
        dram(3 * cfg.dram.t_access_ns * 1e-3),
        ctrl(cfg.controller.t_fw_per_cmd_us + cfg.controller.t_fw_per_page_us +
             cfg.controller.t_cmd_issue_us + dram),
        xfer(4096 * cfg.flash.bus_ns_per_byte * 1e-3),
        prog(cfg.flash.t_prog_us),
        latency(link + ctrl + xfer + prog) {}
  double link, dram, ctrl, xfer, prog, latency;
};

// Three link states in the SATA pattern; the exits differ so that each is recognisable.
config::DriveConfig with_link_states() {
  config::DriveConfig cfg = small_drive();
  cfg.host.i_idle_ma = 20;
  cfg.host.link_states = {{"partial", 50, 100, 1, 10, "test"},
                          {"slumber", 20, 1000, 10, 2000, "test"},
                          {"devsleep", 5, 5000, 100, 20000, "test"}};
  return cfg;
}

// The link idles from time 0: partial is entered at 100 us and reached at 101, slumber at
// 101 + 1000 = 1101 (reached 1111), devsleep at 1111 + 5000 = 6111 (reached 6211).
struct LinkCase {
  double at_us;
  int state;  // -1: the link is up
};

std::string link_case_name(const ::testing::TestParamInfo<LinkCase>& info) {
  static const char* const kNames[] = {"up", "partial", "slumber", "devsleep"};
  return kNames[info.param.state + 1];
}

class LinkExit : public ::testing::TestWithParam<LinkCase> {};

TEST_P(LinkExit, LatencyGrowsByTheStateExitLatency) {
  const config::DriveConfig cfg = with_link_states();
  const LinkCase c = GetParam();
  const OneWrite w = write_at(cfg, c.at_us);
  const double exit = c.state < 0 ? 0.0 : cfg.host.link_states[std::size_t(c.state)].t_exit_us;
  EXPECT_NEAR(w.latency_us, Baseline(cfg).latency + exit, 1e-6);
  const auto& states = w.rep["low_power"]["host_link"]["states"];
  for (int k = 0; k < 3; ++k)
    EXPECT_EQ(states[std::size_t(k)]["wakes"].get<uint64_t>(), k == c.state ? 1u : 0u) << k;
  expect_rel(w.rep["low_power"]["host_link"]["wake_wait_s"].get<double>(), exit * 1e-6);
}

INSTANTIATE_TEST_SUITE_P(EachState, LinkExit,
                         ::testing::Values(LinkCase{50, -1}, LinkCase{500, 0}, LinkCase{3000, 1},
                                           LinkCase{10000, 2}),
                         link_case_name);

TEST(LinkPower, WriteDuringEntryWaitsForTheStateThenItsExit) {
  const config::DriveConfig cfg = with_link_states();
  // Slumber is being entered over [1101, 1111): the command waits 6 us, then 2000.
  const OneWrite w = write_at(cfg, 1105);
  EXPECT_NEAR(w.latency_us, Baseline(cfg).latency + 6 + 2000, 1e-6);
}

TEST(LinkPower, EnergyPerStateFollowsTheStateMachine) {
  const config::DriveConfig cfg = with_link_states();
  const Baseline b(cfg);
  const double at = 3000, exit = 2000;
  const OneWrite w = write_at(cfg, at);
  // Done at E; the link then idles into devsleep again, reached at E + 6211: the run ends.
  const double e = at + exit + b.latency;
  const double span = e + 6211;
  expect_rel(w.rep["energy_span_s"].get<double>(), span * 1e-6);
  // Partial: [101, 1111) twice (the entry into slumber draws partial's power). Slumber:
  // [1111, 3000), then [E + 1111, E + 6211). Devsleep: reached as the run ends.
  const double partial = 2 * 1010, slumber = (at - 1111) + 5100;
  const double v = cfg.host.voltage_v;
  expect_rel(state_j(w.rep, "host_if", "low1"), 50e-3 * partial * 1e-6);
  expect_rel(state_j(w.rep, "host_if", "low2"), 20e-3 * slumber * 1e-6);
  EXPECT_EQ(state_j(w.rep, "host_if", "low3"), 0.0);
  // Idle: the rest, the exit included; the link moved the page for b.link.
  expect_rel(state_j(w.rep, "host_if", "idle"),
             20e-3 * v * (span - partial - slumber - b.link) * 1e-6);
  expect_rel(state_j(w.rep, "host_if", "transfer"),
             cfg.host.i_transfer_ma * 1e-3 * v * b.link * 1e-6);
  const auto& states = w.rep["low_power"]["host_link"]["states"];
  EXPECT_EQ(states[0]["entries"].get<uint64_t>(), 2u);
  EXPECT_EQ(states[1]["entries"].get<uint64_t>(), 2u);
  EXPECT_EQ(states[2]["entries"].get<uint64_t>(), 1u);
  expect_rel(states[1]["time_s"].get<double>(), slumber * 1e-6);
  expect_rel(states[1]["energy_j"].get<double>(), 20e-3 * slumber * 1e-6);
  // Low-power time is not busy time.
  expect_rel(w.rep["utilisation"]["host_link"]["busy"].get<double>(), b.link / span);
}

TEST(LinkPower, FullDuplexSplitsTheStatePowerBetweenTheDirections) {
  config::DriveConfig cfg = with_link_states();
  cfg.host.full_duplex = true;
  const OneWrite w = write_at(cfg, 500);
  EXPECT_NEAR(w.latency_us, Baseline(cfg).latency + 10, 1e-6);
  const double e = 500 + 10 + Baseline(cfg).latency;
  // Partial [101, 500) and [E + 101, E + 1111); each direction draws half.
  const double partial = (500 - 101) + 1010;
  for (const char* lane : {"host_if.to_device", "host_if.to_host"})
    expect_rel(state_j(w.rep, lane, "low1"), 25e-3 * partial * 1e-6);
  expect_rel(w.rep["low_power"]["host_link"]["states"][0]["energy_j"].get<double>(),
             50e-3 * partial * 1e-6);
  expect_rel(w.rep["energy_span_s"].get<double>(), (e + 6211) * 1e-6);
}

TEST(DramSelfRefresh, EntryAfterTheIdleTimeAndExitLatency) {
  config::DriveConfig cfg = small_drive();
  cfg.dram.self_refresh = {true, 200, 2, 5, 2};
  const Baseline b(cfg);
  const double at = 1000;
  const OneWrite w = write_at(cfg, at);
  // The DRAM idles from 0: in self-refresh from 202. The first table access comes after
  // the link, decode and FTL step; it waits 5 us, the write with it.
  EXPECT_NEAR(w.latency_us, b.latency + 5, 1e-6);
  const auto& c = cfg.controller;
  const double wake = at + b.link + c.t_fw_per_cmd_us + c.t_fw_per_page_us;
  const double last = wake + 5 + b.dram;  // the last access ends
  const double e = at + b.latency + 5;
  ASSERT_GT(e, last + 202);  // in self-refresh again before the program ends
  const double sr = (wake - 202) + (e - (last + 202));
  const auto& d = cfg.dram;
  expect_rel(w.rep["energy_span_s"].get<double>(), e * 1e-6);
  expect_rel(state_j(w.rep, "dram", "self_refresh"), 2e-3 * d.voltage_v * sr * 1e-6);
  expect_rel(state_j(w.rep, "dram", "active"), d.i_active_ma * 1e-3 * d.voltage_v * b.dram * 1e-6);
  expect_rel(state_j(w.rep, "dram", "idle"),
             d.i_idle_ma * 1e-3 * d.voltage_v * (e - sr - b.dram) * 1e-6);
  const auto& lp = w.rep["low_power"]["dram_self_refresh"];
  EXPECT_EQ(lp["entries"].get<uint64_t>(), 2u);
  expect_rel(lp["time_s"].get<double>(), sr * 1e-6);
  expect_rel(lp["wake_wait_s"].get<double>(), 5e-6);
}

TEST(DiePowerDown, PoweredDownDiePaysExactlyTheWakeUp) {
  config::DriveConfig cfg = small_drive();
  cfg.flash.i_off_ma = 0.5;
  cfg.flash.die_power_down = {true, config::PowerDownScope::Die, 300, 25};
  const Baseline b(cfg);
  const double at = 1000;
  const OneWrite w = write_at(cfg, at);
  EXPECT_NEAR(w.latency_us, b.latency + 25, 1e-6);
  // Every die goes off at 300. The command reaches ch0.w0d0 at A; it wakes for 25 us at
  // idle current, moves the page in and programs; it rests from E and goes off at E + 300,
  // where the run ends.
  const double a = at + b.link + b.ctrl;
  const double e = a + 25 + b.xfer + b.prog;
  const double span = e + 300;
  expect_rel(w.rep["energy_span_s"].get<double>(), span * 1e-6);
  const auto& f = cfg.flash;
  const double k = f.voltage_v * 1e-3 * 1e-6;  // mA x us to J
  expect_rel(state_j(w.rep, "ch0.w0d0", "idle"), f.i_idle_ma * (300 + 25 + 300) * k);
  expect_rel(state_j(w.rep, "ch0.w0d0", "off"), f.i_off_ma * (a - 300) * k);
  expect_rel(state_j(w.rep, "ch0.w0d0", "transfer"), f.i_transfer_ma * b.xfer * k);
  expect_rel(state_j(w.rep, "ch0.w0d0", "program"), f.i_prog_ma * b.prog * k);
  for (const char* die : {"ch1.w0d0", "ch0.w1d0", "ch1.w1d0"}) {
    expect_rel(state_j(w.rep, die, "idle"), f.i_idle_ma * 300 * k);
    expect_rel(state_j(w.rep, die, "off"), f.i_off_ma * (span - 300) * k);
  }
  const auto& lp = w.rep["low_power"]["die_power_down"];
  EXPECT_EQ(lp["power_downs"].get<uint64_t>(), 5u);
  EXPECT_EQ(lp["wakes"].get<uint64_t>(), 1u);
  expect_rel(lp["off_die_s"].get<double>(), ((a - 300) + 3 * (span - 300)) * 1e-6);
}

TEST(DiePowerDown, ChannelScopeSwitchesTheChannelsDiesTogether) {
  config::DriveConfig cfg = small_drive();
  cfg.flash.i_off_ma = 0.5;
  cfg.flash.die_power_down = {true, config::PowerDownScope::Channel, 300, 25};
  const Baseline b(cfg);
  const OneWrite w = write_at(cfg, 1000);
  EXPECT_NEAR(w.latency_us, b.latency + 25, 1e-6);
  // Channel 0's two dies wake together at A; the one with no work rests from A + 25, the
  // other from E: both go off at E + 300, where the run ends. Channel 1 stays off from 300.
  const double a = 1000 + b.link + b.ctrl;
  const double e = a + 25 + b.xfer + b.prog;
  const double span = e + 300;
  expect_rel(w.rep["energy_span_s"].get<double>(), span * 1e-6);
  const auto& f = cfg.flash;
  const double k = f.voltage_v * 1e-3 * 1e-6;  // mA x us to J
  expect_rel(state_j(w.rep, "ch0.w0d0", "idle"), f.i_idle_ma * (300 + 25 + 300) * k);
  expect_rel(state_j(w.rep, "ch0.w1d0", "idle"), f.i_idle_ma * (300 + span - a) * k);
  expect_rel(state_j(w.rep, "ch0.w1d0", "off"), f.i_off_ma * (a - 300) * k);
  for (const char* die : {"ch1.w0d0", "ch1.w1d0"})
    expect_rel(state_j(w.rep, die, "off"), f.i_off_ma * (span - 300) * k);
  const auto& lp = w.rep["low_power"]["die_power_down"];
  EXPECT_EQ(lp["power_downs"].get<uint64_t>(), 6u);
  EXPECT_EQ(lp["wakes"].get<uint64_t>(), 2u);
}

TEST(DiePowerDown, DieBusyWithinItsIdleTimeStaysOn) {
  config::DriveConfig cfg = small_drive();
  cfg.flash.die_power_down = {true, config::PowerDownScope::Die, 5000, 25};
  const OneWrite w = write_at(cfg, 1000);
  EXPECT_NEAR(w.latency_us, Baseline(cfg).latency, 1e-6);
  EXPECT_EQ(w.rep["low_power"]["die_power_down"]["wakes"].get<uint64_t>(), 0u);
}

// t_wake_us 0: a die woken by a command starts it in the same instant. The wake once left it
// holding until "now" with no event to end the hold, and the run stopped silently at the first
// command to reach a die that was off (found by the combination soak).
TEST(DiePowerDown, InstantWakeStartsTheCommandAtOnce) {
  config::DriveConfig cfg = small_drive();
  cfg.flash.die_power_down = {true, config::PowerDownScope::Die, 300, 0};
  const OneWrite w = write_at(cfg, 1000);
  EXPECT_NEAR(w.latency_us, Baseline(cfg).latency, 1e-6);
  EXPECT_EQ(w.rep["low_power"]["die_power_down"]["wakes"].get<uint64_t>(), 1u);
}

TEST(DiePowerDown, InstantWakeCompletesEveryRequestUnderBothScopes) {
  for (const auto scope : {config::PowerDownScope::Die, config::PowerDownScope::Channel}) {
    config::DriveConfig cfg = small_drive();
    cfg.flash.die_power_down = {true, scope, 50, 0};
    // Bursts of 20 with 10 ms between them: every die goes off between bursts.
    tb::VectorSource src(test::hot_mix(400, 3, 2000, 20, 10000));
    tb::RunOptions opts;
    opts.series = false;
    const tb::RunResult r = tb::run_simulation(cfg, src, opts);
    EXPECT_EQ(r.report["requests"]["count"].get<uint64_t>(), 400u) << config::to_string(scope);
    EXPECT_GT(r.report["low_power"]["die_power_down"]["wakes"].get<uint64_t>(), 20u);
    EXPECT_TRUE(r.data_intact);
  }
}

TEST(LowPower, OffByDefaultAndAbsentFromTheReport) {
  const OneWrite w = write_at(small_drive(), 1000);
  EXPECT_FALSE(w.rep.contains("low_power"));
  EXPECT_NEAR(w.latency_us, Baseline(small_drive()).latency, 1e-6);
}

std::string error_of(const std::string& key, const nlohmann::json& value,
                     const std::string& extra_key = "", const nlohmann::json& extra = {}) {
  nlohmann::json doc = config::read_config_json(test::source_path("configs/small_gc.json"));
  doc[nlohmann::json::json_pointer(key)] = value;
  if (!extra_key.empty()) doc[nlohmann::json::json_pointer(extra_key)] = extra;
  try {
    config::parse_drive_config(doc, "t.json");
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted " << key;
  return "";
}

// The error for host.link_states = `states`.
std::string link_error(const std::vector<nlohmann::json>& states) {
  return error_of("/host/link_states", nlohmann::json(states));
}

TEST(LowPowerConfig, BadValuesNameTheirKey) {
  const nlohmann::json state = {{"name", "partial"}, {"p_mw", 50},      {"idle_us", 100},
                                {"t_entry_us", 1},   {"t_exit_us", 10}, {"source", "x"}};
  const auto with = [&](const char* key, const nlohmann::json& value) {
    nlohmann::json s = state;
    if (value.is_null())
      s.erase(key);
    else
      s[key] = value;
    return s;
  };
  const auto has = [](const std::string& msg, const char* text) {
    return msg.find(text) != std::string::npos;
  };
  EXPECT_TRUE(has(link_error({with("name", "Partial!")}), "host.link_states[0].name"));
  EXPECT_TRUE(has(link_error({with("idle_us", 0)}), "host.link_states[0].idle_us"));
  EXPECT_TRUE(has(link_error({state, state}), "names two states"));
  EXPECT_TRUE(has(link_error({state, state, state, state}), "at most 3"));
  EXPECT_TRUE(has(link_error({with("source", nullptr)}), "host.link_states[0].source"));
  EXPECT_TRUE(has(error_of("/dram/self_refresh", {{"enabled", true}, {"idle_us", 0}}),
                  "dram.self_refresh.idle_us"));
  EXPECT_TRUE(has(
      error_of("/flash/die_power_down", {{"enabled", true}}, "/flash/idle_policy", "off_when_idle"),
      "flash.die_power_down.enabled"));
  EXPECT_TRUE(has(error_of("/flash/die_power_down", {{"enabled", true}, {"t_wake_us", -1}}),
                  "flash.die_power_down.t_wake_us"));
  EXPECT_TRUE(
      has(error_of("/flash/die_power_down", {{"scope", "package"}}), "flash.die_power_down.scope"));
}

}  // namespace
}  // namespace ssd
