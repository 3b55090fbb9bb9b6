#pragma once
// Describes every key a field table (config/*Config.h) holds, as the reader takes it: its dotted
// path (a list's item keys as `key[i].item`), its type, its default (the struct's), and for a
// number its accepted range, for a choice its names. `ssdtlm config-keys` prints the table,
// config_keys() its paths (ConfigDocsTest), and the combination soak (tools/ssdtlm_tools/
// soak.py) generates its options from it, so a new key joins all three by its table entry.
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/Choices.h"
#include "config/json/Bounds.h"
#include "config/json/ObjectWriter.h"

namespace ssd::config {

class KeyDescriber {
 public:
  KeyDescriber(nlohmann::ordered_json& out, std::string prefix)
      : out_(out), prefix_(std::move(prefix)) {}

  void operator()(const char* key, const std::string& value,
                  Presence presence = Presence::kOptional);
  void operator()(const char* key, const bool& value);
  void operator()(const char* key, const double& value, Bounds bounds,
                  Presence presence = Presence::kOptional);
  void operator()(const char* key, const uint32_t& value, Bounds bounds = {});
  void operator()(const char* key, const uint64_t& value, Bounds bounds,
                  Presence presence = Presence::kOptional);
  void operator()(const char* key, const std::vector<double>& value, Bounds bounds);
  void operator()(const char* key, const std::vector<uint32_t>& value, Bounds bounds);
  void operator()(const char* key, const std::vector<std::string>& value);

  template <class E, std::enable_if_t<std::is_enum_v<E>, int> = 0>
  void operator()(const char* key, const E& value) {
    nlohmann::ordered_json& e = add(key, "choice", Presence::kOptional);
    e["default"] = to_string(value);
    nlohmann::ordered_json names = nlohmann::ordered_json::array();
    for (const auto& entry : Choice<E>::kNames) names.push_back(entry.second);
    e["choices"] = std::move(names);
  }

  void ignored(const char* key) { add(key, "comment", Presence::kOptional); }
  void replaced(const char*, const char*) {}

  template <class Section, class Visit>
  void section(const char* key, const Section& in, Visit visit) {
    KeyDescriber sub(out_, prefix_ + key + ".");
    visit(in, sub);
  }

  // The list itself (its default as the writer writes it), then its items' keys as they are in
  // a default item.
  template <class Item, class Visit>
  void list(const char* key, const std::vector<Item>& value, std::size_t min_items, Visit visit) {
    nlohmann::ordered_json written = nlohmann::ordered_json::object();
    ObjectWriter(written).list(key, value, min_items, visit);
    nlohmann::ordered_json& e = add(key, "list", Presence::kOptional);
    e["default"] = std::move(written[key]);
    e["min_items"] = min_items;
    KeyDescriber sub(out_, prefix_ + key + "[i].");
    const Item item{};
    visit(item, sub);
  }

 private:
  // A new entry {"key", "type"[, "required"]}, appended to the table.
  nlohmann::ordered_json& add(const char* key, const char* type, Presence presence);

  nlohmann::ordered_json& out_;
  std::string prefix_;
};

}  // namespace ssd::config
