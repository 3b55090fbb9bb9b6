#pragma once
// The drive's lumped RC thermal network (docs/thermal.md): an ambient at a fixed temperature
// and nodes (the controller with the board, host interface and DRAM; the NAND packages, as one
// node or one per channel), each with a heat capacity C (J/K) and a thermal resistance R (K/W)
// to ambient, heated by the power of its components at the rails. Between two changes of a
// node's power P the node follows the exact solution of C dT/dt = P - (T - T_amb) / R:
//   T(t) = T_ss + (T(t0) - T_ss) exp(-(t - t0) / (R C)),  T_ss = T_amb + P R,
// so stepping is exact at any distance between changes, not a fixed-step integration. Within
// one such interval T moves monotonically towards T_ss, so a node's peak is at a change.
//
// The energy monitor feeds it the committed (time-ordered) power timeline; the throttle
// marks when it is in force, so the drive's energy splits into throttled and not.
//
// On aging NAND whose data ages at the die's temperature (flash.reliability.run_temperature
// "die"), each node also meters retention: the integral of the Arrhenius factor A(T(t)) over
// time, the seconds at the reference temperature that its time so far ages data by.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/DriveConfig.h"

namespace ssd::model {

class ThermalModel {
 public:
  struct Node {
    std::string name;
    double r_k_per_w;
    double c_j_per_k;
  };
  ThermalModel(double ambient_c, std::vector<Node> nodes);
  // The nodes of thermal.* (controller, then nand or ch0, ch1, ...).
  static ThermalModel from_config(const config::DriveConfig& cfg);

  // The node a component heats: channel buses and dies their channel's (or the NAND) node,
  // everything else the controller's.
  uint32_t node_of(const std::string& component, const std::string& group) const;
  // The node of channel `ch`'s NAND.
  uint32_t nand_node(uint32_t ch) const { return per_channel_ ? 1 + ch : 1; }
  // Node n's power changes by `delta_nw` at `t_ps`; changes come in time order.
  void add_power(uint32_t n, uint64_t t_ps, int64_t delta_nw);
  // Temperature of node n at t_ps, at or after its last change.
  double temperature_c(uint32_t n, uint64_t t_ps) const;
  // Meters retention from now on with `r`'s activation energy and reference temperature.
  void meter_retention(const config::ReliabilityConfig& r);
  bool meters_retention() const { return retention_.has_value(); }
  // Seconds at the reference temperature that node n's time up to t_ps (at or after its last
  // change) ages data by: the integral of A(T(t)) dt since the meter started (a NAND node).
  double retention_s(uint32_t n, uint64_t t_ps) const;
  // Closes the record at `t_ps` (peaks and energies up to then).
  void finish(uint64_t t_ps);
  // From t_ps on the drive is throttled (or no longer).
  void set_throttled(uint64_t t_ps, bool on);

  const std::vector<Node>& nodes() const { return nodes_; }
  double ambient_c() const { return ambient_c_; }
  double peak_c(uint32_t n) const { return state_[n].peak_c; }
  // Temperature at the node's last change (after finish: at the end).
  double last_c(uint32_t n) const { return state_[n].at_since_c; }
  double power_w(uint32_t n) const { return double(state_[n].power_nw) / 1e9; }
  // Drive energy and time while throttled (true) or not (false), up to the last change.
  double energy_j(bool throttled) const { return energy_nwps_[throttled] * 1e-21; }
  double time_s(bool throttled) const { return double(time_ps_[throttled]) / 1e12; }

 private:
  struct State {
    int64_t power_nw = 0;
    uint64_t since_ps = 0;  // the last change
    double at_since_c = 0;  // temperature then
    double peak_c = 0;
    double retention_s = 0;  // the retention meter up to since_ps
    double accel_since = 1;  // A at since_ps
  };
  // The retention meter's growth from node n's last change to t_ps, where the node is at `end_c`
  // and A at `end_a` (the caller's, which it keeps too).
  double aged_s(uint32_t n, uint64_t t_ps, double end_c, double end_a) const;
  // Whether node n meters retention: the NAND's nodes do (node 0, the controller's, holds no data).
  bool metered(uint32_t n) const { return retention_ && n != 0; }
  double accel(double temperature_c) const;
  // Advances node n's record to t_ps (its power unchanged).
  void advance(uint32_t n, uint64_t t_ps);
  // Accounts the drive's power (the sum of the nodes') up to t_ps.
  void account(uint64_t t_ps);

  double ambient_c_;
  std::vector<Node> nodes_;
  std::vector<State> state_;
  bool per_channel_ = false;
  int64_t drive_nw_ = 0;
  uint64_t accounted_ps_ = 0;
  bool throttled_ = false;
  double energy_nwps_[2] = {0, 0};
  uint64_t time_ps_[2] = {0, 0};
  std::optional<config::ReliabilityConfig> retention_;
};

}  // namespace ssd::model
