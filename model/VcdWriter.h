#pragma once
// current.vcd: one real-valued signal per component (its supply current in mA), one per input
// rail and the drive's total supply current, timescale 1 ps. Written directly rather than through sc_trace because
// transitions are known (and committed) after the simulation time has passed them.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/AtomicFile.h"

namespace ssd::model {

class VcdWriter {
 public:
  explicit VcdWriter(const std::string& path);
  // Declares the signals: dotted names become VCD scopes. Call once, before any change.
  // Rails are (name, initial current) and become rail_<name>_ma.
  void declare(const std::vector<std::string>& component_names, const std::vector<double>& initial_ma,
               const std::vector<std::pair<std::string, double>>& rails, double initial_drive_ma);
  void change(uint64_t t_ps, uint32_t component, double current_ma);
  void change_rail(uint64_t t_ps, uint32_t rail, double current_ma);
  void change_drive(uint64_t t_ps, double current_ma);
  void finish(uint64_t end_ps);

 private:
  void stamp(uint64_t t_ps);
  void value(const std::string& id, double v);

  AtomicFile file_;
  std::vector<std::string> ids_;
  std::vector<std::string> rail_ids_;
  std::string drive_id_;
  uint64_t last_stamp_ = UINT64_MAX;
};

}  // namespace ssd::model
