#include "model/controller/Core.h"

#include <algorithm>
#include <vector>

namespace ssd::model::controller {

CoreSpec CoreSpec::firmware_core(const config::ControllerConfig& cfg) {
  return {"controller", cfg.voltage_v, cfg.i_idle_ma, cfg.i_active_ma, cfg.clock_gating, 0};
}

CoreSpec CoreSpec::read_engine(const config::ControllerConfig& cfg) {
  const config::HwReadPathConfig& hw = cfg.hw_read_path;
  // Its DRAM port follows the cores'.
  const uint32_t index = uint32_t(std::max<std::size_t>(cfg.cores.size(), 1));
  return {"read_engine", cfg.voltage_v, hw.i_idle_ma, hw.i_active_ma, {}, index};
}

CoreSpec CoreSpec::issue_engine(const config::ControllerConfig& cfg) {
  const config::IssueEngineConfig& e = cfg.issue_engine;
  return {"issue_engine", cfg.voltage_v, e.i_idle_ma, e.i_active_ma, {}, 0};
}

namespace {
std::vector<StateCurrent> core_states(const CoreSpec& spec) {
  std::vector<StateCurrent> s{{PowerState::Idle, spec.i_idle_ma},
                              {PowerState::Active, spec.i_active_ma}};
  if (spec.gating.enabled) s.push_back({PowerState::ClockGated, spec.gating.i_gated_ma});
  return s;
}
}  // namespace

Core::Core(EnergyMonitor& monitor, const CoreSpec& spec)
    : name_(spec.name),
      index_(spec.index),
      active_w_(spec.i_active_ma * 1e-3 * spec.voltage_v),
      gating_(spec.gating.enabled),
      gate_idle_(spec.gating.idle_us, sc_core::SC_US),
      psm_(monitor, spec.name, "controller", spec.voltage_v, core_states(spec), PowerState::Idle) {
  if (gating_) gate_timer_.notify(gate_idle_);  // idle from time 0
}

void Core::gate_by(const sc_core::sc_time& now) {
  const sc_core::sc_time due = rest_since_ + gate_idle_;
  if (psm_.state() != PowerState::Idle || now < due) return;
  psm_.enter(PowerState::ClockGated, due);
  ++gate_entries_;
}

void Core::gate_timer_fired() {
  const sc_core::sc_time now = sim_now();
  const sc_core::sc_time due = rest_since_ + gate_idle_;
  if (psm_.state() == PowerState::Idle && now < due) gate_timer_.notify(due - now);
  gate_by(now);
}

void Core::blocked(const sc_core::sc_time& from, bool gc) {
  (gc ? blocked_gc_ : blocked_flash_).add(from, cursor_);
  if (command_) (gc ? waits_.gc : waits_.flash) += cursor_ - from;
}

void Core::forget_before(const sc_core::sc_time& arrived) {
  for (flash::BackgroundTime* spans : {&blocked_flash_, &blocked_gc_})
    if (spans->crowded()) spans->forget_before(arrived);
}

}  // namespace ssd::model::controller
