#pragma once
// The thermal model (thermal; docs/thermal.md): ambient, the lumped nodes, the sensor and
// throttling. The struct, its field table (keys, members, ranges: read, written and listed by
// config/json/) and its own rules; rules across sections are DriveConfig's. docs/config.md
// documents each key.
#include <cstdint>
#include <string>

#include "config/Choices.h"
#include "config/json/Bounds.h"
#include "config/json/Problems.h"

namespace ssd::config {

// One lumped thermal node: resistance to ambient and heat capacity (docs/thermal.md).
struct ThermalNodeConfig {
  double r_k_per_w = 10.0;
  double c_j_per_k = 1.0;
};

// What the firmware does above thermal.throttle.t_on_c until below t_off_c.
struct ThrottleConfig {
  ThrottleAction action = ThrottleAction::None;  // none: no protection
  double t_on_c = 87.0;
  double t_off_c = 82.0;
  double max_power_w = 0;        // power_budget: the drive power cap while throttled
  uint32_t max_active_dies = 1;  // dies: die operations at once while throttled
};

// Lumped RC thermal model (docs/thermal.md): ambient, a controller node, NAND nodes.
struct ThermalConfig {
  bool enabled = false;
  double ambient_c = 25.0;
  NandNodes nand_nodes = NandNodes::One;
  ThermalNodeConfig controller, nand;  // nand: per node (per channel's packages, or all)
  double sample_us = 1000.0;           // the firmware's temperature sensor period
  ThrottleConfig throttle;
};

// The field table: the visitor (config/json/) is called once per key, in the order configs
// write them.
template <class Node, class V>
void visit_thermal_node(Node& n, V& v) {
  v("r_k_per_w", n.r_k_per_w, positive_up_to(1e6));
  v("c_j_per_k", n.c_j_per_k, positive_up_to(1e9));
}

template <class Throttle, class V>
void visit_throttle(Throttle& t, V& v) {
  v("action", t.action);
  v("t_on_c", t.t_on_c, between(-273.15, 1000));
  v("t_off_c", t.t_off_c, between(-273.15, 1000));  // below t_on_c: validate()
  v("max_power_w", t.max_power_w, up_to(kMaxDrivePowerW));
  v("max_active_dies", t.max_active_dies, at_least(1));
}

template <class Thermal, class V>
void visit_thermal(Thermal& t, V& v) {
  const auto node = [](auto& s, auto& sv) { visit_thermal_node(s, sv); };
  v("enabled", t.enabled);
  v("ambient_c", t.ambient_c, between(-273.15, 1000));
  v("nand_nodes", t.nand_nodes);
  v.section("controller", t.controller, node);
  v.section("nand", t.nand, node);
  v("sample_us", t.sample_us, Bounds{1.0, false, 3.6e9, false});  // 1 us to an hour
  v.section("throttle", t.throttle, [](auto& s, auto& sv) { visit_throttle(s, sv); });
}

// The rules that involve more than one field of the section: each broken one is added to
// `problems`, naming its key.
void validate(const ThermalConfig& section, Problems& problems);

}  // namespace ssd::config
