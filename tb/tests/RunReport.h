#pragma once
// A simulation of `reqs` on `cfg` without the energy series: its report.json, the scoreboard
// checked.
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tb/run/Simulation.h"
#include "tb/workload/VectorSource.h"

namespace ssd::test {

inline nlohmann::ordered_json run_report(const config::DriveConfig& cfg,
                                         std::vector<tb::HostRequest> reqs) {
  tb::VectorSource src(std::move(reqs));
  tb::RunOptions opts;
  opts.series = false;
  tb::RunResult r = tb::run_simulation(cfg, src, opts);
  EXPECT_TRUE(r.data_intact);
  return r.report;
}

}  // namespace ssd::test
