#include "config/ReliabilityConfig.h"

#include <string>

namespace ssd::config {

void validate(const ReliabilityConfig& r, Problems& problems) {
  if (!r.enabled) return;
  constexpr std::size_t kMaxRetrySteps = 64;  // beyond any retry table published
  if (r.retry_steps.size() > kMaxRetrySteps)
    problems.add("flash.reliability.retry_steps", "has " + std::to_string(r.retry_steps.size()) +
                                                      " steps; at most " +
                                                      std::to_string(kMaxRetrySteps));
  // A step correcting less than the one before it would never end a read the earlier failed.
  for (uint32_t s = 1; s < r.steps(); ++s)
    if (r.correctable(s) < r.correctable(s - 1))
      problems.add("flash.reliability.retry_steps[" + std::to_string(s - 1) + "].correctable_bits",
                   "corrects " + std::to_string(r.correctable(s)) + " bits, fewer than the step " +
                       "before it (" + std::to_string(r.correctable(s - 1)) +
                       "): a read climbs the table only while its errors exceed a step's");
}

}  // namespace ssd::config
