#pragma once
#include <optional>

#include "common/CpuTime.h"

namespace ssd::report {

// What each phase of a run took (report.json's `phases`): building the model; aging the drive,
// by loading a saved one or by preconditioning it; saving the aged drive; the simulated run (the
// kernel's time less preconditioning and saving: what the requests cost); closing the outputs.
struct RunPhases {
  PhaseTime build;
  std::optional<PhaseTime> load, precondition, save;
  PhaseTime run, outputs;
  double total_wall_s = 0;  // from building the model to the outputs closed
};

}  // namespace ssd::report
