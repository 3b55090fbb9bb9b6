#pragma once
// The config an FTL is built from, once it meets the FTL's rules: make_ftl checks them before
// building one, and an FTL built directly checks its own so (nothing is built from a config
// that breaks one).
#include "config/DriveConfig.h"
#include "config/json/Problems.h"

namespace ssd::fw {

using ConfigCheck = void (*)(const config::DriveConfig&, config::Problems&);

// `cfg`; throws ssd::ConfigError with every problem `check` finds ("drive '<name>'").
inline const config::DriveConfig& checked(const config::DriveConfig& cfg, ConfigCheck check) {
  config::Problems problems(config::drive_origin(cfg.name));
  check(cfg, problems);
  problems.raise();
  return cfg;
}

}  // namespace ssd::fw
