#include "tb/run/ConfigKeys.h"

#include <algorithm>
#include <cstddef>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "config/DriveConfig.h"
#include "config/json/Bounds.h"

namespace po = boost::program_options;

namespace ssd::tb {
namespace {

std::string number(const nlohmann::ordered_json& v) {
  return v.is_number_unsigned() ? std::to_string(v.get<uint64_t>())
                                : config::format_number(v.get<double>());
}

}  // namespace

std::string accepted(const nlohmann::ordered_json& e) {
  if (e.contains("choices")) {
    std::string out;
    for (const auto& c : e["choices"]) out += (out.empty() ? "" : ", ") + c.get<std::string>();
    return out;
  }
  if (!e.contains("min") && !e.contains("max")) return "";
  const bool lo_open = e.value("min_open", false), hi_open = e.value("max_open", false);
  return std::string(lo_open || !e.contains("min") ? "(" : "[") +
         (e.contains("min") ? number(e["min"]) : "-inf") + ", " +
         (e.contains("max") ? number(e["max"]) : "inf") +
         (hi_open || !e.contains("max") ? ")" : "]");
}

std::string value_text(const nlohmann::ordered_json& v) {
  if (v.is_string()) return v.get<std::string>().empty() ? "\"\"" : v.get<std::string>();
  if (v.is_number()) return number(v);
  return v.dump();
}

namespace {

std::string text_of_default(const nlohmann::ordered_json& e) {
  return e.contains("default") ? value_text(e["default"]) : "-";
}

void print_text(const nlohmann::ordered_json& table, std::ostream& out) {
  std::size_t width = 0;
  for (const auto& e : table) width = std::max(width, e["key"].get<std::string>().size());
  for (const auto& e : table) {
    std::string key = e["key"].get<std::string>();
    key.resize(width, ' ');
    std::string type = e["type"].get<std::string>();
    type.resize(8, ' ');
    std::string line = key + "  " + type + "  " + text_of_default(e);
    const std::string range = accepted(e);
    if (!range.empty()) line += "  " + range;
    if (e.value("required", false)) line += "  (required)";
    out << line << '\n';
  }
}

}  // namespace

int config_keys_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  po::options_description visible(
      "Usage: ssdtlm config-keys [--json]\n\n"
      "Every key a drive config may hold (docs/config.md), from the config's field tables: its\n"
      "dotted path (a list's item keys as key[i].item), type (bool, choice, integer, number,\n"
      "string, numbers, strings, list, comment), default, and accepted range or choices.\n\n"
      "Options");
  visible.add_options()("help,h", "show this help")(
      "json",
      "print a JSON array, an object per key: key, type, default, min, max (min_open, max_open "
      "when the bound is excluded), choices, required, min_items");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(visible).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    err << "ssdtlm: error: config-keys: " << e.what() << " (see config-keys --help)\n";
    return 2;
  }
  if (vm.count("help")) {
    out << visible << '\n';
    return 0;
  }
  const nlohmann::ordered_json table = config::config_key_table();
  if (vm.count("json"))
    out << table.dump(1) << '\n';
  else
    print_text(table, out);
  return 0;
}

}  // namespace ssd::tb
