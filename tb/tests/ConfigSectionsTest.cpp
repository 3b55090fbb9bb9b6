// The config sections' own rules (docs/config.md): the SLC cache, the supply rails,
// regulators and power analyser, the controller's issue order and the host's queues; each
// mistake named with its key path.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "config/DriveConfig.h"
#include "tb/tests/TestUtil.h"

namespace {

using nlohmann::json;
using ssd::test::config_error;

TEST(ConfigSlcCache, RulesNameTheKey) {
  EXPECT_EQ(config_error(R"({"name": "d", "ftl": {"slc_cache_blocks_per_plane": 4}})"),
            "t.json: ftl.slc_cache_blocks_per_plane: an SLC cache needs flash.cell_type mlc, tlc "
            "or qlc");
  EXPECT_EQ(config_error(R"({"name": "d", "flash": {"cell_type": "tlc"},
                         "ftl": {"slc_cache_blocks_per_plane": 4}})"),
            "t.json: ftl.slc_cache_blocks_per_plane: flash.pages_per_block 128 is not a whole "
            "number of tlc word lines (3 pages each)");
  EXPECT_EQ(
      config_error(R"({"name": "d", "flash": {"cell_type": "tlc", "pages_per_block": 96},
                         "ftl": {"type": "fast", "slc_cache_blocks_per_plane": 4}})"),
      "t.json: ftl.slc_cache_blocks_per_plane: only the page and dftl FTLs keep an SLC cache");
  EXPECT_EQ(config_error(R"({"name": "d", "ftl": {"slc_fold": "sometimes"}})"),
            "t.json: ftl.slc_fold: unknown SLC fold policy \"sometimes\" (known: idle, on_full)");
  // 300 blocks on each of 2 planes leave too few of the 409 spare blocks per die.
  const std::string big =
      config_error(R"({"name": "d", "flash": {"cell_type": "tlc", "pages_per_block": 96},
                                       "ftl": {"slc_cache_blocks_per_plane": 300}})");
  EXPECT_NE(big.find("t.json: ftl.overprovisioning: 0.1 leaves 409 spare blocks per die"),
            std::string::npos)
      << big;
  EXPECT_NE(big.find("the SLC cache takes 600 blocks per die"), std::string::npos) << big;
}

// Supply rails and regulators (docs/config.md#power): each mistake named with its rule.
TEST(ConfigPower, RailsAndRegulatorsAreChecked) {
  EXPECT_EQ(config_error(R"({"name": "d", "power": {"rails": []}})"),
            "t.json: power.rails: needs at least 1 entry");
  EXPECT_EQ(config_error(R"({"name": "d", "power": {"rails": [{"voltage_v": 5}]}})"),
            "t.json: power.rails[0].name: required key is missing");
  // Every regulator names a rail ("5v" unless said): all five lines name the rail they miss.
  const auto no_rail = [](const std::string& rails) {
    std::string lines;
    for (const char* group : {"host_interface", "controller", "dram", "channel", "nand"})
      lines += std::string("\nt.json: power.regulators.") + group +
               ".rail: no rail named \"5v\" (rails: " + rails + ")";
    return lines;
  };
  EXPECT_EQ(
      config_error(R"({"name": "d", "power": {"rails": [{"name": "5 V"}]}})"),
      "t.json: power.rails[0].name: must be 1 to 16 characters of a-z, 0-9 and _, got \"5 V\"" +
          no_rail("5 V"));
  EXPECT_EQ(config_error(R"({"name": "d", "power": {"rails": [{"name": "a"}, {"name": "a"}]}})"),
            "t.json: power.rails[1].name: \"a\" names two rails" + no_rail("a, a"));
  // A host link state's name is a report key, under the same rule.
  EXPECT_EQ(config_error(R"({"name": "d", "host": {"link_states": [{"name": "L1_with_a_long_name",
            "p_mw": 1, "idle_us": 1, "t_entry_us": 1, "t_exit_us": 1, "source": "s"}]}})"),
            "t.json: host.link_states[0].name: must be 1 to 16 characters of a-z, 0-9 and _, "
            "got \"L1_with_a_long_name\"");
  EXPECT_EQ(
      config_error(R"({"name": "d", "power": {"rails": [{"name": "a", "i_baseline_ma": -1}]}})"),
      "t.json: power.rails[0].i_baseline_ma: must be in [0, 100000]");
  EXPECT_EQ(
      config_error(R"({"name": "d", "power": {"rails": [{"name": "12v", "voltage_v": 12}]}})"),
      no_rail("12v").substr(1));
  EXPECT_EQ(config_error(R"({"name": "d", "power": {"regulators": {"nand": {"efficiency": 0}}}})"),
            "t.json: power.regulators.nand.efficiency: must be in (0, 1]");
  EXPECT_EQ(config_error(R"({"name": "d", "power": {"regulators": {"disk": {}}}})"),
            "t.json: power.regulators.disk: unknown key");
  EXPECT_EQ(
      config_error(R"({"name": "d", "power": {"regulators": {"nand": {"currents_at": "die"}}}})"),
      "t.json: power.regulators.nand.currents_at: unknown current reference \"die\" (known: "
      "supply, rail)");
  EXPECT_EQ(config_error(R"({"name": "d", "power": {"regulators": {"nand": {"currents_at": "rail",
                                                                     "efficiency": 0.9}}}})"),
            "t.json: power.regulators.nand.efficiency: must be 1 with currents_at \"rail\": a "
            "current measured at the rail already includes the regulator's loss (got 0.9)");
}

