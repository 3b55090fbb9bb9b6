#pragma once
// `ssdtlm config-keys [--json]`: every key a config may hold, from the config's field tables
// (config::config_key_table): its type, default, and accepted range or choices. No simulation.
#include <ostream>
#include <string>
#include <vector>

namespace ssd::tb {

// `args`: the words after "config-keys". Returns the exit status (2: bad usage).
int config_keys_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace ssd::tb
