#pragma once
// The whole drive: host interface, controller (running the firmware), DRAM, and the flash
// channels with their dies, built from one DriveConfig and bound together. The host binds
// its initiator socket to host_socket().
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <systemc>

#include "config/DriveConfig.h"
#include "config/json/Problems.h"
#include "model/controller/Controller.h"
#include "model/dram/Dram.h"
#include "model/flash/FlashChannel.h"
#include "model/host/HostInterface.h"
#include "model/power/EnergyMonitor.h"
#include "model/power/PowerBudget.h"
#include "model/thermal/ThermalThrottle.h"

namespace ssd::model {

class Ssd : public sc_core::sc_module {
 public:
  // `origin` names the config in the drive's refusals (empty: "drive '<name>'"). Throws
  // ssd::ConfigError with every rule of check() the config breaks before anything is built,
  // then with every power rule the built drive breaks (a cap, or a thermal throttle's, that
  // leaves no room for the largest die operation).
  Ssd(sc_core::sc_module_name name, const config::DriveConfig& cfg, EnergyMonitor& monitor,
      const std::string& origin = {});
  // The drive's build rules that need no model, each broken one a problem: the FTL's
  // (fw::check_ftl) and the DRAM part that holds its tables (Dram::check).
  static void check(const config::DriveConfig& cfg, config::Problems& problems);

  tlm_utils::simple_target_socket<HostInterface>& host_socket() { return host_if_.host_socket; }
  const Controller& controller() const { return controller_; }
  Controller& controller() { return controller_; }
  const Dram& dram() const { return dram_; }
  const HostInterface& host_interface() const { return host_if_; }
  const FlashChannel& channel(uint32_t i) const { return *channels_.at(i); }
  FlashChannel& channel(uint32_t i) { return *channels_.at(i); }
  uint32_t channels() const { return uint32_t(channels_.size()); }
  // Aging NAND: the ECC engines, each channel's or the controller's (empty: off).
  std::vector<const flash::EccPool*> ecc_pools() const;
  // The power budget (power_budget, or a throttle that acts through it); null without one.
  PowerBudget* power_budget() { return budget_.get(); }
  const PowerBudget* power_budget() const { return budget_.get(); }
  // The host's last completion: the waits so far, for the host phase's utilisation
  // (docs/report.md#utilisation); the energy monitor marks the components' busy time.
  struct Waits {
    sc_core::sc_time link;
    std::vector<Controller::Worker> workers;
    std::vector<FlashChannel::Usage> channels;
  };
  void mark_host_phase_end();
  const Waits* host_phase_waits() const { return host_phase_ ? &*host_phase_ : nullptr; }
  // The thermal protection (thermal.enabled); null without one.
  ThermalThrottle* thermal_throttle() { return throttle_.get(); }
  const ThermalThrottle* thermal_throttle() const { return throttle_.get(); }

 private:
  // The config with each group's currents at the voltage they were measured at
  // (config::referred_to_rails): the components are built from it.
  const config::DriveConfig cfg_;
  HostInterface host_if_;
  Controller controller_;
  Dram dram_;
  std::unique_ptr<PowerBudget> budget_;
  std::unique_ptr<flash::EccPool> ecc_;  // the controller's, shared by the channels
  std::vector<std::unique_ptr<FlashChannel>> channels_;
  std::unique_ptr<ThermalThrottle> throttle_;
  std::optional<Waits> host_phase_;
};

}  // namespace ssd::model
