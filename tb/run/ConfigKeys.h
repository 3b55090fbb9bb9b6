#pragma once
// `ssdtlm config-keys [--json]`: every key a config may hold, from the config's field tables
// (config::config_key_table): its type, default, and accepted range or choices. No simulation.
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ssd::tb {

// A key table entry's range or choices in words: "[0, 1000000]", "page, dftl, ...", "".
std::string accepted(const nlohmann::ordered_json& entry);
// A value (a default, a config's) as config-keys prints it: a string bare ("\"\"" if empty), a
// number as a config would write it, anything else as JSON.
std::string value_text(const nlohmann::ordered_json& value);

// `args`: the words after "config-keys". Returns the exit status (2: bad usage).
int config_keys_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace ssd::tb
