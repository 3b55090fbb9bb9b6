#pragma once
// Reads one JSON object of the config through a field table (config/*Config.h): each visited
// key is type-checked, range-checked and stored (an absent key leaves the struct's default);
// keys nobody visited are errors naming the closest known key. Every error is added to the
// Problems the whole document shares, and reading goes on (a value in error keeps its
// default), so a file with several gets all of them at once.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/DidYouMean.h"
#include "config/Choices.h"
#include "config/json/Bounds.h"
#include "config/json/Problems.h"

namespace ssd::config {

class ObjectReader {
 public:
  // `path`: the object's dotted key path ("" for the top level); `problems` names the
  // document in error messages (a file name).
  ObjectReader(const nlohmann::json& obj, std::string path, Problems& problems);

  void operator()(const char* key, std::string& out, Presence presence = Presence::kOptional);
  void operator()(const char* key, bool& out);
  void operator()(const char* key, double& out, Bounds bounds,
                  Presence presence = Presence::kOptional);
  void operator()(const char* key, uint32_t& out, Bounds bounds = {});
  void operator()(const char* key, uint64_t& out, Bounds bounds,
                  Presence presence = Presence::kOptional);
  void operator()(const char* key, std::vector<double>& out, Bounds bounds);
  void operator()(const char* key, std::vector<uint32_t>& out, Bounds bounds);
  void operator()(const char* key, std::vector<std::string>& out);

  // A choice (config/Choices.h): one of its names.
  template <class E, std::enable_if_t<std::is_enum_v<E>, int> = 0>
  void operator()(const char* key, E& out) {
    guarded([&] {
      const nlohmann::json* v = find(key);
      if (v == nullptr) return;
      const std::string name = as_string(*v, path_of(key));
      if (const std::optional<E> value = parse_choice<E>(name)) {
        out = *value;
        return;
      }
      std::vector<std::string> known;
      for (const auto& entry : Choice<E>::kNames) known.emplace_back(entry.second);
      fail(path_of(key), std::string("unknown ") + Choice<E>::kWhat + " \"" + name +
                             "\" (known: " + known_names<E>() + ")" + did_you_mean(name, known));
    });
  }

  // A key an earlier version had: its presence is an error naming the replacement.
  void replaced(const char* key, const char* by);
  // Free-form commentary: checked for shape, then dropped.
  void ignored(const char* key);

  template <class Section, class Visit>
  void section(const char* key, Section& out, Visit visit) {
    const nlohmann::json* v = find(key);
    if (v == nullptr) return;
    ObjectReader sub(*v, path_of(key), problems_);
    visit(out, sub);
    sub.reject_unvisited_keys();
  }

  // An array of objects, each read like a section; `min_items` is the fewest allowed.
  template <class Item, class Visit>
  void list(const char* key, std::vector<Item>& out, std::size_t min_items, Visit visit) {
    const nlohmann::json* v = find(key);
    if (v == nullptr) return;
    const std::string path = path_of(key);
    bool ok = true;
    guarded([&] { check_list(*v, path, min_items); }, &ok);
    if (!ok) return;
    out.clear();
    for (size_t i = 0; i < v->size(); ++i) {
      ObjectReader sub((*v)[i], path + "[" + std::to_string(i) + "]", problems_);
      visit(out.emplace_back(), sub);
      sub.reject_unvisited_keys();
    }
  }

  void reject_unvisited_keys() const;

 private:
  // Thrown by fail() once the problem is added: the read of one key stops there.
  struct Refused {};
  // Runs `read`, which may fail(); `ok` (if given) says whether it did not.
  template <class Read>
  void guarded(Read read, bool* ok = nullptr) {
    try {
      read();
    } catch (const Refused&) {
      if (ok != nullptr) *ok = false;
    }
  }

  // Marks the key as known; nullptr when the document leaves it out (or is not an object).
  const nlohmann::json* find(const std::string& key);
  std::string path_of(const std::string& key) const;
  // A key the document leaves out: a problem if it is required.
  void absent(const char* key, Presence presence) const;
  // Adds the problem and throws Refused.
  [[noreturn]] void fail(const std::string& path, const std::string& reason) const;
  std::string as_string(const nlohmann::json& v, const std::string& path) const;
  std::vector<std::string> as_string_array(const nlohmann::json& v, const std::string& path,
                                           const std::string& expected) const;
  double checked(const std::string& path, double x, const Bounds& bounds) const;
  void check_list(const nlohmann::json& v, const std::string& path, std::size_t min_items) const;
  // The key's array (left as it is if absent), each item read by `item(value, its path)`;
  // `expected` names the items in the error for a value that is no array.
  template <class T, class Item>
  void read_array(const char* key, std::vector<T>& out, const char* expected, Item item);
  // The key's non-negative integer, at most `max` and within `bounds`; nullopt if absent.
  std::optional<uint64_t> read_unsigned(const char* key, uint64_t max, const Bounds& bounds,
                                        Presence presence);
  // `v` as such an integer (`path` names it in the message).
  uint64_t unsigned_value(const nlohmann::json& v, const std::string& path, uint64_t max,
                          const Bounds& bounds) const;

  const nlohmann::json& obj_;
  std::string path_;
  Problems& problems_;
  std::set<std::string> visited_;
};

}  // namespace ssd::config
