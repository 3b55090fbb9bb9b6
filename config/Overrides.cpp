#include "config/Overrides.h"

#include <vector>

#include "common/Errors.h"

namespace ssd::config {
namespace {

// "power.rails[0].voltage_v" and "power.rails.0.voltage_v" both give
// {"power", "rails", "0", "voltage_v"}.
std::vector<std::string> split_path(const std::string& key) {
  std::string dotted;
  for (char c : key) dotted += (c == '[') ? '.' : c;
  std::vector<std::string> parts;
  std::string part;
  for (std::size_t i = 0; i <= dotted.size(); ++i) {
    if (i == dotted.size() || dotted[i] == '.') {
      if (!part.empty() && part.back() == ']') part.pop_back();
      if (part.empty()) throw UsageError("--set " + key + ": empty part in the key");
      parts.push_back(part);
      part.clear();
    } else {
      part += dotted[i];
    }
  }
  return parts;
}

bool is_index(const std::string& s) {
  return !s.empty() && s.size() < 10 && s.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

void check_override(const std::string& assignment) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError("--set: expected KEY=VALUE, got \"" + assignment + "\"");
  // A config file's JSON parser rejects bytes that are not UTF-8; so does --set, before such
  // a key or string reaches the config (whose error messages quote it as JSON).
  try {
    (void)nlohmann::json(assignment).dump();
  } catch (const nlohmann::json::type_error&) {
    throw UsageError("--set: not valid UTF-8 text");
  }
  (void)split_path(assignment.substr(0, eq));  // throws for an empty part in the key
}

void apply_override(nlohmann::json& doc, const std::string& assignment) {
  check_override(assignment);
  const std::size_t eq = assignment.find('=');
  const std::string key = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
  if (value.is_discarded()) value = text;

  nlohmann::json* node = &doc;
  std::string path;  // the part followed so far, as the validation names it
  for (const std::string& part : split_path(key)) {
    if (node->is_null())
      *node = is_index(part) ? nlohmann::json::array() : nlohmann::json::object();
    if (node->is_array()) {
      if (!is_index(part))
        throw ConfigError("--set " + key + ": " + path + " is an array: expected an index, got \"" +
                          part + "\"");
      const std::size_t i = std::stoul(part);
      if (i > node->size())
        throw ConfigError("--set " + key + ": " + path + " has " + std::to_string(node->size()) +
                          " entries: index " + part + " is beyond the next one");
      if (i == node->size()) node->push_back(nullptr);
      node = &(*node)[i];
      path += "[" + part + "]";
      continue;
    }
    if (!node->is_object())
      throw ConfigError("--set " + key + ": " + (path.empty() ? "(top level)" : path) + " is a " +
                        node->type_name() + ", not an object");
    node = &(*node)[part];
    path += (path.empty() ? "" : ".") + part;
  }
  *node = std::move(value);
}

}  // namespace ssd::config
