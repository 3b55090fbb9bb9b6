#pragma once
// `ssdtlm --set KEY=VALUE`: changes one key of a config's JSON by its dotted path before the
// config is validated, so an override is checked exactly like the file (docs/config.md
// #overrides-on-the-command-line).
#include <string>

#include <nlohmann/json.hpp>

namespace ssd::config {

// Applies "a.b.c=VALUE" to `doc`. The path's parts are object keys or array indices
// (`power.rails.0.voltage_v`, or `power.rails[0].voltage_v`); missing object keys are
// created, an index may be at most the array's size (that size appends). VALUE is JSON when
// it parses as JSON (900, true, [1,2], "x"), else a string (ftl.type=dftl). Throws
// ssd::UsageError for a malformed assignment (no `=`, not UTF-8, an empty part in the key)
// and ssd::ConfigError naming the key for a path that cannot be followed; unknown keys and
// wrong types are left to the validation.
void apply_override(nlohmann::json& doc, const std::string& assignment);

// Throws ssd::UsageError as apply_override does for a malformed assignment, and nothing else:
// the command line's own check, made before any file is read.
void check_override(const std::string& assignment);

}  // namespace ssd::config
