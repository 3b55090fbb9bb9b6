#pragma once
// Reading a JSON document users wrote (a drive config, a workload file): the file checked to be
// a regular, readable file, nesting limited, and a syntax error reported at its line and column.
#include <string>

#include <nlohmann/json.hpp>

#include "common/InputFile.h"
#include "common/JsonDepth.h"

namespace ssd::config {

// "<path>:<line>:<column>: invalid JSON: <reason>" for a parse error nlohmann reports after
// reading `bytes_read` bytes of `text` (its what() carries the reason); "<path>: invalid JSON:
// <what>" for other errors (a number beyond a double, 1e400: no position). `first_line`: the
// line of the file `text` starts on (a document a line, --check-overrides).
std::string parse_error_message(const std::string& path, const std::string& text,
                                const nlohmann::json::exception& e, size_t first_line = 1);

// The file's document; every failure is an Error (ConfigError, InputError) naming the file.
template <class Error>
nlohmann::json read_json_file(const std::string& path) {
  const std::string text = read_regular_file<Error>(path);
  try {
    return nlohmann::json::parse(text, json_depth_limit<Error>(path));
  } catch (const nlohmann::json::exception& e) {
    throw Error(parse_error_message(path, text, e));
  }
}

}  // namespace ssd::config
