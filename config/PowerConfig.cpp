#include "config/PowerConfig.h"

namespace ssd::config {
namespace {

// Limits that keep the report and the power analyser's work per transition small.
constexpr std::size_t kMaxRails = 8;
constexpr std::size_t kMaxPeakWindows = 8;
constexpr std::size_t kMaxCurrentLevels = 32;

// At most `max_entries`, each above the one before.
void check_increasing(Problems& problems, const std::string& path,
                      const std::vector<double>& values, std::size_t max_entries) {
  if (values.size() > max_entries)
    problems.add(path, "has " + std::to_string(values.size()) + " entries; at most " +
                           std::to_string(max_entries));
  for (std::size_t i = 1; i < values.size(); ++i)
    if (!(values[i] > values[i - 1]))
      problems.add(path + "[" + std::to_string(i) + "]",
                   "must be greater than the entry before (" + format_number(values[i - 1]) + ")");
}

}  // namespace

std::size_t PowerConfig::rail_index(const std::string& name) const {
  std::size_t r = 0;
  while (r < rails.size() && rails[r].name != name) ++r;
  return r;
}

void validate(const PowerConfig& p, Problems& problems) {
  if (p.rails.size() > kMaxRails)
    problems.add("power.rails", "has " + std::to_string(p.rails.size()) + " rails; at most " +
                                    std::to_string(kMaxRails));
  std::string names;
  for (std::size_t i = 0; i < p.rails.size(); ++i) {
    const std::string& n = p.rails[i].name;
    const std::string path = "power.rails[" + std::to_string(i) + "].name";
    // It becomes part of a VCD signal name and a report key.
    require_short_identifier(problems, path, n);
    for (std::size_t j = 0; j < i; ++j)
      if (p.rails[j].name == n) problems.add(path, "\"" + n + "\" names two rails");
    names += (names.empty() ? "" : ", ") + n;
  }
  for (const auto& [group, reg] : p.regulators.by_group()) {
    if (p.rail_index(reg->rail) == p.rails.size())
      problems.add(std::string("power.regulators.") + group + ".rail",
                   "no rail named \"" + reg->rail + "\" (rails: " + names + ")");
    // A current measured at the rail already holds the regulator's loss.
    if (reg->currents_at == CurrentsAt::Rail && reg->efficiency != 1.0)
      problems.add(std::string("power.regulators.") + group + ".efficiency",
                   "must be 1 with currents_at \"rail\": a current measured at the rail already "
                   "includes the regulator's loss (got " +
                       format_number(reg->efficiency) + ")");
  }
  check_increasing(problems, "power.peak_windows_us", p.peak_windows_us, kMaxPeakWindows);
  check_increasing(problems, "power.current_levels_ma", p.current_levels_ma, kMaxCurrentLevels);
  const HoldUpConfig& h = p.hold_up;
  if (h.capacitance_uf > 0 && !(h.charged_v > h.cutoff_v))
    problems.add("power.hold_up.charged_v",
                 "must be above power.hold_up.cutoff_v (" + format_number(h.cutoff_v) +
                     ") when power.hold_up.capacitance_uf is set: the bank gives energy only "
                     "between the two (got " +
                     format_number(h.charged_v) + ")");
}

void validate(const PowerBudgetConfig& b, Problems& problems) {
  if (b.enabled && (b.max_power_w > 0) == (b.max_current_ma > 0))
    problems.add("power_budget.max_power_w",
                 "set exactly one of power_budget.max_power_w and power_budget.max_current_ma "
                 "(above 0) when power_budget.enabled is true");
}

}  // namespace ssd::config
