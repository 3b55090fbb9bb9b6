#pragma once
// A saved aged drive (docs/state.md): the state preconditioning leaves, written once
// (--precondition --save-state FILE) and loaded by later runs (--load-state FILE) instead of
// preconditioning again, the measured run then byte for byte the same. The file: a header
// (magic, format version, the config keys that shape the state, what preconditioning did),
// then the firmware's tables and every NAND die's contents, uncompressed with a checksum. It
// is written atomically; loading checks everything and fails with StateFileError, naming the
// file.
#include <exception>
#include <string>

#include <nlohmann/json.hpp>
#include <systemc>

#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "model/Ssd.h"

namespace ssd::tb {

inline constexpr uint32_t kStateFormatVersion = 2;

struct StateFileError : InputError {
  using InputError::InputError;
};

// The config keys the saved state depends on (geometry, FTL, write buffer), by section: a
// state loads only into a drive whose keys are the same.
nlohmann::ordered_json state_shaping_config(const config::DriveConfig& cfg);

// Writes the drive's state, preconditioned, to `path` (through a temporary file).
void save_state(const std::string& path, const config::DriveConfig& cfg, model::Ssd& ssd);
// Loads the state in `path` into `ssd`, freshly built from `cfg` and not yet simulated, and
// gives its controller the preconditioning figures (wall_s and cpu_s: the load's).
void load_state(const std::string& path, const config::DriveConfig& cfg, model::Ssd& ssd);

// Saves the state once preconditioning is done: the controller preconditions at the start of
// simulation, and this module, built after the drive, starts after it. An error stops the
// simulation; error() then holds it.
class StateSaver : public sc_core::sc_module {
 public:
  StateSaver(sc_core::sc_module_name name, std::string path, const config::DriveConfig& cfg,
             model::Ssd& ssd)
      : sc_core::sc_module(name), path_(std::move(path)), cfg_(cfg), ssd_(ssd) {}
  std::exception_ptr error() const { return error_; }

 private:
  void start_of_simulation() override;

  std::string path_;
  const config::DriveConfig& cfg_;
  model::Ssd& ssd_;
  std::exception_ptr error_;
};

}  // namespace ssd::tb
