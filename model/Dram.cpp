#include "model/Dram.h"

#include <algorithm>

namespace ssd::model {

Dram::Dram(sc_core::sc_module_name name, const config::DramConfig& cfg, EnergyMonitor& monitor)
    : sc_module(name),
      socket("socket"),
      access_bytes_(cfg.access_bytes),
      t_access_(cfg.t_access_ns, sc_core::SC_NS),
      burst_mb_per_s_(cfg.burst_mb_per_s),
      psm_(monitor, "dram", "dram", cfg.voltage_v,
           {{PowerState::Idle, cfg.i_idle_ma}, {PowerState::Active, cfg.i_active_ma}},
           PowerState::Idle) {
  socket.register_b_transport(this, &Dram::b_transport);
}

config::DramConfig Dram::effective(const config::DramConfig& cfg, bool size_from_table,
                                   uint64_t table_bytes) {
  if (!size_from_table) return cfg;
  config::DramConfig d = cfg;
  d.size_mb = 1;
  while ((d.size_mb << 20) < table_bytes) d.size_mb <<= 1;
  // Brief section 4: 8 MB 77 / 3 mA, 512 MB 100 / 20 mA (active / idle).
  const double mb = double(d.size_mb);
  const auto line = [mb](double at8, double at512) {
    return std::max(0.0, at8 + (at512 - at8) * (mb - 8.0) / (512.0 - 8.0));
  };
  d.i_active_ma = line(77.0, 100.0);
  d.i_idle_ma = line(3.0, 20.0);
  return d;
}

void Dram::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  sc_core::sc_time start = std::max(now + delay, free_);
  if (const auto* burst = gp.get_extension<DramBurstExt>()) {
    start = std::max(start, burst->not_before);
    // bytes / (MB/s) is microseconds.
    free_ = start + sc_core::sc_time(double(gp.get_data_length()) / burst_mb_per_s_, sc_core::SC_US);
    burst_bytes_ += gp.get_data_length();
  } else {
    const uint64_t n = (gp.get_data_length() + access_bytes_ - 1) / access_bytes_;
    free_ = start + t_access_ * double(n);
    accesses_ += n;
  }
  psm_.occupy(PowerState::Active, start, free_);
  delay = free_ - now;
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace ssd::model