// controller.issue_order: an enum of two spellings, the key named for anything else; the
// founding study's configs issue in order, the modern ones queue per die.
TEST(ConfigController, IssueOrder) {
  EXPECT_EQ(config_error(R"({"name": "d", "controller": {"issue_order": "fifo"}})"),
            "t.json: controller.issue_order: unknown issue order \"fifo\" (known: per_die_queues, "
            "in_order)");
  const auto parsed = ssd::config::parse_drive_config(
      json::parse(R"({"name": "d", "controller": {"issue_order": "in_order"}})"), "x");
  EXPECT_EQ(parsed.controller.issue_order, ssd::config::IssueOrder::InOrder);
  using ssd::config::IssueOrder;
  for (const char* name :
       {"x25m", "default", "x25m_lowpower", "case_2x8", "case_4x4", "case_8x2", "case_16x1"})
    EXPECT_EQ(ssd::test::shipped(name).controller.issue_order, IssueOrder::InOrder) << name;
  for (const char* name :
       {"nvme_tlc_1tb", "nvme_tlc_1tb_apst", "pcie_many_resource", "small_gc", "lifetime_small"})
    EXPECT_EQ(ssd::test::shipped(name).controller.issue_order, IssueOrder::PerDieQueues) << name;
}

// Cycle costs take time at the core's clock, added to the microsecond costs.
TEST(ConfigController, CyclesAtTheClock) {
  EXPECT_EQ(config_error(R"({"name": "d", "controller": {"cycles": {"ftl_step": 500}}})"),
            "t.json: controller.cycles.ftl_step: needs controller.clock_mhz (the cycles' clock)");
  EXPECT_EQ(config_error(R"({"name": "d", "controller": {"clock_mhz": 1,
                         "cycles": {"flash_command": 2e6}}})"),
            "t.json: controller.cycles.flash_command: takes over a second at "
            "controller.clock_mhz");
  EXPECT_EQ(config_error(R"({"name": "d", "controller": {"cycles": {"steps": 1}}})")
                .rfind("t.json: controller.cycles.steps: unknown key", 0),
            0u);
  const auto c =
      ssd::config::parse_drive_config(json::parse(R"({"name": "d", "controller": {"clock_mhz": 400,
                         "t_cmd_issue_us": 3, "t_fw_per_cmd_us": 1, "t_fw_per_page_us": 0,
                         "cycles": {"host_command": 2000, "ftl_step": 800,
                                    "flash_command": 4000}}})"),
                                      "x")
          .controller;
  EXPECT_DOUBLE_EQ(c.fw_per_cmd_us(), 1 + 5);
  EXPECT_DOUBLE_EQ(c.fw_per_page_us(), 2);
  EXPECT_DOUBLE_EQ(c.cmd_issue_us(), 3 + 10);
  // Without a clock the microsecond keys alone (every shipped config).
  const auto x25m = ssd::test::shipped("x25m").controller;
  EXPECT_EQ(x25m.clock_mhz, 0);
  EXPECT_EQ(x25m.cmd_issue_us(), x25m.t_cmd_issue_us);
  EXPECT_EQ(x25m.fw_per_page_us(), x25m.t_fw_per_page_us);
}

