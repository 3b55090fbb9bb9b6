// A config with several errors gets every one in one message, a line each naming the file
// and the key (config/json/Problems.h): the values that cannot be read, then the rules broken;
// a rule waits for the values it reads to be sound.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "config/json/Problems.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

// Every key read wrong is named, each read as far as it goes: a typo, a wrong type, a value
// out of range, a list item that is not an object (no "required key" noise for it).
TEST(ConfigProblems, ValuesThatCannotBeReadComeTogether) {
  EXPECT_EQ(test::config_error(R"({"name": "d", "flash": {"t_raed_us": 50, "channels": "4"},
                                    "ftl": {"overprovisioning": 2, "type": "pgae"},
                                    "power": {"rails": [5]}, "controler": {}})"),
            "t.json: flash.channels: expected an integer, got string \"4\"\n"
            "t.json: flash.t_raed_us: unknown key; did you mean \"t_read_us\"?\n"
            "t.json: ftl.type: unknown FTL type \"pgae\" (known: page, dftl, block, bast, "
            "bast_star, fast, last); did you mean \"page\"?\n"
            "t.json: ftl.overprovisioning: must be in [0, 0.9)\n"
            "t.json: power.rails[0]: expected an object, got number 5\n"
            "t.json: controler: unknown key; did you mean \"controller\"?");
  EXPECT_EQ(test::config_error("[1]"), "t.json: (top level): expected an object, got array");
}

// One message holds at most 20 problems, then says how many more.
TEST(ConfigProblems, AMessageHoldsTwentyThenCounts) {
  nlohmann::json doc = {{"name", "d"}};
  for (int i = 0; i < 25; ++i) doc["k" + std::to_string(i)] = i;
  const std::string e = test::config_error(doc.dump());
  EXPECT_EQ(std::count(e.begin(), e.end(), '\n'), 20) << e;
  EXPECT_NE(e.find("\nt.json: and 5 more"), std::string::npos) << e;
}

// Switching the 1 TB drive to the block FTL breaks five rules (the FTL section's and the
// mapping unit's): one message, a line each, instead of five attempts.
TEST(ConfigProblems, SeveralErrorsComeInOneMessage) {
  nlohmann::json doc = config::to_json(test::shipped("nvme_tlc_1tb"));
  doc["ftl"]["type"] = "block";
  try {
    config::parse_drive_config(doc, "t.json");
    FAIL() << "accepted";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(),
                 "t.json: ftl.gc_mode: only the page and dftl FTLs collect incrementally\n"
                 "t.json: ftl.allocation: only the page and dftl FTLs choose an allocation order\n"
                 "t.json: ftl.slc_cache_blocks_per_plane: only the page and dftl FTLs keep an "
                 "SLC cache\n"
                 "t.json: ftl.slc_dynamic: only the page and dftl FTLs keep an SLC cache\n"
                 "t.json: ftl.mapping_unit_bytes: units smaller than the page (16384 bytes) need "
                 "ftl.type page or dftl");
  }
  // On the command line, each its own error line.
  std::string out;
  EXPECT_EQ(test::run_cli("--config " + test::source_path("configs/nvme_tlc_1tb.json") +
                              " --set ftl.type=block --dump-config",
                          out),
            1);
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 5) << out;
  for (const char* key : {"ftl.gc_mode", "ftl.allocation", "ftl.slc_cache_blocks_per_plane",
                          "ftl.slc_dynamic", "ftl.mapping_unit_bytes"})
    EXPECT_NE(out.find("ssdtlm: error: " + test::source_path("configs/nvme_tlc_1tb.json") +
                       " with --set: " + key + ": "),
              std::string::npos)
        << out;
}

// The controller's rules (cycles need a clock; a gated core waits a while and draws less
// than an idle one) come with the others.
TEST(ConfigProblems, ControllerRulesComeTogether) {
  EXPECT_EQ(test::config_error(R"({"name": "d", "controller": {"i_idle_ma": 10,
            "cycles": {"ftl_step": 100},
            "clock_gating": {"enabled": true, "idle_us": 0, "i_gated_ma": 11}}})"),
            "t.json: controller.cycles.ftl_step: needs controller.clock_mhz (the cycles' clock)\n"
            "t.json: controller.clock_gating.idle_us: must be positive when clock gating is "
            "enabled\n"
            "t.json: controller.clock_gating.i_gated_ma: is above controller.i_idle_ma: a core "
            "whose clock is stopped draws less than an idle one");
}

// Rules that read values another rule found unsound wait for them: a flash geometry beyond
// the address space is reported, not the model's memory worked out from it.
TEST(ConfigProblems, RulesOnUnsoundValuesWait) {
  nlohmann::json doc = config::to_json(test::shipped("small_gc"));
  doc["flash"]["blocks_per_plane"] = 1u << 30;
  doc["ftl"]["type"] = "last";
  EXPECT_EQ(test::config_error(doc.dump()).find('\n'), std::string::npos)
      << test::config_error(doc.dump());
}

}  // namespace
}  // namespace ssd
