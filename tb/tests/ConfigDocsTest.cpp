// docs/config.md against the config's field tables (config::config_keys): every key a config
// may hold has a row with a unit and a meaning (a key whose name carries a unit, `_us`, `_ma`,
// ..., has a real one), and every row names a key that exists.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "config/DriveConfig.h"
#include "tb/tests/TestUtil.h"

namespace ssd::test {
namespace {

struct Row {
  std::string unit;     // the unit column ("type" in the top-level table)
  std::string meaning;  // the meaning column
  std::string text;     // the whole row, for keys documented inside it
};

std::string trimmed(const std::string& s) {
  const std::size_t first = s.find_first_not_of(' ');
  return first == std::string::npos ? "" : s.substr(first, s.find_last_not_of(' ') - first + 1);
}

// The cells of a table row "| a | b |"; a | inside `...` is text.
std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  bool code = false;
  for (std::size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '`') code = !code;
    if (line[i] == '|' && !code) {
      cells.push_back(trimmed(cell));
      cell.clear();
    } else {
      cell += line[i];
    }
  }
  return cells;
}

// The rows of docs/config.md's "Keys" chapter, by the full dotted key each names; a section
// heading "### `dram`" makes its rows' keys relative to it, a heading naming two sections
// has them in full; "<group>" stands for each regulator group.
std::map<std::string, Row> documented_keys() {
  std::istringstream doc(slurp(source_path("docs/config.md")));
  std::map<std::string, Row> rows;
  std::string line, prefix;
  bool in_keys = false;
  const std::regex code("`([^`]+)`");
  while (std::getline(doc, line)) {
    if (line.rfind("## ", 0) == 0) in_keys = line == "## Keys";
    if (!in_keys) continue;
    if (line.rfind("### ", 0) == 0) {
      std::vector<std::string> named;
      for (std::sregex_iterator it(line.begin(), line.end(), code), end; it != end; ++it)
        named.push_back((*it)[1]);
      prefix = named.size() == 1 ? named[0] + "." : "";
      continue;
    }
    if (line.rfind("| `", 0) != 0) continue;
    const std::vector<std::string> cells = cells_of(line);
    if (cells.size() < 4) continue;
    const Row row{cells[1], cells[3], line};
    for (std::sregex_iterator it(cells[0].begin(), cells[0].end(), code), end; it != end; ++it) {
      const std::string key = prefix + std::string((*it)[1]);
      const std::size_t group = key.find("<group>");
      if (group == std::string::npos) {
        rows[key] = row;
        continue;
      }
      for (const char* g : {"host_interface", "controller", "dram", "channel", "nand"})
        rows[key.substr(0, group) + g + key.substr(group + 7)] = row;
    }
  }
  return rows;
}

// A key is documented by its own row, or inside the row of the section or list holding it
// (`wrr_weights`' row gives its three classes, `parts`' row each part's keys).
const Row* row_of(const std::map<std::string, Row>& rows, const std::string& key) {
  if (const auto it = rows.find(key); it != rows.end()) return &it->second;
  const std::size_t dot = key.rfind('.');
  if (dot == std::string::npos) return nullptr;
  std::string holder = key.substr(0, dot);
  if (holder.size() > 3 && holder.compare(holder.size() - 3, 3, "[i]") == 0)
    holder.resize(holder.size() - 3);
  const std::string leaf = key.substr(dot + 1);
  const auto it = rows.find(holder);
  if (it == rows.end()) return nullptr;
  const std::string& text = it->second.text;
  if (text.find("`" + leaf + "`") == std::string::npos &&
      text.find("\"" + leaf + "\"") == std::string::npos)
    return nullptr;
  return &it->second;
}

bool has_unit_suffix(const std::string& key) {
  static const std::regex unit("_(us|ns|ma|v|mb|mw|w|c|s|years|mb_per_s|k_per_w|j_per_k)$");
  return std::regex_search(key, unit);
}

TEST(ConfigDocs, EveryKeyHasARowWithUnitAndMeaning) {
  const std::map<std::string, Row> rows = documented_keys();
  ASSERT_GT(rows.size(), 100u) << "docs/config.md's key tables were not found";
  for (const std::string& key : config::config_keys()) {
    const Row* row = row_of(rows, key);
    if (row == nullptr) {
      ADD_FAILURE() << "docs/config.md: no row documents " << key;
      continue;
    }
    if (rows.count(key) == 0) continue;  // inside its holder's row, which gives the rules
    EXPECT_FALSE(row->unit.empty()) << key << ": empty unit column";
    EXPECT_FALSE(row->meaning.empty()) << key << ": empty meaning column";
    if (has_unit_suffix(key)) {
      EXPECT_NE(row->unit, "-") << key << ": the name carries a unit, the row gives none";
    }
  }
}

TEST(ConfigDocs, EveryRowNamesAKey) {
  const std::vector<std::string> keys = config::config_keys();
  for (const auto& entry : documented_keys()) {
    const std::string& documented = entry.first;
    const bool exists = std::any_of(keys.begin(), keys.end(), [&](const std::string& k) {
      return k == documented || k.rfind(documented + ".", 0) == 0 ||
             k.rfind(documented + "[i].", 0) == 0;
    });
    EXPECT_TRUE(exists) << "docs/config.md documents " << documented << ", which no config holds";
  }
}

}  // namespace
}  // namespace ssd::test