// currents_at rail: the group's components are built at the rail's voltage (the other groups
// and the configured voltages are left as they are).
TEST(ConfigPower, CurrentsAtTheRailTakeItsVoltage) {
  auto c = ssd::config::parse_drive_config(
      json::parse(R"({"name": "d", "power": {"rails": [{"name": "5v", "voltage_v": 5}],
                       "regulators": {"nand": {"currents_at": "rail"}}}})"),
      "x");
  const auto at = ssd::config::referred_to_rails(c);
  EXPECT_EQ(at.flash.voltage_v, 5.0);
  EXPECT_EQ(at.flash.bus_voltage_v, c.flash.bus_voltage_v);
  EXPECT_EQ(at.controller.voltage_v, c.controller.voltage_v);
  EXPECT_EQ(c.flash.voltage_v, 3.3);
}

TEST(ConfigPower, AnalyserSettingsAreChecked) {
  EXPECT_EQ(config_error(R"({"name": "d", "power": {"peak_windows_us": [100, 1]}})"),
            "t.json: power.peak_windows_us[1]: must be greater than the entry before (100)");
  EXPECT_EQ(config_error(R"({"name": "d", "power": {"peak_windows_us": [0]}})"),
            "t.json: power.peak_windows_us[0]: must be in [0.001, 3600000000]");
  EXPECT_EQ(config_error(R"({"name": "d", "power": {"current_levels_ma": [0]}})"),
            "t.json: power.current_levels_ma[0]: must be in (0, 1000000000]");
  EXPECT_EQ(
      config_error(R"({"name": "d", "power": {"peak_windows_us": [1, 2, 3, 4, 5, 6, 7, 8, 9]}})"),
      "t.json: power.peak_windows_us: has 9 entries; at most 8");
}

// A config that still gives the single supply voltage of before is told where it went.
TEST(ConfigPower, DriveVoltageIsNowTheFirstRail) {
  EXPECT_EQ(config_error(R"({"name": "d", "power": {"drive_voltage_v": 5}})"),
            "t.json: power.drive_voltage_v: replaced by power.rails[0].voltage_v (the main rail)");
}

// Host queues and arbitration (docs/config.md#host): each mistake named with its rule.
TEST(ConfigHostQueues, MistakesAreNamed) {
  const std::string nvme = R"({"name": "d", "host": {"interface": "nvme", )";
  EXPECT_EQ(config_error(nvme + R"("arbitration": "fifo"}})"),
            "t.json: host.arbitration: unknown arbitration \"fifo\" (known: round_robin, "
            "weighted_round_robin)");
  EXPECT_EQ(config_error(nvme + R"("queues": [{"depth": 8, "priority": "top"}]}})"),
            "t.json: host.queues[0].priority: unknown queue priority \"top\" (known: urgent, "
            "high, medium, low)");
  EXPECT_EQ(config_error(nvme + R"("queues": [{"depth": 0}]}})"),
            "t.json: host.queues[0].depth: must be in [1, 65536]");
  EXPECT_EQ(config_error(nvme + R"("arbitration_burst": 3}})"),
            "t.json: host.arbitration_burst: must be a power of two up to 128, or 0 for no "
            "limit, got 3");
  EXPECT_EQ(config_error(nvme + R"("wrr_weights": {"high": 0}}})"),
            "t.json: host.wrr_weights.high: must be in [1, 256]");
  EXPECT_EQ(config_error(R"({"name": "d", "host": {"interface": "usb"}})"),
            "t.json: host.interface: unknown host interface \"usb\" (known: sata, nvme)");
  EXPECT_EQ(config_error(R"({"name": "d", "host": {"interface": "sata", "queue_depth": 64}})"),
            "t.json: host.queue_depth: SATA NCQ holds at most 32 commands, got 64");
  EXPECT_EQ(config_error(R"({"name": "d", "host": {"interface": "sata", "queues": [{"depth": 8},
                         {"depth": 8}]}})"),
            "t.json: host.queues: SATA has one command queue, got 2");
}

}  // namespace
