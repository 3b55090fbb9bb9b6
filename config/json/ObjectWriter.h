#pragma once
// Writes the fields a field table (config/*Config.h) visits into an ordered object, in
// visiting order: the effective config with every default resolved.
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/Choices.h"

namespace ssd::config {

class ObjectWriter {
 public:
  explicit ObjectWriter(nlohmann::ordered_json& out) : out_(out) {}

  template <class T, class... Rule>
  void operator()(const char* key, const T& value, Rule...) {
    out_[key] = value;
  }
  template <class E, std::enable_if_t<std::is_enum_v<E>, int> = 0>
  void operator()(const char* key, const E& value) {
    out_[key] = to_string(value);
  }
  void ignored(const char*) {}
  void replaced(const char*, const char*) {}

  template <class Section, class Visit>
  void section(const char* key, const Section& in, Visit visit) {
    nlohmann::ordered_json sub = nlohmann::ordered_json::object();
    ObjectWriter writer(sub);
    visit(in, writer);
    out_[key] = std::move(sub);
  }

  template <class Item, class Visit>
  void list(const char* key, const std::vector<Item>& in, std::size_t, Visit visit) {
    nlohmann::ordered_json items = nlohmann::ordered_json::array();
    for (const Item& item : in) {
      nlohmann::ordered_json sub = nlohmann::ordered_json::object();
      ObjectWriter writer(sub);
      visit(item, writer);
      items.push_back(std::move(sub));
    }
    out_[key] = std::move(items);
  }

 private:
  nlohmann::ordered_json& out_;
};

}  // namespace ssd::config
