// The config's key table (config::config_key_table, `ssdtlm config-keys`): the keys the field
// tables hold, each with the range and choices the reader enforces, so a tool generating
// configs from it (the combination soak, tools/ssdtlm_tools/soak.py) writes what the reader
// takes.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "config/Overrides.h"
#include "tb/tests/TestUtil.h"

namespace ssd::test {
namespace {

const nlohmann::ordered_json& table() {
  static const nlohmann::ordered_json t = config::config_key_table();
  return t;
}

// The reader's message for configs/default.json with `key` set to `value`; nullopt if accepted.
std::optional<std::string> error_with(const std::string& key, const nlohmann::json& value) {
  nlohmann::json doc = config::read_config_json(source_path("configs/default.json"));
  config::apply_override(doc, key + "=" + value.dump());
  try {
    config::parse_drive_config(doc, "t.json");
  } catch (const ConfigError& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

// A refusal by the key's own range (Bounds::rule, or an integer type's limit), not by a rule
// the key shares with others.
bool refused_by_range(const std::optional<std::string>& err, const std::string& key) {
  if (!err || err->rfind("t.json: " + key + ": must be ", 0) != 0) return false;
  const std::string rule = err->substr(std::string("t.json: " + key + ": must be ").size());
  for (const char* start : {"in [", "in (", "at least ", "greater than ", "at most "})
    if (rule.rfind(start, 0) == 0) return true;
  return false;
}

// Scalar keys outside lists: the ones --set reaches by their path as listed.
bool scalar(const nlohmann::ordered_json& e) {
  const std::string type = e["type"].get<std::string>();
  return e["key"].get<std::string>().find("[i]") == std::string::npos &&
         (type == "integer" || type == "number" || type == "bool" || type == "choice");
}

TEST(ConfigKeys, TableListsTheFieldTablesKeysInOrder) {
  std::vector<std::string> keys;
  for (const auto& e : table()) keys.push_back(e["key"].get<std::string>());
  EXPECT_EQ(keys, config::config_keys());
  const auto find = [](const std::string& key) {
    for (const auto& e : table())
      if (e["key"] == key) return e;
    ADD_FAILURE() << "no " << key;
    return nlohmann::ordered_json();
  };
  EXPECT_EQ(find("ftl.type").dump(),
            R"({"key":"ftl.type","type":"choice","default":"page","choices":["page","dftl",)"
            R"("block","bast","bast_star","fast","last"]})");
  EXPECT_EQ(find("flash.t_prog_us").dump(),
            R"({"key":"flash.t_prog_us","type":"number","default":900.0,"min":0.0,)"
            R"("min_open":true,"max":1000000.0})");
  EXPECT_EQ(find("flash.channels").dump(),
            R"({"key":"flash.channels","type":"integer","default":10,"min":1,"max":4294967295})");
  EXPECT_EQ(find("ftl.overprovisioning")["max_open"], true);
  EXPECT_EQ(find("power.rails").dump(),
            R"({"key":"power.rails","type":"list","default":[{"name":"5v","voltage_v":5.0,)"
            R"("i_baseline_ma":0.0}],"min_items":1})");
  EXPECT_EQ(find("host.queues")["default"], nlohmann::ordered_json::array());
  EXPECT_EQ(find("power.rails[i].name")["required"], true);
  EXPECT_EQ(find("notes")["type"], "comment");
}

// Every choice's default is one of its names, and every name is taken (a cross-section rule
// may refuse it on this drive, never as an unknown name).
TEST(ConfigKeys, EveryChoiceNameIsTaken) {
  for (const auto& e : table()) {
    if (e["type"] != "choice" || !scalar(e)) continue;
    const std::string key = e["key"].get<std::string>();
    bool has_default = false;
    for (const auto& name : e["choices"]) {
      has_default = has_default || name == e["default"];
      const std::optional<std::string> err = error_with(key, name);
      EXPECT_TRUE(!err || err->find("unknown") == std::string::npos) << key << ": " << *err;
    }
    EXPECT_TRUE(has_default) << key;
  }
}

// The listed range is the reader's: each closed end is taken (or refused by another rule,
// never by the key's range), and the value just beyond each end is refused by the range.
TEST(ConfigKeys, RangesAreTheReadersRanges) {
  int ends = 0;
  for (const auto& e : table()) {
    if (!scalar(e) || (e["type"] != "integer" && e["type"] != "number")) continue;
    const std::string key = e["key"].get<std::string>();
    const bool integer = e["type"] == "integer";
    for (const char* end : {"min", "max"}) {
      if (!e.contains(end)) continue;
      const bool low = std::string(end) == "min";
      const bool open = e.value(std::string(end) + "_open", false);
      if (integer) {
        const uint64_t at = e[end].get<uint64_t>();
        EXPECT_FALSE(refused_by_range(error_with(key, at), key)) << key << " = " << at;
        if (low && at > 0) {
          EXPECT_TRUE(refused_by_range(error_with(key, at - 1), key)) << key;
        }
        if (!low && at < std::numeric_limits<uint32_t>::max()) {
          EXPECT_TRUE(refused_by_range(error_with(key, at + 1), key)) << key;
        }
      } else {
        const double at = e[end].get<double>();
        const double beyond = std::nextafter(at, low ? -INFINITY : INFINITY);
        EXPECT_EQ(refused_by_range(error_with(key, at), key), open) << key << " = " << at;
        if (!open) {
          EXPECT_TRUE(refused_by_range(error_with(key, beyond), key)) << key;
        }
      }
      ++ends;
    }
  }
  EXPECT_GT(ends, 150);
}

TEST(ConfigKeys, CommandPrintsTheTable) {
  std::string out;
  ASSERT_EQ(run_cli("config-keys --json", out), 0) << out;
  EXPECT_EQ(nlohmann::ordered_json::parse(out), table());
  ASSERT_EQ(run_cli("config-keys", out), 0) << out;
  EXPECT_NE(out.find("\nftl.type "), std::string::npos) << out;
  EXPECT_NE(out.find(" page  page, dftl, block, bast, bast_star, fast, last\n"), std::string::npos);
  EXPECT_NE(out.find(" 900  (0, 1000000]\n"), std::string::npos);
  EXPECT_EQ(run_cli("config-keys --bogus", out), 2);
  EXPECT_NE(out.find("ssdtlm: error: config-keys: unrecognised option '--bogus'"),
            std::string::npos)
      << out;
  ASSERT_EQ(run_cli("config-keys --help", out), 0);
  EXPECT_NE(out.find("Usage: ssdtlm config-keys [--json]"), std::string::npos) << out;
}

}  // namespace
}  // namespace ssd::test
