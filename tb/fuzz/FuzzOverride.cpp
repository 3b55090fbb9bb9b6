// libFuzzer harness of `ssdtlm --set`: each input line is one KEY=VALUE applied to a small
// config; every input must end in a config (which then round-trips through to_json), an
// ssd::ConfigError naming the key or an ssd::UsageError for a malformed assignment.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "config/Overrides.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nlohmann::json doc = {{"name", "fuzz"},
                        {"flash", {{"channels", 2}, {"blocks_per_plane", 64}}},
                        {"power", {{"rails", {{{"name", "5v"}}}}}}};
  std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
  try {
    for (std::string line; std::getline(lines, line);) ssd::config::apply_override(doc, line);
    const ssd::config::DriveConfig cfg = ssd::config::parse_drive_config(doc, "fuzz");
    const ssd::config::DriveConfig again =
        ssd::config::parse_drive_config(ssd::config::to_json(cfg), "round trip");
    if (ssd::config::to_json(again) != ssd::config::to_json(cfg)) std::abort();
  } catch (const ssd::ConfigError&) {
  } catch (const ssd::UsageError&) {
  }
  return 0;
}
