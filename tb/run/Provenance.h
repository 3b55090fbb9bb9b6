#pragma once
// report.json's `provenance` (docs/report.md#provenance): what built the binary, how it was
// called, and digests of the effective config and of the input, so a result can be matched
// to exactly what produced it.
#include <string>

#include <nlohmann/json.hpp>

#include "tb/run/Cli.h"

namespace ssd::tb {

// What built the binary: its version and `git describe` (the executable's generated header).
struct Build {
  const char* version;
  const char* git;
};

// `effective_config`: the bytes --dump-config prints.
nlohmann::ordered_json provenance(const Cli& cli, const Build& build,
                                  const std::string& effective_config);

}  // namespace ssd::tb
