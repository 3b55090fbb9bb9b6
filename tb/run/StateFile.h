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

#include "common/CpuTime.h"
#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "model/Ssd.h"

namespace ssd::tb {

inline constexpr uint32_t kStateFormatVersion = 6;

struct StateFileError : InputError {
  using InputError::InputError;
};

// The config keys the saved state depends on (geometry, FTL, write buffer), by section: a
// state loads only into a drive whose keys are the same.
nlohmann::ordered_json state_shaping_config(const config::DriveConfig& cfg);

// Writes the drive's state, preconditioned, to `path` (through a temporary file).
void save_state(const std::string& path, const config::DriveConfig& cfg, model::Ssd& ssd);
// The size of the file save_state would write, measured without writing it.
uint64_t saved_state_bytes(const config::DriveConfig& cfg, model::Ssd& ssd);
// Above this, a state file is announced before it is written.
inline constexpr uint64_t kLargeStateBytes = 2'000'000'000;
// Before writing a state file of `bytes` to `path` on a disk with `available` bytes free:
// whether it fits (if not, `text` is the error), and else a warning when it is large.
struct StateSizeNote {
  bool fits = true;
  std::string text;
};
StateSizeNote state_size_note(const std::string& path, uint64_t bytes, uint64_t available);
// Loads the state in `path` into `ssd`, freshly built from `cfg` and not yet simulated, and
// gives its controller the preconditioning figures (wall_s and cpu_s: the load's).
void load_state(const std::string& path, const config::DriveConfig& cfg, model::Ssd& ssd);

// The header of the state file `path`: {"config": the shaping keys, "precondition": what it
// did}. Throws StateFileError.
nlohmann::json state_header(const std::string& path);

// Saves the state once preconditioning is done: the controller preconditions at the start of
// simulation, and this module, built after the drive, starts after it. An error stops the
// simulation (error() then holds it), or, `best_effort` (storing in the cache), is only
// reported (warning()) and the run goes on. `progress`: saving is shown on the progress line.
class StateSaver : public sc_core::sc_module {
 public:
  StateSaver(sc_core::sc_module_name name, std::string path, const config::DriveConfig& cfg,
             model::Ssd& ssd, bool best_effort, bool progress)
      : sc_core::sc_module(name),
        path_(std::move(path)),
        cfg_(cfg),
        ssd_(ssd),
        best_effort_(best_effort),
        progress_(progress) {}
  std::exception_ptr error() const { return error_; }
  const std::string& warning() const { return warning_; }
  const PhaseTime& took() const { return took_; }  // saving

 private:
  void start_of_simulation() override;

  std::string path_;
  const config::DriveConfig& cfg_;
  model::Ssd& ssd_;
  bool best_effort_;
  bool progress_;  // on the progress line (tb/run/PhaseProgress.h)
  std::exception_ptr error_;
  std::string warning_;
  PhaseTime took_;
};

}  // namespace ssd::tb
