// libFuzzer harness of the drive config parser: every input must end in a config (which
// then round-trips through to_json) or an ssd::ConfigError.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "tb/fuzz/FuzzInput.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const ssd::config::DriveConfig cfg =
        ssd::config::load_drive_config(ssd::fuzz::as_file(data, size));
    const ssd::config::DriveConfig again =
        ssd::config::parse_drive_config(ssd::config::to_json(cfg), "round trip");
    if (ssd::config::to_json(again) != ssd::config::to_json(cfg)) std::abort();
    (void)cfg.logical_bytes();
  } catch (const ssd::ConfigError&) {
  }
  return 0;
}
