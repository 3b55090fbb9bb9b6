#pragma once
// The drive's supply (power): its rails, the regulators that feed each group of components, the
// power analyser's windows and bands, and the power budget (power_budget). The struct, its field
// table (keys, members, ranges: read, written and listed by config/json/) and its own rules; rules
// across sections are DriveConfig's. docs/config.md documents each key.
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "config/Choices.h"
#include "config/json/Bounds.h"
#include "config/json/Problems.h"

namespace ssd::config {

// One input rail of the drive (5 V for SATA; 3.3 V and 12 V for PCIe cards and U.2). The
// board (PHY, oscillators, regulators' quiescent current, leakage) draws i_baseline_ma from it
// whenever the drive is powered.
struct RailConfig {
  std::string name = "5v";
  double voltage_v = 5.0;
  double i_baseline_ma = 0.0;
};

// How a group of components is fed: from `rail` through a regulator of `efficiency`, so it
// draws its power / efficiency from the rail.
struct RegulatorConfig {
  std::string rail = "5v";
  double efficiency = 1.0;
  // Rail: the group's currents are the rail's current (I x V_rail; the regulator's loss is in
  // the measurement, so efficiency must be 1).
  CurrentsAt currents_at = CurrentsAt::Supply;
};

// One regulator per energy group (the groups of docs/energy-model.md).
struct RegulatorsConfig {
  RegulatorConfig host_interface, controller, dram, channel, nand;

  std::array<std::pair<const char*, const RegulatorConfig*>, 5> by_group() const {
    return {{{"host_interface", &host_interface},
             {"controller", &controller},
             {"dram", &dram},
             {"channel", &channel},
             {"nand", &nand}}};
  }
};

// The drive's hold-up capacitors and a loss of its supply during the run
// (docs/reliability.md#power-loss): from loss_at_ms on, the drive runs on the energy the bank holds
// between charged_v and cutoff_v while its firmware puts what it acknowledged on flash.
struct HoldUpConfig {
  double loss_at_ms = 0;      // simulated time of the loss; 0: the supply never fails
  double capacitance_uf = 0;  // 0: no hold-up capacitors
  double charged_v = 0;       // the bank's voltage when the supply fails
  double cutoff_v = 0;        // the least the drive's regulators work from
};

struct PowerConfig {
  // The first rail is the main one: drive-level currents (peak_current_ma, the current
  // histogram, drive_total_ma) are the drive's power at its voltage.
  std::vector<RailConfig> rails = {RailConfig{}};
  RegulatorsConfig regulators;
  double window_us = 10000.0;                   // energy time-series window
  std::vector<double> peak_windows_us = {1.0};  // power-analyser averaging windows
  std::vector<double> current_levels_ma;        // band edges of the drive-current histogram
  HoldUpConfig hold_up;

  double drive_voltage_v() const { return rails.front().voltage_v; }
  // Index of the rail called `name`; rails.size() if none is.
  std::size_t rail_index(const std::string& name) const;
};

// A cap on the drive's supply (docs/thermal.md#peak-power-budget): a flash operation starts
// only if the drive's worst case with it stays within the cap; otherwise it waits.
struct PowerBudgetConfig {
  bool enabled = false;
  double max_power_w = 0;     // drive power at the rails; 0: not set
  double max_current_ma = 0;  // drive current at the main rail; 0: not set (one of the two)
};

// The field table: the visitor (config/json/) is called once per key, in the order configs
// write them.
template <class Rail, class V>
void visit_rail(Rail& r, V& v) {
  v("name", r.name, Presence::kRequired);  // a short identifier: validate()
  v("voltage_v", r.voltage_v, kVoltage);
  v("i_baseline_ma", r.i_baseline_ma, kCurrent);
}

template <class Regulator, class V>
void visit_regulator(Regulator& r, V& v) {
  v("rail", r.rail);  // names a rail: validate()
  v("efficiency", r.efficiency, positive_up_to(1));
  v("currents_at", r.currents_at);
}

template <class Regulators, class V>
void visit_regulators(Regulators& r, V& v) {
  const auto one = [](auto& s, auto& sv) { visit_regulator(s, sv); };
  v.section("host_interface", r.host_interface, one);
  v.section("controller", r.controller, one);
  v.section("dram", r.dram, one);
  v.section("channel", r.channel, one);
  v.section("nand", r.nand, one);
}

template <class HoldUp, class V>
void visit_hold_up(HoldUp& h, V& v) {
  v("loss_at_ms", h.loss_at_ms, up_to(3.6e6));        // an hour
  v("capacitance_uf", h.capacitance_uf, up_to(1e7));  // 10 F
  v("charged_v", h.charged_v, up_to(1e3));            // above cutoff_v with capacitors: validate()
  v("cutoff_v", h.cutoff_v, up_to(1e3));
}

template <class Power, class V>
void visit_power(Power& p, V& v) {
  v.replaced("drive_voltage_v", "power.rails[0].voltage_v (the main rail)");
  v.list("rails", p.rails, 1, [](auto& s, auto& sv) { visit_rail(s, sv); });
  v.section("regulators", p.regulators, [](auto& s, auto& sv) { visit_regulators(s, sv); });
  v("window_us", p.window_us, kWindow);
  v("peak_windows_us", p.peak_windows_us, kWindow);  // increasing: validate()
  v("current_levels_ma", p.current_levels_ma, Bounds{0.0, true, 1e9, false});  // increasing
  v.section("hold_up", p.hold_up, [](auto& s, auto& sv) { visit_hold_up(s, sv); });
}

template <class Budget, class V>
void visit_power_budget(Budget& b, V& v) {
  v("enabled", b.enabled);
  v("max_power_w", b.max_power_w, up_to(kMaxDrivePowerW));
  v("max_current_ma", b.max_current_ma, up_to(1e9));
}

// The rules that involve more than one field of the section: each broken one is added to
// `problems`, naming its key.
void validate(const PowerConfig& section, Problems& problems);
void validate(const PowerBudgetConfig& section, Problems& problems);

}  // namespace ssd::config
