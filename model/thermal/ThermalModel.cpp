#include "model/thermal/ThermalModel.h"

#include <algorithm>
#include <cmath>

namespace ssd::model {

ThermalModel::ThermalModel(double ambient_c, std::vector<Node> nodes)
    : ambient_c_(ambient_c), nodes_(std::move(nodes)), state_(nodes_.size()) {
  for (State& s : state_) s.at_since_c = s.peak_c = ambient_c_;
  per_channel_ = nodes_.size() > 2;
}

ThermalModel ThermalModel::from_config(const config::DriveConfig& cfg) {
  const config::ThermalConfig& t = cfg.thermal;
  std::vector<Node> nodes = {{"controller", t.controller.r_k_per_w, t.controller.c_j_per_k}};
  if (t.nand_nodes == config::NandNodes::PerChannel && cfg.flash.channels > 1) {
    for (uint32_t ch = 0; ch < cfg.flash.channels; ++ch)
      nodes.push_back({"ch" + std::to_string(ch), t.nand.r_k_per_w, t.nand.c_j_per_k});
  } else {
    nodes.push_back({"nand", t.nand.r_k_per_w, t.nand.c_j_per_k});
  }
  return ThermalModel(t.ambient_c, std::move(nodes));
}

uint32_t ThermalModel::node_of(const std::string& component, const std::string& group) const {
  if (group != "nand" && group != "channel") return 0;
  if (!per_channel_) return 1;
  // "ch12" (a bus) or "ch12.w0d1" (a die): the channel's node.
  return 1 + uint32_t(std::stoul(component.substr(2)));
}

void ThermalModel::advance(uint32_t n, uint64_t t_ps) {
  State& s = state_[n];
  s.at_since_c = temperature_c(n, t_ps);
  s.since_ps = t_ps;
  s.peak_c = std::max(s.peak_c, s.at_since_c);
}

double ThermalModel::temperature_c(uint32_t n, uint64_t t_ps) const {
  const State& s = state_[n];
  const Node& node = nodes_[n];
  const double steady = ambient_c_ + double(s.power_nw) * 1e-9 * node.r_k_per_w;
  const double dt_s = double(t_ps - s.since_ps) * 1e-12;
  return steady + (s.at_since_c - steady) * std::exp(-dt_s / (node.r_k_per_w * node.c_j_per_k));
}

void ThermalModel::account(uint64_t t_ps) {
  energy_nwps_[throttled_] += double(drive_nw_) * double(t_ps - accounted_ps_);
  time_ps_[throttled_] += t_ps - accounted_ps_;
  accounted_ps_ = t_ps;
}

void ThermalModel::add_power(uint32_t n, uint64_t t_ps, int64_t delta_nw) {
  account(t_ps);
  advance(n, t_ps);
  state_[n].power_nw += delta_nw;
  drive_nw_ += delta_nw;
}

void ThermalModel::set_throttled(uint64_t t_ps, bool on) {
  account(t_ps);
  throttled_ = on;
}

void ThermalModel::finish(uint64_t t_ps) {
  account(t_ps);
  for (uint32_t n = 0; n < state_.size(); ++n) advance(n, t_ps);
}

}  // namespace ssd::model
