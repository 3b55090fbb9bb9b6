#include "config/json/KeyDescriber.h"

#include <cmath>
#include <limits>

namespace ssd::config {
namespace {

// The range as "min"/"max" (absent: unbounded) with "min_open"/"max_open" where the bound
// itself is excluded.
void add_range(nlohmann::ordered_json& e, const Bounds& b) {
  if (!std::isinf(b.lo)) {
    e["min"] = b.lo;
    if (b.lo_open) e["min_open"] = true;
  }
  if (!std::isinf(b.hi)) {
    e["max"] = b.hi;
    if (b.hi_open) e["max_open"] = true;
  }
}

// An integer key's range: the bounds met by the integers the reader takes (0 to `type_max`).
void add_integer_range(nlohmann::ordered_json& e, const Bounds& b, uint64_t type_max) {
  double lo =
      std::isinf(b.lo) ? 0 : std::max(0.0, b.lo_open ? std::floor(b.lo) + 1 : std::ceil(b.lo));
  double hi = std::isinf(b.hi) ? double(type_max)
              : b.hi_open      ? std::ceil(b.hi) - 1
                               : std::floor(b.hi);
  e["min"] = static_cast<uint64_t>(lo);
  e["max"] = hi >= double(type_max) ? type_max : static_cast<uint64_t>(hi);
}

}  // namespace

nlohmann::ordered_json& KeyDescriber::add(const char* key, const char* type, Presence presence) {
  nlohmann::ordered_json e = nlohmann::ordered_json::object();
  e["key"] = prefix_ + key;
  e["type"] = type;
  if (presence == Presence::kRequired) e["required"] = true;
  out_.push_back(std::move(e));
  return out_.back();
}

void KeyDescriber::operator()(const char* key, const std::string& value, Presence presence) {
  add(key, "string", presence)["default"] = value;
}

void KeyDescriber::operator()(const char* key, const bool& value) {
  add(key, "bool", Presence::kOptional)["default"] = value;
}

void KeyDescriber::operator()(const char* key, const double& value, Bounds bounds,
                              Presence presence) {
  nlohmann::ordered_json& e = add(key, "number", presence);
  e["default"] = value;
  add_range(e, bounds);
}

void KeyDescriber::operator()(const char* key, const uint32_t& value, Bounds bounds) {
  nlohmann::ordered_json& e = add(key, "integer", Presence::kOptional);
  e["default"] = value;
  add_integer_range(e, bounds, std::numeric_limits<uint32_t>::max());
}

void KeyDescriber::operator()(const char* key, const uint64_t& value, Bounds bounds,
                              Presence presence) {
  nlohmann::ordered_json& e = add(key, "integer", presence);
  e["default"] = value;
  add_integer_range(e, bounds, std::numeric_limits<uint64_t>::max());
}

void KeyDescriber::operator()(const char* key, const std::vector<double>& value, Bounds bounds) {
  nlohmann::ordered_json& e = add(key, "numbers", Presence::kOptional);
  e["default"] = value;
  add_range(e, bounds);
}

void KeyDescriber::operator()(const char* key, const std::vector<uint32_t>& value, Bounds bounds) {
  nlohmann::ordered_json& e = add(key, "integers", Presence::kOptional);
  e["default"] = value;
  add_integer_range(e, bounds, std::numeric_limits<uint32_t>::max());
}

void KeyDescriber::operator()(const char* key, const std::vector<std::string>& value) {
  add(key, "strings", Presence::kOptional)["default"] = value;
}

}  // namespace ssd::config
