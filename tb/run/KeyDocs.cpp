#include "tb/run/KeyDocs.h"

#include <cctype>
#include <regex>
#include <sstream>
#include <vector>

namespace ssd::tb {
namespace {

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

// A heading's anchor as GitHub makes it: "### `host` - host interface" -> "host---host-interface".
std::string anchor_of(const std::string& heading) {
  std::string anchor;
  for (const char c : heading.substr(heading.find(' ') + 1)) {
    if (c == ' ')
      anchor += '-';
    else if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')
      anchor += char(std::tolower(static_cast<unsigned char>(c)));
  }
  return anchor;
}

}  // namespace

KeyDocs::KeyDocs(std::string_view markdown) {
  std::istringstream doc{std::string(markdown)};
  std::string line, prefix, section;
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
      section = anchor_of(line);
      continue;
    }
    if (line.rfind("| `", 0) != 0) continue;
    const std::vector<std::string> cells = cells_of(line);
    if (cells.size() < 4) continue;
    const KeyDoc row{cells[1], cells[2], cells[3], cells.size() > 4 ? cells[4] : "", line, section};
    for (std::sregex_iterator it(cells[0].begin(), cells[0].end(), code), end; it != end; ++it) {
      const std::string key = prefix + std::string((*it)[1]);
      const std::size_t group = key.find("<group>");
      if (group == std::string::npos) {
        rows_[key] = row;
        continue;
      }
      for (const char* g : {"host_interface", "controller", "dram", "channel", "nand"})
        rows_[key.substr(0, group) + g + key.substr(group + 7)] = row;
    }
  }
}

KeyDocs::Found KeyDocs::find(const std::string& key) const {
  if (const auto it = rows_.find(key); it != rows_.end()) return {&it->second, key};
  const std::size_t dot = key.rfind('.');
  if (dot == std::string::npos) return {};
  std::string holder = key.substr(0, dot);
  if (holder.size() > 3 && holder.compare(holder.size() - 3, 3, "[i]") == 0)
    holder.resize(holder.size() - 3);
  const std::string leaf = key.substr(dot + 1);
  const auto it = rows_.find(holder);
  if (it == rows_.end()) return {};
  const std::string& text = it->second.text;
  if (text.find("`" + leaf + "`") == std::string::npos &&
      text.find("\"" + leaf + "\"") == std::string::npos)
    return {};
  return {&it->second, holder};
}

}  // namespace ssd::tb
