#include "model/thermal/ThermalThrottle.h"

#include <algorithm>
#include <cmath>

#include "common/SimNow.h"

namespace ssd::model {

ThermalThrottle::ThermalThrottle(sc_core::sc_module_name name, const config::ThermalConfig& cfg,
                                 EnergyMonitor& monitor, PowerBudget* budget,
                                 config::Problems& problems)
    : sc_module(name),
      monitor_(monitor),
      budget_(budget),
      period_(cfg.sample_us, sc_core::SC_US),
      acts_(cfg.throttle.action != config::ThrottleAction::None),
      policy_(cfg.throttle.t_on_c, cfg.throttle.t_off_c) {
  if (acts_ && !budget_) SC_REPORT_FATAL("/ssdtlm/thermal", "throttling needs the power budget");
  if (budget_) {
    throttled_limits_ = budget_->base();
    if (cfg.throttle.action == config::ThrottleAction::PowerBudget) {
      throttled_limits_.power_nw = std::min<int64_t>(throttled_limits_.power_nw,
                                                     std::llround(cfg.throttle.max_power_w * 1e9));
      budget_->check(throttled_limits_, "thermal.throttle.max_power_w", problems);
    } else if (cfg.throttle.action == config::ThrottleAction::Dies) {
      throttled_limits_.operations =
          std::min(throttled_limits_.operations, cfg.throttle.max_active_dies);
    }
  }
  SC_METHOD(sample);
}

void ThermalThrottle::account(const sc_core::sc_time& now) {
  const bool on = policy_.on();
  if (on) stats_.throttled += now - since_;
  since_ = now;
  if (!budget_) return;
  const uint64_t ops = budget_->stats().operations;
  stats_.operations[on] += ops - operations_at_;
  operations_at_ = ops;
}

void ThermalThrottle::sample() {
  const sc_core::sc_time now = sim_now();
  // The sensor keeps reading while anything else may still happen; once nothing is pending
  // the run is over (it ends when no event is left).
  if (sc_core::sc_pending_activity()) sc_core::next_trigger(period_);
  if (now == sc_core::SC_ZERO_TIME) return;  // the first reading is one period in
  ++stats_.samples;
  const std::vector<double>& temps = monitor_.read_temperatures(now);
  const double hottest = *std::max_element(temps.begin(), temps.end());
  if (!acts_) return;
  const bool was = policy_.on();
  if (policy_.next(hottest) == was) return;
  account(now);  // the interval up to now, in the old state
  policy_.update(hottest);
  if (!was) {
    if (stats_.entries == 0) stats_.first_entry = now;
    ++stats_.entries;
  } else {
    if (stats_.exits == 0) stats_.first_exit = now;
    ++stats_.exits;
  }
  budget_->set_limits(was ? budget_->base() : throttled_limits_, now);
  monitor_.thermal()->set_throttled(now.value(), !was);
}

void ThermalThrottle::finish(const sc_core::sc_time& end) { account(std::max(end, since_)); }

}  // namespace ssd::model
