#include "ssdtlm/Ssd.h"

#include <algorithm>
#include <exception>
#include <functional>
#include <memory>

#include "config/DriveConfig.h"
#include "config/Overrides.h"
#include "ip/BackingStore.h"
#include "ip/BlockTarget.h"
#include "model/EnergyMonitor.h"
#include "model/MonitorOptions.h"
#include "model/Ssd.h"

namespace ssdtlm {
namespace {

// Checked before the module is built: a bad config leaves no half-built hierarchy behind.
std::shared_ptr<const ssd::config::DriveConfig> parse_or_report(
    const std::function<nlohmann::json()>& read, const std::string& origin,
    const std::vector<std::string>& overrides) {
  try {
    nlohmann::json doc = read();
    for (const std::string& o : overrides) ssd::config::apply_override(doc, o);
    return std::make_shared<const ssd::config::DriveConfig>(
        ssd::config::parse_drive_config(doc, origin));
  } catch (const std::exception& e) {
    SC_REPORT_FATAL(msg::kConfig, e.what());
    throw;  // a fatal report's action that does not stop leaves no drive to build
  }
}

}  // namespace

struct Ssd::Parts {
  Parts(const ssd::config::DriveConfig& c, const SsdOptions& opts)
      : cfg(c),
        monitor(ssd::model::monitor_options(cfg)),
        drive("drive", cfg, monitor),
        store(opts.backing_store ? std::make_unique<ssd::ip::BackingStore>() : nullptr),
        target("target", cfg.logical_bytes(), store.get()) {
    target.drive_socket.bind(drive.host_socket());
  }
  ssd::config::DriveConfig cfg;
  ssd::model::EnergyMonitor monitor;
  ssd::model::Ssd drive;
  std::unique_ptr<ssd::ip::BackingStore> store;
  ssd::ip::BlockTarget target;
  bool finished = false;
};

Ssd::Ssd(sc_core::sc_module_name name, const std::string& config_path, SsdOptions opts)
    : Ssd(name,
          parse_or_report([&] { return ssd::config::read_config_json(config_path); }, config_path,
                          opts.overrides),
          opts) {}

Ssd::Ssd(sc_core::sc_module_name name, const nlohmann::json& config, SsdOptions opts)
    : Ssd(name, parse_or_report([&] { return config; }, "config", opts.overrides), opts) {}

Ssd::Ssd(sc_core::sc_module_name name, std::shared_ptr<const ssd::config::DriveConfig> cfg,
         const SsdOptions& opts)
    : sc_module(name), parts_(std::make_unique<Parts>(*cfg, opts)) {}

Ssd::~Ssd() = default;

tlm::tlm_target_socket<>& Ssd::socket() { return parts_->target.socket; }

uint64_t Ssd::capacity_bytes() const { return parts_->cfg.logical_bytes(); }

void Ssd::finish() {
  if (parts_->finished) return;
  parts_->finished = true;
  const sc_core::sc_time end =
      std::max(sc_core::sc_time_stamp(), parts_->drive.controller().work_horizon());
  parts_->monitor.finish(end);
  if (parts_->drive.thermal_throttle()) parts_->drive.thermal_throttle()->finish(end);
}

double Ssd::energy_j() const { return parts_->monitor.total_energy_j(); }

double Ssd::average_power_w() const {
  const double s = parts_->monitor.duration_s();
  return s > 0 ? energy_j() / s : 0.0;
}

double Ssd::peak_power_w() const { return parts_->monitor.peak_power_w(); }

ssd::model::Ssd& Ssd::model() { return parts_->drive; }

ssd::model::EnergyMonitor& Ssd::monitor() { return parts_->monitor; }

}  // namespace ssdtlm
