#include "config/json/JsonFile.h"

#include <algorithm>
#include <string_view>
#include <utility>

namespace ssd::config {
namespace {

// nlohmann counts the bytes it read up to and including the offending one; turn that into
// the 1-based line and column of that byte (just past the end for a truncated document).
std::pair<size_t, size_t> line_column(const std::string& text, size_t bytes_read) {
  const size_t at = std::clamp<size_t>(bytes_read, 1, text.size() + 1);
  const std::string_view before(text.data(), at - 1);
  const size_t line = 1 + std::count(before.begin(), before.end(), '\n');
  const size_t last_newline = before.rfind('\n');
  const size_t column = last_newline == std::string_view::npos ? at : at - 1 - last_newline;
  return {line, column};
}

}  // namespace

std::string parse_error_message(const std::string& path, const std::string& text,
                                const nlohmann::json::exception& e, size_t first_line) {
  const auto* parse = dynamic_cast<const nlohmann::json::parse_error*>(&e);
  if (parse == nullptr) return path + ": invalid JSON: " + e.what();
  const auto [line, column] = line_column(text, parse->byte);
  // what() is "[json.exception...] parse error at <where>: <reason>"; keep the reason.
  const std::string what = e.what();
  const size_t colon = what.find(": ");
  const std::string reason = colon == std::string::npos ? what : what.substr(colon + 2);
  return path + ":" + std::to_string(first_line - 1 + line) + ":" + std::to_string(column) +
         ": invalid JSON: " + reason;
}

}  // namespace ssd::config
