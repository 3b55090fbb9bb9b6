#include "config/ControllerConfig.h"

#include <utility>

namespace ssd::config {

// A step's cycles need a clock to take time, and at it no step may take a second (as
// kStepTime bounds the microsecond costs).
void validate(const ControllerConfig& c, Problems& problems) {
  for (const auto& [key, cycles] :
       {std::pair{"controller.cycles.host_command", c.cycles.host_command},
        std::pair{"controller.cycles.ftl_step", c.cycles.ftl_step},
        std::pair{"controller.cycles.flash_command", c.cycles.flash_command}}) {
    if (cycles > 0 && !(c.clock_mhz > 0))
      problems.add(key, "needs controller.clock_mhz (the cycles' clock)");
    else if (cycles > 0 && cycles / c.clock_mhz > kStepTime.hi)
      problems.add(key, "takes over a second at controller.clock_mhz");
  }
  const ClockGatingConfig& gating = c.clock_gating;
  if (gating.enabled && !(gating.idle_us > 0))
    problems.add("controller.clock_gating.idle_us",
                 "must be positive when clock gating is enabled");
  if (gating.enabled && gating.i_gated_ma > c.i_idle_ma)
    problems.add(
        "controller.clock_gating.i_gated_ma",
        "is above controller.i_idle_ma: a core whose clock is stopped draws less than an idle one");
  const HwReadPathConfig& hw = c.hw_read_path;
  if (hw.enabled && hw.i_idle_ma > hw.i_active_ma)
    problems.add(
        "controller.hw_read_path.i_idle_ma",
        "is above controller.hw_read_path.i_active_ma: the engine draws more while it works");
}

}  // namespace ssd::config
