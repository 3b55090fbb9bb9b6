#include "ssdtlm/Ssd.h"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>

#include "common/AtomicFile.h"
#include "config/DriveConfig.h"
#include "config/Overrides.h"
#include "config/json/Problems.h"
#include "firmware/StatisticsJson.h"
#include "ip/BackingStore.h"
#include "ip/BlockTarget.h"
#include "model/Ssd.h"
#include "model/power/EnergyMonitor.h"
#include "model/power/MonitorOptions.h"

namespace ssdtlm {
namespace {

// Checked before the module is built: a bad config leaves no half-built hierarchy behind.
std::shared_ptr<const ssd::config::DriveConfig> parse_or_report(
    const std::function<nlohmann::json()>& read, const std::string& origin,
    const std::vector<std::string>& overrides) {
  try {
    nlohmann::json doc = read();
    for (const std::string& o : overrides) ssd::config::apply_override(doc, o);
    auto cfg = std::make_shared<const ssd::config::DriveConfig>(
        ssd::config::parse_drive_config(doc, origin));
    // The model's rules that need no model (its power rules come as it is built).
    ssd::config::Problems problems(origin);
    ssd::model::Ssd::check(*cfg, problems);
    problems.raise();
    return cfg;
  } catch (const std::exception& e) {
    SC_REPORT_FATAL(msg::kConfig, e.what());
    throw;  // a fatal report's action that does not stop leaves no drive to build
  }
}

// The commands the socket served, per kind: report.json's requests, latency_us and
// latency_breakdown_us (means; the testbench's report adds percentiles and the slowest).
void add_commands(nlohmann::ordered_json& r, const ssd::ip::BlockTarget& target,
                  bool several_cores) {
  using nlohmann::ordered_json;
  static constexpr const char* kKinds[] = {"read", "write", "trim", "flush"};  // fw::CommandOp
  const auto mean_us = [](unsigned __int128 ps, uint64_t n) {
    return n ? double(static_cast<long double>(ps) / n) * 1e-6 : 0.0;
  };
  ordered_json requests, latency, breakdown;
  for (std::size_t k = 0; k < std::size(kKinds); ++k) {
    const ssd::ip::BlockTarget::Usage& u = target.usage()[k];
    requests[kKinds[k]] = u.commands;
    requests[std::string(kKinds[k]) + "_bytes"] = u.bytes;
    latency[kKinds[k]] = {{"count", u.commands},
                          {"mean", mean_us(u.latency_ps, u.commands)},
                          {"max", double(u.max_latency_ps) * 1e-6}};
    ordered_json stages;
    for (std::size_t s = 0; s < ssd::model::kStageCount; ++s)
      if (shown(ssd::model::Stage(s), several_cores))
        stages[to_string(ssd::model::Stage(s))] = mean_us(u.stage_ps[s], u.commands);
    breakdown[kKinds[k]] = {{"count", u.commands}, {"mean", u.commands ? stages : nullptr}};
  }
  requests["refused"] = target.refused();
  r["requests"] = std::move(requests);
  r["latency_us"] = std::move(latency);
  r["latency_breakdown_us"] = std::move(breakdown);
}

}  // namespace

struct Ssd::Parts {
  Parts(const ssd::config::DriveConfig& c, const SsdOptions& opts)
      : cfg(c),
        monitor(ssd::model::monitor_options(cfg)),
        drive("drive", cfg, monitor),
        store(opts.backing_store ? std::make_unique<ssd::ip::BackingStore>() : nullptr),
        target("target", cfg.logical_bytes(), cfg.unit_bytes(), store.get()) {
    target.drive_socket.bind(drive.host_socket());
  }
  ssd::config::DriveConfig cfg;
  ssd::model::EnergyMonitor monitor;
  ssd::model::Ssd drive;
  std::unique_ptr<ssd::ip::BackingStore> store;
  ssd::ip::BlockTarget target;
  bool finished = false;
};

Ssd::Ssd(sc_core::sc_module_name name, const std::string& config_path, const SsdOptions& opts)
    : Ssd(name,
          parse_or_report([&] { return ssd::config::read_config_json(config_path); }, config_path,
                          opts.overrides),
          opts) {}

Ssd::Ssd(sc_core::sc_module_name name, const nlohmann::json& config, const SsdOptions& opts)
    : Ssd(name, parse_or_report([&] { return config; }, "config", opts.overrides), opts) {}

Ssd::Ssd(sc_core::sc_module_name name, const std::shared_ptr<const ssd::config::DriveConfig>& cfg,
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

void Ssd::write_report(const std::string& dir) {
  using nlohmann::ordered_json;
  finish();
  const ssd::config::DriveConfig& cfg = parts_->cfg;
  const ssd::model::Controller& ctrl = parts_->drive.controller();
  ordered_json r;
  r["drive"] = {{"config", cfg.name},
                {"ftl", ctrl.firmware().ftl().name()},
                {"dies", cfg.flash.dies()},
                {"logical_bytes", cfg.logical_bytes()}};
  r["sim_time_s"] = parts_->monitor.duration_s();
  add_commands(r, parts_->target, cfg.controller.cores.size() > 1);
  const std::vector<const ssd::Statistics*> figures = ctrl.statistics();
  for (const char* group : {"flash_ops", "firmware", "merges", "write_buffer", "slc_cache", "gc",
                            "wear_leveling", "dftl"})
    ssd::add_figures(r, figures, group);
  if (const ssd::ip::Scoreboard* sb = parts_->target.scoreboard())
    r["scoreboard"] = {{"pages_checked", sb->pages_checked()}, {"mismatches", sb->mismatches()}};
  r["energy"] = {{"total_j", energy_j()},
                 {"average_power_w", average_power_w()},
                 {"peak_power_w", peak_power_w()}};
  try {
    std::filesystem::create_directories(dir);
    ssd::AtomicFile file(dir + "/report.json");
    file.stream() << r.dump(2) << '\n';
    file.commit();
  } catch (const std::exception& e) {
    SC_REPORT_ERROR(msg::kReport, e.what());
  }
}

std::optional<double> Ssd::figure(const std::string& group, const std::string& name) const {
  return ssd::figure_value(parts_->drive.controller().statistics(), group, name);
}

ssd::model::Ssd& Ssd::model() { return parts_->drive; }

ssd::model::EnergyMonitor& Ssd::monitor() { return parts_->monitor; }

}  // namespace ssdtlm
