#pragma once
// Shortest round-trip text for a double: the same value always prints the same bytes, so
// outputs are byte-identical across runs.
#include <charconv>
#include <string>

namespace ssd {

inline std::string format_double(double v) {
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

}  // namespace ssd
