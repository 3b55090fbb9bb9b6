#include "model/controller/Core.h"

namespace ssd::model::controller {

Core::Core(EnergyMonitor& monitor, const config::ControllerConfig& cfg)
    : active_w_(cfg.i_active_ma * 1e-3 * cfg.voltage_v),
      psm_(monitor, "controller", "controller", cfg.voltage_v,
           {{PowerState::Idle, cfg.i_idle_ma}, {PowerState::Active, cfg.i_active_ma}},
           PowerState::Idle) {}

void Core::blocked(const sc_core::sc_time& from, bool gc) {
  (gc ? blocked_gc_ : blocked_flash_).add(from, cursor_);
  if (command_) (gc ? waits_.gc : waits_.flash) += cursor_ - from;
}

void Core::forget_before(const sc_core::sc_time& arrived) {
  for (flash::BackgroundTime* spans : {&blocked_flash_, &blocked_gc_})
    if (spans->crowded()) spans->forget_before(arrived);
}

}  // namespace ssd::model::controller
