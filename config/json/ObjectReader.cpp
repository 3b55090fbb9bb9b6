#include "config/json/ObjectReader.h"

#include <limits>
#include <utility>

namespace ssd::config {

using nlohmann::json;

ObjectReader::ObjectReader(const json& obj, std::string path, Problems& problems)
    : obj_(obj), path_(std::move(path)), problems_(problems) {
  if (!obj_.is_object())
    problems_.add(path_.empty() ? "(top level)" : path_,
                  "expected an object, got " + describe(obj_));
}

void ObjectReader::operator()(const char* key, std::string& out, Presence presence) {
  guarded([&] {
    const json* v = find(key);
    if (v == nullptr) {
      absent(key, presence);
      return;
    }
    out = as_string(*v, path_of(key));
  });
}

void ObjectReader::operator()(const char* key, bool& out) {
  guarded([&] {
    const json* v = find(key);
    if (v == nullptr) return;
    if (!v->is_boolean()) fail(path_of(key), "expected a boolean, got " + describe(*v));
    out = v->get<bool>();
  });
}

void ObjectReader::operator()(const char* key, double& out, Bounds bounds, Presence presence) {
  guarded([&] {
    const json* v = find(key);
    if (v == nullptr) {
      absent(key, presence);
      return;
    }
    if (!v->is_number()) fail(path_of(key), "expected a number, got " + describe(*v));
    out = checked(path_of(key), v->get<double>(), bounds);
  });
}

void ObjectReader::operator()(const char* key, uint32_t& out, Bounds bounds) {
  guarded([&] {
    if (const auto n =
            read_unsigned(key, std::numeric_limits<uint32_t>::max(), bounds, Presence::kOptional))
      out = static_cast<uint32_t>(*n);
  });
}

void ObjectReader::operator()(const char* key, uint64_t& out, Bounds bounds, Presence presence) {
  guarded([&] {
    if (const auto n = read_unsigned(key, std::numeric_limits<uint64_t>::max(), bounds, presence))
      out = *n;
  });
}

template <class T, class Item>
void ObjectReader::read_array(const char* key, std::vector<T>& out, const char* expected,
                              Item item) {
  guarded([&] {
    const json* v = find(key);
    if (v == nullptr) return;
    const std::string path = path_of(key);
    if (!v->is_array())
      fail(path, std::string("expected an array of ") + expected + ", got " + describe(*v));
    std::vector<T> values;
    for (size_t i = 0; i < v->size(); ++i)
      values.push_back(item((*v)[i], path + "[" + std::to_string(i) + "]"));
    out = std::move(values);
  });
}

void ObjectReader::operator()(const char* key, std::vector<double>& out, Bounds bounds) {
  read_array(key, out, "numbers", [&](const json& x, const std::string& path) {
    if (!x.is_number()) fail(path, "expected a number, got " + describe(x));
    return checked(path, x.get<double>(), bounds);
  });
}

void ObjectReader::operator()(const char* key, std::vector<uint32_t>& out, Bounds bounds) {
  read_array(key, out, "integers", [&](const json& x, const std::string& path) {
    return uint32_t(unsigned_value(x, path, std::numeric_limits<uint32_t>::max(), bounds));
  });
}

void ObjectReader::operator()(const char* key, std::vector<std::string>& out) {
  guarded([&] {
    const json* v = find(key);
    if (v == nullptr) return;
    out = as_string_array(*v, path_of(key), "an array of strings");
  });
}

void ObjectReader::replaced(const char* key, const char* by) {
  if (find(key) != nullptr) problems_.add(path_of(key), std::string("replaced by ") + by);
}

void ObjectReader::ignored(const char* key) {
  guarded([&] {
    const json* v = find(key);
    if (v != nullptr && !v->is_string())
      as_string_array(*v, path_of(key), "a string or an array of strings");
  });
}

void ObjectReader::reject_unvisited_keys() const {
  if (!obj_.is_object()) return;
  for (const auto& item : obj_.items()) {
    if (visited_.count(item.key()) == 0)
      problems_.add(path_of(item.key()), "unknown key" + did_you_mean(item.key(), visited_));
  }
}

const json* ObjectReader::find(const std::string& key) {
  visited_.insert(key);
  if (!obj_.is_object()) return nullptr;
  const auto it = obj_.find(key);
  return it == obj_.end() ? nullptr : &*it;
}

std::string ObjectReader::path_of(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

void ObjectReader::absent(const char* key, Presence presence) const {
  // Not an object: that is the problem, already added.
  if (presence == Presence::kRequired && obj_.is_object())
    fail(path_of(key), "required key is missing");
}

void ObjectReader::fail(const std::string& path, const std::string& reason) const {
  problems_.add(path, reason);
  throw Refused{};
}

std::string ObjectReader::as_string(const json& v, const std::string& path) const {
  if (!v.is_string()) fail(path, "expected a string, got " + describe(v));
  return v.get<std::string>();
}

std::vector<std::string> ObjectReader::as_string_array(const json& v, const std::string& path,
                                                       const std::string& expected) const {
  if (!v.is_array()) fail(path, "expected " + expected + ", got " + describe(v));
  std::vector<std::string> out;
  for (size_t i = 0; i < v.size(); ++i) {
    out.push_back(as_string(v[i], path + "[" + std::to_string(i) + "]"));
  }
  return out;
}

double ObjectReader::checked(const std::string& path, double x, const Bounds& bounds) const {
  if (!bounds.contains(x)) fail(path, bounds.rule());
  return x;
}

void ObjectReader::check_list(const json& v, const std::string& path, std::size_t min_items) const {
  if (!v.is_array()) fail(path, "expected an array of objects, got " + describe(v));
  if (v.size() < min_items)
    fail(path,
         "needs at least " + std::to_string(min_items) + (min_items == 1 ? " entry" : " entries"));
}

std::optional<uint64_t> ObjectReader::read_unsigned(const char* key, uint64_t max,
                                                    const Bounds& bounds, Presence presence) {
  const json* v = find(key);
  if (v == nullptr) {
    absent(key, presence);
    return std::nullopt;
  }
  return unsigned_value(*v, path_of(key), max, bounds);
}

uint64_t ObjectReader::unsigned_value(const json& v, const std::string& path, uint64_t max,
                                      const Bounds& bounds) const {
  if (!v.is_number_integer()) fail(path, "expected an integer, got " + describe(v));
  if (!v.is_number_unsigned() && v.get<int64_t>() < 0) {
    fail(path, "expected a non-negative integer, got " + describe(v));
  }
  const uint64_t n = v.get<uint64_t>();
  if (n > max) fail(path, "must be at most " + std::to_string(max) + ", got " + describe(v));
  checked(path, static_cast<double>(n), bounds);
  return n;
}

}  // namespace ssd::config
