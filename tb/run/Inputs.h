#pragma once
// What the command line asks the drive to run: its traces, workload spec or workload file
// opened as one request source, and (--flows-alone) each job of a workload file run alone
// first.
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/DriveConfig.h"
#include "tb/host/HostRequest.h"
#include "tb/run/Cli.h"

namespace ssd::tb {

// Throws the readers' InputError for a bad file, UsageError for a bad --workload spec.
std::unique_ptr<RequestSource> open_input(const Cli& cli, const config::DriveConfig& cfg);

// --flows-alone: each job of the workload file alone on the same drive, written nowhere;
// each run's `flows[0]`, in job order. Throws UsageError unless the source is a workload file
// of two jobs or more.
std::vector<nlohmann::ordered_json> run_flows_alone(const Cli& cli, const config::DriveConfig& cfg,
                                                    const RequestSource& source);

}  // namespace ssd::tb
