#pragma once
// The drive as every run builds it: the energy monitor its config asks for, with the files it
// streams (energy series, waveforms), and the model (model::Ssd). The CLI's runs
// (tb/run/Simulation.cpp) and the embedded ssdtlm::Ssd both build this, end its accounting
// through finish() and write report.json from it through report::build_report, so the two
// report the same figures the same way.
#include <optional>
#include <string>

#include <systemc>

#include "config/DriveConfig.h"
#include "ip/DriveOutputs.h"
#include "ip/FstConverter.h"
#include "model/Ssd.h"
#include "model/power/EnergyMonitor.h"

namespace ssd::ip {

class Drive {
 public:
  // `name`: the model's module name; `origin` names the config in refusals. Throws
  // ssd::ConfigError for a config the model refuses (every rule it breaks), ssd::UsageError
  // for a waveform signal pattern that matches no signal, ssd::InputError when GTKWave's
  // vcd2fst cannot start. `cfg` must outlive the drive.
  Drive(const char* name, const config::DriveConfig& cfg, const DriveOutputs& outputs,
        const std::string& origin = {});
  Drive(const Drive&) = delete;
  Drive& operator=(const Drive&) = delete;

  const config::DriveConfig& config() const { return cfg_; }
  model::Ssd& ssd() { return ssd_; }
  const model::Ssd& ssd() const { return ssd_; }
  model::EnergyMonitor& monitor() { return monitor_; }
  const model::EnergyMonitor& monitor() const { return monitor_; }

  // Ends the energy accounting at the current time, or at the drive's last background work
  // if later; the first call decides, later ones return the same end.
  sc_core::sc_time finish();
  // Completes the FST (after finish()); throws ssd::InputError when vcd2fst failed.
  void close_waveforms();

 private:
  static model::EnergyMonitor::Options options(const config::DriveConfig& cfg,
                                               const DriveOutputs& outputs, int fst_fd);

  const config::DriveConfig& cfg_;
  std::optional<FstConverter> fst_;  // before the monitor, which streams into it
  model::EnergyMonitor monitor_;
  model::Ssd ssd_;
  std::optional<sc_core::sc_time> end_;
};

}  // namespace ssd::ip
