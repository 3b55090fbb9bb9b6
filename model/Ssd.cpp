#include "model/Ssd.h"

#include <string>

#include "firmware/Ftl.h"

namespace ssd::model {
namespace {

std::string refusals_origin(const config::DriveConfig& cfg, const std::string& origin) {
  return origin.empty() ? config::drive_origin(cfg.name) : origin;
}

// `cfg`, once it meets Ssd::check: nothing is built from a config that breaks a rule.
const config::DriveConfig& checked(const config::DriveConfig& cfg, const std::string& origin) {
  config::Problems problems(refusals_origin(cfg, origin));
  Ssd::check(cfg, problems);
  problems.raise();
  return cfg;
}

}  // namespace

void Ssd::check(const config::DriveConfig& cfg, config::Problems& problems) {
  fw::check_ftl(cfg, problems);
  // DFTL's table has no size without translation pages (dram.access_bytes above the page).
  if (problems.none_under({"dram.access_bytes"}))
    Dram::check(cfg, fw::mapping_table_bytes(cfg), problems);
}

Ssd::Ssd(sc_core::sc_module_name name, const config::DriveConfig& drive, EnergyMonitor& monitor,
         const std::string& origin)
    : sc_module(name),
      cfg_(config::referred_to_rails(checked(drive, origin))),
      host_if_("host_if", cfg_.host, cfg_.flash.page_bytes, cfg_.namespace_layout(), monitor),
      controller_("controller", cfg_, monitor),
      dram_("dram", controller_.dram_config(), monitor, controller_.dram_ports()) {
  const config::DriveConfig& cfg = cfg_;
  host_if_.ctrl_socket.bind(controller_.host_socket);
  controller_.dram_socket.bind(dram_.socket);
  // Every throttle action acts through the budget.
  if (cfg.power_budget.enabled || cfg.thermal.throttle.action != config::ThrottleAction::None)
    budget_ =
        std::make_unique<PowerBudget>(PowerBudget::configured(cfg), PowerBudget::cap_key(cfg));
  FlashChannel::Params channel = FlashChannel::params(cfg);
  const config::ReliabilityConfig& rel = cfg.flash.reliability;
  if (rel.enabled && rel.ecc_scope == config::EccScope::Controller) {
    ecc_ = std::make_unique<flash::EccPool>(rel, cfg.controller.voltage_v, monitor, "");
    channel.shared_ecc = ecc_.get();
  }
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
  config::Problems problems(refusals_origin(drive, origin));
  if (budget_) budget_->prepare(monitor, problems);  // every component is registered
  if (cfg.thermal.enabled) {
    if (!monitor.thermal())
      SC_REPORT_FATAL("/ssdtlm/thermal",
                      "thermal.enabled: the energy "
                      "monitor has no thermal model");
    throttle_ =
        std::make_unique<ThermalThrottle>("thermal", cfg.thermal, monitor, budget_.get(), problems);
  }
  problems.raise();
}

std::vector<const flash::EccPool*> Ssd::ecc_pools() const {
  if (ecc_) return {ecc_.get()};
  std::vector<const flash::EccPool*> pools;
  for (const auto& ch : channels_)
    if (ch->ecc()) pools.push_back(ch->ecc());
  return pools;
}

void Ssd::mark_host_phase_end() {
  Waits w{host_if_.link_wait(), controller_.workers(), {}};
  for (const auto& ch : channels_) w.channels.push_back(ch->usage());
  host_phase_ = std::move(w);
}

}  // namespace ssd::model
