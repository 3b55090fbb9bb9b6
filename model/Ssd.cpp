#include "model/Ssd.h"

#include <string>

namespace ssd::model {

Ssd::Ssd(sc_core::sc_module_name name, const config::DriveConfig& drive, EnergyMonitor& monitor)
    : sc_module(name),
      cfg_(config::referred_to_rails(drive)),
      host_if_("host_if", cfg_.host, cfg_.flash.page_bytes, monitor),
      controller_("controller", cfg_, monitor),
      dram_("dram", controller_.dram_config(), monitor) {
  const config::DriveConfig& cfg = cfg_;
  host_if_.ctrl_socket.bind(controller_.host_socket);
  controller_.dram_socket.bind(dram_.socket);
  // Every throttle action acts through the budget.
  if (cfg.power_budget.enabled || cfg.thermal.throttle.action != config::ThrottleAction::None)
    budget_ =
        std::make_unique<PowerBudget>(PowerBudget::configured(cfg), PowerBudget::cap_key(cfg));
  const FlashChannel::Params channel = FlashChannel::params(cfg);
  for (uint32_t ch = 0; ch < cfg.flash.channels; ++ch) {
    const std::string n = "ch" + std::to_string(ch);
    channels_.push_back(
        std::make_unique<FlashChannel>(n.c_str(), ch, channel, monitor, budget_.get()));
    controller_.flash_socket.bind(channels_.back()->socket);
  }
  if (cfg.controller.issue_order == config::IssueOrder::InOrder) {
    std::vector<const flash::IssueGate*> gates;
    for (const auto& ch : channels_) gates.push_back(ch.get());
    controller_.attach_gates(std::move(gates));
  }
  if (budget_) budget_->prepare(monitor);  // every component is registered
  if (cfg.thermal.enabled) {
    if (!monitor.thermal())
      SC_REPORT_FATAL("/ssdtlm/thermal",
                      "thermal.enabled: the energy "
                      "monitor has no thermal model");
    throttle_ = std::make_unique<ThermalThrottle>("thermal", cfg.thermal, monitor, budget_.get());
  }
}

void Ssd::mark_host_phase_end() {
  Waits w{host_if_.link_wait(), controller_.command_wait(), {}};
  for (const auto& ch : channels_) w.channels.push_back(ch->usage());
  host_phase_ = std::move(w);
}

}  // namespace ssd::model
