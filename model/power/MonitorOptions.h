#pragma once
// The energy monitor a drive config asks for: its rails and regulators, windows, power cap
// and thermal network. Output files (series, VCD) are the caller's to add. The CLI's runs and
// the embeddable ssdtlm::Ssd build their monitors from it, so both account energy alike.
#include "config/DriveConfig.h"
#include "model/power/EnergyMonitor.h"

namespace ssd::model {

EnergyMonitor::Options monitor_options(const config::DriveConfig& cfg);

}  // namespace ssd::model
