#pragma once
// A nesting limit for the JSON documents users give (configs, workload files). No valid one
// nests more than a few levels; a document nested tens of thousands deep would overflow the
// stack in every recursive walk of it (dump() in an error message, a comparison).
#include <string>

#include <nlohmann/json.hpp>

namespace ssd {

inline constexpr int kMaxJsonDepth = 64;

// A callback for nlohmann::json::parse that throws Error("<origin>: ...") past the limit.
template <class Error>
auto json_depth_limit(const std::string& origin) {
  return [origin](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (depth > kMaxJsonDepth) {
      throw Error(origin + ": JSON nested more than " + std::to_string(kMaxJsonDepth) +
                  " levels deep (no config or workload file needs more than a few)");
    }
    return true;
  };
}

}  // namespace ssd
