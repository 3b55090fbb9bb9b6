#include "config/json/Problems.h"

#include "common/Errors.h"

namespace ssd::config {
namespace {

// Lines in one message at most: a document can hold any number of errors, the message not.
constexpr std::size_t kMaxLines = 20;

}  // namespace

void Problems::add(const std::string& key, const std::string& reason) {
  found_.emplace_back(key, reason);
}

bool Problems::none_under(std::initializer_list<std::string_view> keys) const {
  for (const auto& [key, reason] : found_)
    for (const std::string_view k : keys)
      if (key.compare(0, k.size(), k) == 0 &&
          (key.size() == k.size() || key[k.size()] == '.' || key[k.size()] == '['))
        return false;
  return true;
}

void Problems::raise() const {
  if (found_.empty()) return;
  std::string msg;
  for (std::size_t i = 0; i < found_.size() && i < kMaxLines; ++i)
    msg += (i ? "\n" : "") + origin_ + ": " + found_[i].first + ": " + found_[i].second;
  if (found_.size() > kMaxLines)
    msg += "\n" + origin_ + ": and " + std::to_string(found_.size() - kMaxLines) + " more";
  throw ConfigError(msg);
}

}  // namespace ssd::config
