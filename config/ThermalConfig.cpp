#include "config/ThermalConfig.h"

namespace ssd::config {

void validate(const ThermalConfig& t, Problems& problems) {
  if (!(t.throttle.t_off_c < t.throttle.t_on_c))
    problems.add("thermal.throttle.t_off_c", "must be below thermal.throttle.t_on_c (" +
                                                 format_number(t.throttle.t_on_c) +
                                                 "): the hysteresis band");
  if (t.throttle.action == ThrottleAction::PowerBudget && !(t.throttle.max_power_w > 0))
    problems.add("thermal.throttle.max_power_w", "the power_budget action needs a cap above 0");
  if (t.throttle.action != ThrottleAction::None && !t.enabled)
    problems.add("thermal.throttle.action", "throttling needs thermal.enabled true");
}

}  // namespace ssd::config
