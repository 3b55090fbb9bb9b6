#pragma once
// Loading the config a run or `--dump-config` takes, and `ssdtlm --config FILE --check-overrides
// LINES`: that same validation for many sets of overrides in one process (the combination
// soak's, tools/ssdtlm_tools/soak_options.py), which a process per set made slow under the
// sanitizers (each start of the sanitized simulator costs more than the validation itself).
#include <exception>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/DriveConfig.h"
#include "tb/run/Cli.h"

namespace ssd::tb {

// The config of the file's document `doc` (read from `path`) with the overrides applied in
// order, once the drive it describes can be built: the values and the rules of the config
// (config/DriveConfig.h), then the model's own (check_drive), each error naming the file
// ("<path> with --set" when there are overrides) and the key. Throws ssd::ConfigError.
config::DriveConfig load_config(nlohmann::json doc, const std::string& path,
                                const std::vector<std::string>& overrides);

// Exactly what --dump-config prints: the bytes provenance.config_sha256 digests.
std::string config_text(const config::DriveConfig& cfg);

// The message an error ends a run with: a SystemC report as "TYPE: MESSAGE", else what().
std::string error_text(const std::exception& e);

// --check-overrides: reads cli.check_overrides ("-": stdin) a line at a time, each a JSON array
// of "KEY=VALUE" strings (as --set takes them; [] for none), and writes a JSON line for each to
// `out` as soon as it is known: {"config": TEXT}, TEXT what --dump-config prints for the config
// with cli.overrides and then the line's, or {"error": MESSAGE}, the message --dump-config
// refuses it with. Throws InputError naming the line for one that is not such an array (the
// lines before it answered).
void check_overrides(const Cli& cli, std::ostream& out);

}  // namespace ssd::tb
