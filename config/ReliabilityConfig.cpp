#include "config/ReliabilityConfig.h"

#include <cmath>
#include <string>

namespace ssd::config {

double raw_rate(const ReliabilityConfig& r, double pe, double age_days, double reads) {
  return r.rber_base + r.rber_wear * std::pow(pe, r.wear_exponent) +
         r.rber_retention * std::pow(pe, r.retention_wear_exponent) *
             std::pow(age_days, r.retention_time_exponent) +
         r.rber_disturb * std::pow(pe, r.disturb_wear_exponent) * reads;
}

double retention_acceleration(const ReliabilityConfig& r) {
  return retention_acceleration(r, r.temperature_c);
}

double retention_acceleration(const ReliabilityConfig& r, double temperature_c) {
  constexpr double kBoltzmannEvPerK = 8.617333262e-5;
  constexpr double kZeroCelsiusK = 273.15;
  return std::exp(
      r.activation_energy_ev / kBoltzmannEvPerK *
      (1.0 / (r.reference_temperature_c + kZeroCelsiusK) - 1.0 / (temperature_c + kZeroCelsiusK)));
}

double page_type_factor(const ReliabilityConfig& r, uint32_t type, uint32_t page_types) {
  const std::vector<double>& by_type = r.rber_by_page_type;
  return by_type.empty() ? 1.0 : by_type[type < page_types ? type : 0];
}

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
