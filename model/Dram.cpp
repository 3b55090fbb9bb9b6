#include "model/Dram.h"

#include <algorithm>

#include "common/Errors.h"
#include "common/SimNow.h"

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

Dram::Sizing Dram::effective(const config::DriveConfig& cfg, uint64_t table_bytes) {
  if (!cfg.ftl.size_dram_from_table) return {cfg.dram, ""};
  const uint64_t need = table_bytes + (cfg.dram.write_buffer_mb << 20);
  const config::DramPart* best = nullptr;
  const config::DramPart* largest = nullptr;
  for (const config::DramPart& p : cfg.dram.parts) {
    if (!largest || p.size_mb > largest->size_mb) largest = &p;
    if ((p.size_mb << 20) >= need && (!best || p.size_mb < best->size_mb)) best = &p;
  }
  if (!best)
    throw ConfigError("drive '" + cfg.name + "': dram.parts: no part holds the " + cfg.ftl.type +
                      " FTL's mapping table (" + std::to_string(table_bytes) +
                      " bytes) and the write buffer (" + std::to_string(cfg.dram.write_buffer_mb) +
                      " MiB); the largest, \"" + (largest ? largest->name : "") + "\", has " +
                      std::to_string(largest ? largest->size_mb : 0) + " MiB");
  config::DramConfig d = cfg.dram;
  d.size_mb = best->size_mb;
  d.i_active_ma = best->i_active_ma;
  d.i_idle_ma = best->i_idle_ma;
  d.t_access_ns = best->t_access_ns;
  return {d, best->name};
}

void Dram::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const sc_core::sc_time now = sim_now();
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
