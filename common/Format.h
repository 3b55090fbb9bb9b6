#pragma once
// Shortest round-trip text for a double: the same value always prints the same bytes, so
// outputs are byte-identical across runs.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <string>

namespace ssd {

inline std::string format_double(double v) {
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

// A file's size in GB of 10^9 bytes, two decimals: "4.20 GB" (the state cache's files).
inline std::string gb_text(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GB", double(bytes) / 1e9);
  return text;
}

}  // namespace ssd
