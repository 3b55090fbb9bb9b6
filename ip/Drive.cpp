#include "ip/Drive.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "model/power/MonitorOptions.h"

namespace ssd::ip {
namespace {

std::optional<FstConverter> start_fst(const DriveOutputs& out) {
  if (!out.waveform.fst || out.dir.empty()) return std::nullopt;
  return std::optional<FstConverter>(std::in_place, out.dir + "/current.fst");
}

// The waveform's probes: the caller's, then with a loss of the supply the hold-up bank's voltage.
std::vector<std::string> probes(const config::DriveConfig& cfg, const DriveOutputs& out) {
  std::vector<std::string> p = out.vcd_probes;
  if (cfg.power.hold_up.loss_at_ms > 0) p.emplace_back(model::EnergyMonitor::kHoldUpProbe);
  return p;
}

// Throws ssd::UsageError when a signal pattern matches none of the monitor's signals.
void check_signals(const model::EnergyMonitor& monitor, const config::DriveConfig& cfg,
                   const DriveOutputs& out) {
  std::vector<std::string> components, rails, nodes;
  std::vector<bool> dies;
  for (const auto& c : monitor.component_energy()) {
    components.push_back(c.name);
    dies.push_back(c.group == model::kNandGroup);
  }
  for (const auto& r : monitor.rails()) rails.push_back(r.name);
  if (monitor.thermal())
    for (const auto& n : monitor.thermal()->nodes()) nodes.push_back(n.name);
  model::VcdWriter::check_patterns(
      out.waveform.selection.patterns,
      model::VcdWriter::signal_names(components, dies, rails, nodes, probes(cfg, out)),
      out.signals_origin);
}

}  // namespace

model::EnergyMonitor::Options Drive::options(const config::DriveConfig& cfg,
                                             const DriveOutputs& out, int fst_fd) {
  model::EnergyMonitor::Options mo = model::monitor_options(cfg);
  if (out.dir.empty()) return mo;
  if (out.series) mo.series_path = out.dir + "/energy.csv";
  if (out.waveform.vcd) mo.vcd_path = out.dir + "/current.vcd";
  mo.vcd_fd = fst_fd;
  mo.vcd_selection = out.waveform.selection;
  mo.group_busy = out.group_busy;
  if (out.waveform.vcd || out.waveform.fst) mo.vcd_probes = probes(cfg, out);
  return mo;
}

Drive::Drive(const char* name, const config::DriveConfig& cfg, const DriveOutputs& outputs,
             const std::string& origin)
    : cfg_(cfg),
      fst_(start_fst(outputs)),
      monitor_(options(cfg, outputs, fst_ ? fst_->fd() : -1)),
      ssd_(name, cfg, monitor_, origin) {
  if (outputs.waveform.vcd || outputs.waveform.fst) check_signals(monitor_, cfg, outputs);
}

sc_core::sc_time Drive::finish() {
  if (end_) return *end_;
  end_ = std::max(sc_core::sc_time_stamp(), ssd_.controller().work_horizon());
  monitor_.finish(*end_);
  if (ssd_.thermal_throttle()) ssd_.thermal_throttle()->finish(*end_);
  return *end_;
}

void Drive::close_waveforms() {
  if (fst_) fst_->finish();
}

}  // namespace ssd::ip
