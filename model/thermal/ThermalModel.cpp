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
  ThermalModel model(t.ambient_c, std::move(nodes));
  const config::ReliabilityConfig& r = cfg.flash.reliability;
  if (r.enabled && r.run_temperature == config::RunTemperature::Die) model.meter_retention(r);
  return model;
}

uint32_t ThermalModel::node_of(const std::string& component, const std::string& group) const {
  if (group != "nand" && group != "channel") return 0;
  // "ch12" (a bus) or "ch12.w0d1" (a die): the channel's node.
  return nand_node(per_channel_ ? uint32_t(std::stoul(component.substr(2))) : 0);
}

void ThermalModel::advance(uint32_t n, uint64_t t_ps) {
  State& s = state_[n];
  const double end_c = temperature_c(n, t_ps);
  if (metered(n)) {
    const double end_a = accel(end_c);
    s.retention_s += aged_s(n, t_ps, end_c, end_a);
    s.accel_since = end_a;
  }
  s.at_since_c = end_c;
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

void ThermalModel::meter_retention(const config::ReliabilityConfig& r) {
  retention_ = r;
  for (uint32_t n = 1; n < state_.size(); ++n) state_[n].accel_since = accel(state_[n].at_since_c);
}

double ThermalModel::accel(double temperature_c) const {
  return config::retention_acceleration(*retention_, temperature_c);
}

namespace {

// Adaptive Simpson of f over [a, b] (fa, fm, fb at a, the middle and b; `whole` its Simpson
// estimate) to an absolute error `eps`: the integrand is smooth and monotone between two
// power changes, so it converges in a few halvings; `depth` bounds them all the same.
template <class F>
double simpson(const F& f, double a, double b, double fa, double fm, double fb, double whole,
               double eps, int depth) {
  const double m = 0.5 * (a + b);
  const double lm = f(0.5 * (a + m));
  const double rm = f(0.5 * (m + b));
  const double left = (m - a) / 6 * (fa + 4 * lm + fm);
  const double right = (b - m) / 6 * (fm + 4 * rm + fb);
  const double diff = left + right - whole;
  if (depth <= 0 || std::abs(diff) <= 15 * eps) return left + right + diff / 15;
  return simpson(f, a, m, fa, lm, fm, left, eps / 2, depth - 1) +
         simpson(f, m, b, fm, rm, fb, right, eps / 2, depth - 1);
}

}  // namespace

double ThermalModel::retention_s(uint32_t n, uint64_t t_ps) const {
  if (!metered(n)) return 0;
  const double end_c = temperature_c(n, t_ps);
  return state_[n].retention_s + aged_s(n, t_ps, end_c, accel(end_c));
}

double ThermalModel::aged_s(uint32_t n, uint64_t t_ps, double end_c, double end_a) const {
  const State& s = state_[n];
  if (t_ps <= s.since_ps) return 0;
  const double dt_s = double(t_ps - s.since_ps) * 1e-12;
  // Between two flash phases the temperature moves by micro-kelvins: A (whose relative slope is
  // Ea / k T^2, about 0.15 per kelvin) is then linear to far below 1e-10, and the trapezoid
  // exact to that.
  constexpr double kLinearK = 1e-4;
  if (std::abs(end_c - s.at_since_c) < kLinearK) return 0.5 * dt_s * (s.accel_since + end_a);
  const Node& node = nodes_[n];
  const double steady = ambient_c_ + double(s.power_nw) * 1e-9 * node.r_k_per_w;
  const double tau_s = node.r_k_per_w * node.c_j_per_k;
  const auto a_at = [&](double x_s) {
    return accel(steady + (s.at_since_c - steady) * std::exp(-x_s / tau_s));
  };
  const double mid_a = a_at(0.5 * dt_s);
  const double whole = dt_s / 6 * (s.accel_since + 4 * mid_a + end_a);
  constexpr double kRelative = 1e-11;
  constexpr int kMaxDepth = 24;
  return simpson(a_at, 0.0, dt_s, s.accel_since, mid_a, end_a, whole,
                 kRelative * dt_s * std::max(s.accel_since, end_a), kMaxDepth);
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
