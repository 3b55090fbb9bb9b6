// `ssdtlm explain` (tb/run/Explain.h): every key of the field tables explained in
// docs/config.md's words with its range and default, sections listed, an unknown key refused
// with the closest ones.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "tb/run/ConfigDocText.h"
#include "tb/run/Explain.h"
#include "tb/tests/TestUtil.h"

namespace ssd::test {
namespace {

// What an explanation lacks of what every key must be given: its meaning, its default, and a
// unit or range for a key that holds numbers or a choice.
std::vector<std::string> missing(const tb::Explanation& e) {
  std::vector<std::string> out;
  if (e.meaning.empty()) out.emplace_back("meaning");
  if (e.default_value.empty()) out.emplace_back("default");
  const bool numeric =
      e.type == "integer" || e.type == "number" || e.type == "numbers" || e.type == "integers";
  if ((numeric || e.type == "choice") && e.unit.empty() && e.range.empty())
    out.emplace_back("unit or range");
  return out;
}

std::string text_of(const tb::Explanation& e) {
  std::ostringstream out;
  tb::print(e, out);
  return out.str();
}

std::string explained(const tb::Explainer& explainer, const std::string& word) {
  std::ostringstream out;
  explainer.explain(word, out);
  return out.str();
}

// The UsageError explain gives for `word`.
std::string refusal(const std::string& word) {
  try {
    explained(tb::Explainer(tb::config_doc_text()), word);
  } catch (const UsageError& e) {
    return e.what();
  }
  ADD_FAILURE() << "explained: " << word;
  return "";
}

TEST(Explain, BuiltFromTheDocsAsTheyAre) {
  EXPECT_EQ(tb::config_doc_text(), slurp(source_path("docs/config.md")));
}

TEST(Explain, EveryKeyOfTheFieldTables) {
  const tb::Explainer explainer(tb::config_doc_text());
  const std::vector<std::string> keys = config::config_keys();
  ASSERT_GT(keys.size(), 150u);
  for (const std::string& key : keys) {
    const tb::Explanation e = explainer.key(key);
    for (const std::string& part : missing(e)) ADD_FAILURE() << key << ": no " << part;
    EXPECT_FALSE(e.docs.empty()) << key;
  }
}

// The check above fails for a key the page does not document.
TEST(Explain, AKeyWithoutARowHasNoMeaning) {
  std::string doc(tb::config_doc_text());
  const std::size_t row = doc.find("| `t_prog_us` |");
  ASSERT_NE(row, std::string::npos);
  doc.erase(row, doc.find('\n', row) + 1 - row);
  const tb::Explainer explainer(doc);
  EXPECT_EQ(missing(explainer.key("flash.t_prog_us")), std::vector<std::string>{"meaning"});
  EXPECT_NE(text_of(explainer.key("flash.t_prog_us")).find("(docs/config.md has no row for it)"),
            std::string::npos);
  EXPECT_TRUE(missing(explainer.key("flash.t_read_us")).empty());
}

TEST(Explain, AKeyWithItsConfigValue) {
  const tb::Explainer explainer(tb::config_doc_text());
  const std::string path = source_path("configs/x25m.json");
  nlohmann::json written = config::read_config_json(path);
  const tb::ConfigFile x25m{path, written,
                            config::to_json(config::parse_drive_config(written, path))};
  const std::string t_prog = text_of(explainer.key("flash.t_prog_us", &x25m));
  for (const char* line :
       {"flash.t_prog_us  (docs/config.md#flash)\n", "\n  Page program time tPROG.\n",
        "\n  type     number\n", "\n  unit     us\n", "\n  range    (0, 1000000]\n",
        "\n  default  900 (built in: what a config without the key gets)\n"})
    EXPECT_NE(t_prog.find(line), std::string::npos) << line << " in\n" << t_prog;
  EXPECT_NE(t_prog.find("/configs/x25m.json: 500\n"), std::string::npos) << t_prog;
  // A choice lists its names (config/Choices.h).
  const std::string policy = text_of(explainer.key("controller.scheduler_policy", &x25m));
  EXPECT_NE(policy.find("\n  choices  oldest_ready, read_first\n"), std::string::npos) << policy;
  // A key the file leaves out has the default.
  written["flash"].erase("t_prog_us");
  const tb::ConfigFile without{"t.json", written,
                               config::to_json(config::parse_drive_config(written, "t.json"))};
  EXPECT_EQ(explainer.key("flash.t_prog_us", &without).in_config,
            "t.json: 900 (not in the file: the default)");
  // A list's items, each.
  EXPECT_EQ(explainer.key("power.rails[i].voltage_v", &x25m).in_config, path + ": [5.0]");
  // Named as --set names it.
  for (const char* item : {"power.rails.0.voltage_v", "power.rails[0].voltage_v"})
    EXPECT_EQ(
        explained(explainer, item).rfind("power.rails[i].voltage_v  (docs/config.md#power)\n", 0),
        0u)
        << item;
}

TEST(Explain, SectionsAndTheirKeys) {
  const tb::Explainer explainer(tb::config_doc_text());
  const std::string sections = explained(explainer, "");
  for (const char* section : {"host", "controller", "dram", "flash", "ftl", "power", "power_budget",
                              "thermal", "lifetime"})
    EXPECT_NE(sections.find("\n  " + std::string(section) + " "), std::string::npos)
        << section << " in\n"
        << sections;
  EXPECT_NE(sections.find("\nTop-level keys: name, description, sources, notes, namespaces\n"),
            std::string::npos);
  // A line a key, after the heading.
  const std::string controller = explained(explainer, "controller");
  std::size_t keys = 0;
  for (const std::string& key : config::config_keys()) {
    if (key.rfind("controller.", 0) != 0) continue;
    ++keys;
    EXPECT_NE(controller.find("\n  " + key.substr(11) + " "), std::string::npos) << key;
  }
  EXPECT_EQ(std::count(controller.begin(), controller.end(), '\n'), long(keys) + 1) << controller;
  EXPECT_EQ(controller.rfind("controller: " + std::to_string(keys) + " keys", 0), 0u);
  EXPECT_NE(explained(explainer, "flash.die_power_down").find("\n  t_wake_us "), std::string::npos);
}

TEST(Explain, AnUnknownKeyNamesTheClosest) {
  EXPECT_EQ(refusal("flash.t_raed_us"),
            "explain: unknown key \"flash.t_raed_us\"; did you mean flash.t_read_us, "
            "flash.reliability.retry_steps[i].t_read_us? "
            "(`ssdtlm explain` lists the sections)");
  // By prefix, by the key's last part, a section.
  EXPECT_NE(refusal("flash.t_prog").find("did you mean flash.t_prog_us, "), std::string::npos);
  EXPECT_NE(refusal("t_prog_us").find("did you mean flash.t_prog_us"), std::string::npos);
  EXPECT_NE(refusal("contoller").find("did you mean controller?"), std::string::npos);
  EXPECT_EQ(refusal("zzzzzzzz"),
            "explain: unknown key \"zzzzzzzz\" (`ssdtlm explain` lists the sections)");
}

TEST(Explain, CommandLine) {
  std::string out;
  ASSERT_EQ(run_cli("explain flash.t_prog_us --config " + source_path("configs/x25m.json"), out), 0)
      << out;
  EXPECT_NE(out.find("\n  Page program time tPROG.\n"), std::string::npos) << out;
  EXPECT_EQ(run_cli("explain flash.t_prog", out), 2);
  EXPECT_EQ(out.rfind("ssdtlm: error: explain: unknown key \"flash.t_prog\"; did you mean ", 0), 0u)
      << out;
  EXPECT_EQ(run_cli("explain controller --config " + source_path("configs/x25m.json"), out), 2);
  EXPECT_NE(out.find("explain: --config: applies only to a key"), std::string::npos) << out;
  EXPECT_EQ(run_cli("explain flash.t_prog_us ftl.type", out), 2) << out;
  EXPECT_EQ(run_cli("explain flash.t_prog_us --config " + temp_dir("explain") + "/none.json", out),
            1);
  EXPECT_NE(out.find("none.json: cannot open"), std::string::npos) << out;
  ASSERT_EQ(run_cli("explain --help", out), 0);
  EXPECT_NE(out.find("Usage: ssdtlm explain [KEY | SECTION] [--config FILE]"), std::string::npos);
}

}  // namespace
}  // namespace ssd::test
