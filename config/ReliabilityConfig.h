#pragma once
// NAND that ages (flash.reliability; docs/reliability.md): the raw bit error rate of a page read
// from its block's wear, its data's retention time and temperature and its block's reads since
// erase, the ECC decode every read then takes at its channel's ECC engine, and the read-retry
// table a read climbs while its errors exceed what a step corrects. Off on every shipped drive
// (their figures stay).
//
// Raw bit error rate per bit (an empirical form: power laws in P/E cycles c and retention time t;
// read disturb linear in the reads r of the block since its erase, Cai et al., DSN 2015):
//   rber = (rber_base + rber_wear c^wear_exponent
//           + rber_retention c^retention_wear_exponent t^retention_time_exponent
//           + rber_disturb c^disturb_wear_exponent r) * rber_by_page_type[type]
// t in days, accelerated by Arrhenius from reference_temperature_c to temperature_c with
// activation_energy_ev (JEDEC JESD218 uses 1.1 eV for retention); with run_temperature "die",
// the run's time by the thermal model's NAND temperature instead, moment by moment.
#include <cstdint>
#include <vector>

#include "config/Choices.h"
#include "config/json/Bounds.h"
#include "config/json/Problems.h"

namespace ssd::config {

// A step of the read-retry table: an array read at shifted read voltages (or, for a soft
// decode, with extra sensing) taking t_read_us, its data out over the bus, then a decode of
// t_decode_us that corrects up to correctable_bits raw bit errors per codeword (counted at the
// default read voltages: what the shifted read and the stronger decode together recover).
struct RetryStepConfig {
  double t_read_us = 60.0;
  double t_decode_us = 1.0;
  uint32_t correctable_bits = 0;
};

struct ReliabilityConfig {
  bool enabled = false;
  uint64_t seed = 1;  // the draws of bit errors (hashed with the page read and its block's reads)
  double rber_base = 0.0;
  double rber_wear = 0.0;
  double wear_exponent = 1.0;
  double rber_retention = 0.0;
  double retention_wear_exponent = 1.0;
  double retention_time_exponent = 1.0;
  double rber_disturb = 0.0;
  double disturb_wear_exponent = 1.0;
  std::vector<double> rber_by_page_type;  // per page type (LSB first); empty: 1 for each
  double activation_energy_ev = 1.1;
  double reference_temperature_c = 25.0;  // where the coefficients were measured
  double temperature_c = 25.0;            // where the data sits (its retention)
  // What ages the data during the run: temperature_c still, or the thermal model's temperature
  // of the die's NAND node, integrated over the run (ThermalModel::retention_s).
  RunTemperature run_temperature = RunTemperature::Storage;
  // The drive's state when the run starts: P/E cycles added to every block's own erase count,
  // and the age of the data it holds (data written in the run ages from its program).
  uint32_t pe_cycles = 0;
  double retention_days = 0.0;
  // The ECC: its codeword (a read's unit is ceil(unit / codeword) codewords; the worst decides),
  // the hard decode every read takes, and the retry table past it.
  uint32_t codeword_bytes = 1024;
  uint32_t correctable_bits = 40;
  double t_decode_us = 1.0;
  std::vector<RetryStepConfig> retry_steps;
  // The ECC engines: each channel's own (`ecc_engines` per channel) or the controller's
  // (`ecc_engines` shared by every channel); an engine decodes one read at a time and draws
  // i_ecc_ma at controller.voltage_v while it does.
  EccScope ecc_scope = EccScope::Channel;
  uint32_t ecc_engines = 1;
  double i_ecc_ma = 0.0;

  // Steps a read may take: the first read, then the retry table.
  uint32_t steps() const { return 1 + uint32_t(retry_steps.size()); }
  // Raw bit errors per codeword step `s` corrects.
  uint32_t correctable(uint32_t s) const {
    return s == 0 ? correctable_bits : retry_steps[s - 1].correctable_bits;
  }
  double decode_us(uint32_t s) const {
    return s == 0 ? t_decode_us : retry_steps[s - 1].t_decode_us;
  }
};

// The formula above: the rate before the page type's factor, for P/E cycles `pe`, data
// `age_days` old (already accelerated) and `reads` since erase; the Arrhenius factor of the
// config's temperatures; a page type's factor (SLC mode: `type` past the types, the first's).
// The NAND draws its errors from it (model/flash/BitErrors.h); the firmware's read refresh
// estimates a block's errors with it (firmware/gc/ReadRefresh.h), as firmware holds its NAND's
// characterisation.
double raw_rate(const ReliabilityConfig& r, double pe, double age_days, double reads);
double retention_acceleration(const ReliabilityConfig& r);
// The Arrhenius factor at `temperature_c` against reference_temperature_c.
double retention_acceleration(const ReliabilityConfig& r, double temperature_c);
double page_type_factor(const ReliabilityConfig& r, uint32_t type, uint32_t page_types);

inline constexpr Bounds kRber = up_to(1.0);
inline constexpr Bounds kExponent = up_to(10.0);

template <class Rel, class V>
void visit_reliability(Rel& r, V& v) {
  v("enabled", r.enabled);
  v("seed", r.seed, at_least(0));
  v("rber_base", r.rber_base, kRber);
  v("rber_wear", r.rber_wear, kRber);
  v("wear_exponent", r.wear_exponent, kExponent);
  v("rber_retention", r.rber_retention, kRber);
  v("retention_wear_exponent", r.retention_wear_exponent, kExponent);
  v("retention_time_exponent", r.retention_time_exponent, kExponent);
  v("rber_disturb", r.rber_disturb, kRber);
  v("disturb_wear_exponent", r.disturb_wear_exponent, kExponent);
  v("rber_by_page_type", r.rber_by_page_type, up_to(1e6));
  v("activation_energy_ev", r.activation_energy_ev, up_to(5.0));
  v("reference_temperature_c", r.reference_temperature_c, between(-55.0, 150.0));
  v("temperature_c", r.temperature_c, between(-55.0, 150.0));
  v("run_temperature", r.run_temperature);
  v("pe_cycles", r.pe_cycles, between(0, 1e6));  // rated endurance: tens of thousands at most
  v("retention_days", r.retention_days, up_to(36500.0));  // a century
  v("codeword_bytes", r.codeword_bytes, between(64, 1 << 20));
  v("correctable_bits", r.correctable_bits, between(0, 1 << 16));
  v("t_decode_us", r.t_decode_us, kStepTime);
  v.list("retry_steps", r.retry_steps, 0, [](auto& s, auto& sv) {
    sv("t_read_us", s.t_read_us, kPositiveStepTime);
    sv("t_decode_us", s.t_decode_us, kStepTime);
    sv("correctable_bits", s.correctable_bits, between(0, 1 << 16));
  });
  v("ecc_scope", r.ecc_scope);
  v("ecc_engines", r.ecc_engines, between(1, 1024));
  v("i_ecc_ma", r.i_ecc_ma, kCurrent);
}

// Its rules across keys (page types: FlashConfig's, which knows the cell type).
void validate(const ReliabilityConfig& r, Problems& problems);

}  // namespace ssd::config
