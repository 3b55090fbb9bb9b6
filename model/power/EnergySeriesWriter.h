#pragma once
// energy.csv: one row per window of simulated time with the drive's energy, average and peak
// power, average supply current, and the energy of each hardware group (docs/report.md).
#include <cstdint>
#include <string>
#include <vector>

#include "common/AtomicFile.h"
#include "model/power/PowerState.h"

namespace ssd::model {

class EnergySeriesWriter {
 public:
  EnergySeriesWriter(const std::string& path, uint64_t window_ps, double drive_voltage_v);

  // Column names, fixed before the first row; `temperatures` names thermal nodes, whose
  // temperature at each row's end follows the groups as temp_<node>_c.
  void set_groups(const std::vector<std::string>& groups,
                  const std::vector<std::string>& temperatures = {});
  uint64_t window_ps() const { return window_ps_; }
  // Adds energy of one group inside the current window. Summed exactly: a cell's figure does
  // not depend on how its span was cut into segments.
  void add(uint32_t group, EnergyNwPs nw_ps) { acc_[group] += nw_ps; }
  void note_power(int64_t drive_power_nw) {
    if (drive_power_nw > window_peak_nw_) window_peak_nw_ = drive_power_nw;
  }
  // Writes the row for [start, end) and starts the next window at `end`.
  void close_window(uint64_t start_ps, uint64_t end_ps, const std::vector<double>& temps_c = {});
  uint64_t closed_until_ps() const { return closed_until_ps_; }
  void commit() { file_.commit(); }

 private:
  AtomicFile file_;
  uint64_t window_ps_;
  double drive_voltage_v_;
  std::vector<EnergyNwPs> acc_;
  int64_t window_peak_nw_ = 0;  // highest level held for a positive time in the window
  uint64_t closed_until_ps_ = 0;
};

}  // namespace ssd::model
