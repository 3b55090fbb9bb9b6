#include "ssdtlm/Ssd.h"

#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "common/AtomicFile.h"
#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "config/Overrides.h"
#include "config/json/Problems.h"
#include "firmware/StatisticsJson.h"
#include "ip/BackingStore.h"
#include "ip/BlockTarget.h"
#include "ip/Drive.h"
#include "model/Ssd.h"
#include "model/power/EnergyMonitor.h"
#include "report/Report.h"
#include "report/Summary.h"

namespace ssdtlm {
using ssd::ip::BackingStore;
using ssd::ip::BlockTarget;
using ssd::ip::Drive;
using ssd::ip::DriveOutputs;
using ssd::ip::Scoreboard;

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

// What the platform's commands are called in the report and the summary.
constexpr const char* kWorkload = "commands through the platform's socket";

DriveOutputs drive_outputs(const SsdOptions& opts) {
  DriveOutputs out;
  out.dir = opts.out_dir;
  out.series = opts.energy_series;
  out.waveform.vcd = opts.vcd;
  out.waveform.fst = opts.fst;
  out.waveform.selection.patterns = opts.vcd_signals;
  out.waveform.selection.start_ps = opts.vcd_start.value();
  if (opts.vcd_end != sc_core::SC_ZERO_TIME) out.waveform.selection.end_ps = opts.vcd_end.value();
  out.signals_origin = "SsdOptions::vcd_signals";
  return out;
}

// The socket addresses the namespaces back to back from byte 0; zoned ones lie apart and take
// zone commands the socket has no way to send yet.
const ssd::config::DriveConfig& addressable(const ssd::config::DriveConfig& c) {
  if (c.has_zoned())
    throw ssd::ConfigError(c.name +
                           ": namespaces: the embedded drive does not address zoned "
                           "namespaces yet (kind zoned); the ssdtlm runner does");
  return c;
}

}  // namespace

struct Ssd::Parts {
  Parts(const ssd::config::DriveConfig& c, const SsdOptions& opts)
      : cfg(addressable(c)),
        drive("drive", cfg, drive_outputs(opts)),
        store(opts.backing_store ? std::make_unique<BackingStore>() : nullptr),
        target("target", cfg.namespace_layout(), cfg.unit_bytes(), store.get(),
               cfg.placement_handles() != 0) {
    target.drive_socket.bind(drive.ssd().host_socket());
    drive.ssd().controller().firmware().on_units_lost(
        [this](const std::vector<ssd::fw::Lpn>& lost, ssd::fw::UnitLoss why) {
          target.units_lost(lost, why);
        });
  }
  ssd::config::DriveConfig cfg;
  Drive drive;
  std::unique_ptr<BackingStore> store;
  BlockTarget target;
  bool finished = false;
};

// A drive its config or options cannot build is a fatal report, as a config that cannot be
// read; files that cannot be made (the output folder, vcd2fst) are the report's.
std::unique_ptr<Ssd::Parts> Ssd::build(const ssd::config::DriveConfig& cfg,
                                       const SsdOptions& opts) {
  try {
    if (!opts.out_dir.empty()) std::filesystem::create_directories(opts.out_dir);
    return std::make_unique<Ssd::Parts>(cfg, opts);
  } catch (const ssd::UsageError& e) {  // an option (SsdOptions::vcd_signals)
    SC_REPORT_FATAL(msg::kConfig, e.what());
    throw;  // a fatal report's action that does not stop leaves no drive to build
  } catch (const ssd::InputError& e) {
    SC_REPORT_FATAL(msg::kReport, e.what());
    throw;
  } catch (const std::filesystem::filesystem_error& e) {
    SC_REPORT_FATAL(msg::kReport, e.what());
    throw;
  } catch (const std::exception& e) {
    SC_REPORT_FATAL(msg::kConfig, e.what());
    throw;
  }
}

Ssd::Ssd(sc_core::sc_module_name name, const std::string& config_path, const SsdOptions& opts)
    : Ssd(name,
          parse_or_report([&] { return ssd::config::read_config_json(config_path); }, config_path,
                          opts.overrides),
          opts) {}

Ssd::Ssd(sc_core::sc_module_name name, const nlohmann::json& config, const SsdOptions& opts)
    : Ssd(name, parse_or_report([&] { return config; }, "config", opts.overrides), opts) {}

Ssd::Ssd(sc_core::sc_module_name name, const std::shared_ptr<const ssd::config::DriveConfig>& cfg,
         const SsdOptions& opts)
    : sc_module(name), parts_(build(*cfg, opts)) {}

Ssd::~Ssd() = default;

tlm::tlm_target_socket<>& Ssd::socket() { return parts_->target.socket; }

uint64_t Ssd::capacity_bytes() const { return parts_->cfg.allocated_bytes(); }

void Ssd::finish() {
  if (parts_->finished) return;
  parts_->finished = true;
  parts_->drive.finish();
  try {
    parts_->drive.close_waveforms();
  } catch (const std::exception& e) {
    SC_REPORT_ERROR(msg::kReport, e.what());
  }
}

double Ssd::energy_j() const { return parts_->drive.monitor().total_energy_j(); }

double Ssd::average_power_w() const {
  const double s = parts_->drive.monitor().duration_s();
  return s > 0 ? energy_j() / s : 0.0;
}

double Ssd::peak_power_w() const { return parts_->drive.monitor().peak_power_w(); }

nlohmann::ordered_json Ssd::report() {
  finish();
  const ssd::report::HostStats& host = parts_->target.stats();
  const std::vector<ssd::report::FlowStats> flows{{"socket", 0, &host}};
  const ssd::report::SourceFacts none;
  const std::vector<nlohmann::ordered_json> not_alone;
  const Scoreboard* sb = parts_->target.scoreboard();
  const std::optional<ssd::report::ScoreboardFigures> checked =
      sb ? std::optional(sb->figures()) : std::nullopt;
  nlohmann::ordered_json r = ssd::report::build_report(ssd::report::ReportInputs{
      parts_->cfg, kWorkload, none, host, flows, not_alone, nullptr, parts_->drive.ssd(),
      parts_->drive.monitor(), checked ? &*checked : nullptr, nullptr});
  r["requests"]["refused"] = parts_->target.refused();
  return r;
}

void Ssd::write_report(const std::string& dir) {
  const nlohmann::ordered_json r = report();
  try {
    std::filesystem::create_directories(dir);
    ssd::AtomicFile file(dir + "/report.json");
    file.stream() << r.dump(2) << '\n';
    file.commit();
  } catch (const std::exception& e) {
    SC_REPORT_ERROR(msg::kReport, e.what());
  }
}

std::string Ssd::summary() { return ssd::report::summarize(report()); }

std::optional<double> Ssd::figure(const std::string& group, const std::string& name) const {
  return ssd::figure_value(parts_->drive.ssd().controller().statistics(), group, name);
}

ssd::model::Ssd& Ssd::model() { return parts_->drive.ssd(); }

ssd::model::EnergyMonitor& Ssd::monitor() { return parts_->drive.monitor(); }

}  // namespace ssdtlm
