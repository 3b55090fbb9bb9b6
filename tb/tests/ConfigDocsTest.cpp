// docs/config.md against the config's field tables (config::config_keys): every key a config
// may hold has a row with a unit and a meaning (a key whose name carries a unit, `_us`, `_ma`,
// ..., has a real one) and the field table's default, and every row names a key that exists.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/DriveConfig.h"
#include "tb/run/KeyDocs.h"
#include "tb/tests/TestUtil.h"

namespace ssd::test {
namespace {

// docs/config.md as the repository has it (the binary embeds the page as it was built).
tb::KeyDocs documented_keys() { return tb::KeyDocs(slurp(source_path("docs/config.md"))); }

bool has_unit_suffix(const std::string& key) {
  static const std::regex unit("_(us|ns|ma|v|mb|mw|w|c|s|years|mb_per_s|k_per_w|j_per_k)$");
  return std::regex_search(key, unit);
}

TEST(ConfigDocs, EveryKeyHasARowWithUnitAndMeaning) {
  const tb::KeyDocs docs = documented_keys();
  ASSERT_GT(docs.rows().size(), 100u) << "docs/config.md's key tables were not found";
  for (const std::string& key : config::config_keys()) {
    const tb::KeyDocs::Found found = docs.find(key);
    const tb::KeyDoc* row = found.doc;
    if (row == nullptr) {
      ADD_FAILURE() << "docs/config.md: no row documents " << key;
      continue;
    }
    if (found.row_key != key) continue;  // inside its holder's row, which gives the rules
    EXPECT_FALSE(row->unit.empty()) << key << ": empty unit column";
    EXPECT_FALSE(row->meaning.empty()) << key << ": empty meaning column";
    if (has_unit_suffix(key)) {
      EXPECT_NE(row->unit, "-") << key << ": the name carries a unit, the row gives none";
    }
  }
}

TEST(ConfigDocs, EveryRowNamesAKey) {
  const std::vector<std::string> keys = config::config_keys();
  const tb::KeyDocs docs = documented_keys();
  for (const auto& entry : docs.rows()) {
    const std::string& documented = entry.first;
    const bool exists = std::any_of(keys.begin(), keys.end(), [&](const std::string& k) {
      return k == documented || k.rfind(documented + ".", 0) == 0 ||
             k.rfind(documented + "[i].", 0) == 0;
    });
    EXPECT_TRUE(exists) << "docs/config.md documents " << documented << ", which no config holds";
  }
}

// The default column as a JSON value: "`\"sata\"`", "0.10", "0 (not set)", "`[1]`", "`false`";
// a name written bare (`replacement`) as a string.
nlohmann::json documented_default(const std::string& cell) {
  std::string text = cell.substr(0, cell.find(" ("));
  text.erase(std::remove(text.begin(), text.end(), '`'), text.end());
  nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
  return value.is_discarded() ? nlohmann::json(text) : value;
}

// The page gives each key's default beside the field table's (which `ssdtlm explain` and
// `config-keys` print): the two agree.
TEST(ConfigDocs, DefaultsAreTheFieldTables) {
  const tb::KeyDocs docs = documented_keys();
  int compared = 0;
  for (const auto& entry : config::config_key_table()) {
    const std::string key = entry["key"].get<std::string>();
    const tb::KeyDocs::Found found = docs.find(key);
    if (found.doc == nullptr || found.row_key != key || !entry.contains("default") ||
        entry.value("required", false))
      continue;
    EXPECT_EQ(documented_default(found.doc->default_text),
              nlohmann::json::parse(entry["default"].dump()))
        << key << ": docs/config.md's default is " << found.doc->default_text;
    ++compared;
  }
  EXPECT_GT(compared, 150);
}

}  // namespace
}  // namespace ssd::test
