#pragma once
// The firmware's thermal protection (docs/thermal.md#throttling): it reads the thermal
// model's node temperatures every thermal.sample_us (its sensor), and once the hottest node is
// above thermal.throttle.t_on_c it throttles until the hottest is below t_off_c (hysteresis).
// Throttling acts through the power budget: a lower cap on the drive's power (power_budget)
// or fewer die operations at once (dies); with action none the drive has no protection and
// only the temperatures are recorded.
#include <cstdint>

#include <systemc>

#include "config/DriveConfig.h"
#include "model/power/EnergyMonitor.h"
#include "model/power/PowerBudget.h"

namespace ssd::model {

// Thresholds with hysteresis: throttled from the first reading above t_on until the first
// below t_off (t_off < t_on); readings in between keep the state.
class ThrottleHysteresis {
 public:
  ThrottleHysteresis(double t_on_c, double t_off_c) : t_on_(t_on_c), t_off_(t_off_c) {}
  // Whether a reading of `hottest_c` would leave it throttled.
  bool next(double hottest_c) const { return on_ ? !(hottest_c < t_off_) : hottest_c > t_on_; }
  // Takes the reading; whether throttled now.
  bool update(double hottest_c) {
    on_ = next(hottest_c);
    return on_;
  }
  bool on() const { return on_; }

 private:
  double t_on_, t_off_;
  bool on_ = false;
};

class ThermalThrottle : public sc_core::sc_module {
 public:
  struct Stats {
    uint64_t samples = 0;
    uint64_t entries = 0;          // times throttling began
    sc_core::sc_time throttled;    // time throttled (up to the last sample)
    sc_core::sc_time first_entry;  // when throttling first began (entries > 0)
    sc_core::sc_time first_exit;   // when it first ended (exits > 0)
    uint64_t exits = 0;
    uint64_t operations[2] = {0, 0};  // die operations started unthrottled, throttled
  };

  SC_HAS_PROCESS(ThermalThrottle);
  // `budget` may be null only with action none. A throttled cap that leaves no room for one
  // die operation is a problem naming thermal.throttle.max_power_w.
  ThermalThrottle(sc_core::sc_module_name name, const config::ThermalConfig& cfg,
                  EnergyMonitor& monitor, PowerBudget* budget, config::Problems& problems);

  // Closes the record at `end` (time throttled up to then).
  void finish(const sc_core::sc_time& end);
  const Stats& stats() const { return stats_; }
  bool throttled() const { return policy_.on(); }

 private:
  void sample();
  // Books the time and operations since the last change of state.
  void account(const sc_core::sc_time& now);

  EnergyMonitor& monitor_;
  PowerBudget* budget_;
  sc_core::sc_time period_;
  bool acts_;  // an action other than none
  ThrottleHysteresis policy_;
  PowerBudget::Limits throttled_limits_;
  Stats stats_;
  sc_core::sc_time since_;      // the last change of state
  uint64_t operations_at_ = 0;  // the budget's count then
};

}  // namespace ssd::model
