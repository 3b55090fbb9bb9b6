#include "model/dram/Dram.h"

#include <algorithm>

#include "common/SimNow.h"

namespace ssd::model {

Dram::Dram(sc_core::sc_module_name name, const config::DramConfig& cfg, EnergyMonitor& monitor,
           uint32_t ports)
    : sc_module(name),
      socket("socket"),
      access_bytes_(cfg.access_bytes),
      t_access_(cfg.t_access_ns, sc_core::SC_NS),
      burst_time_(cfg.burst_mb_per_s),
      ports_(ports),
      sr_enabled_(cfg.self_refresh.enabled),
      sr_idle_(cfg.self_refresh.idle_us, sc_core::SC_US),
      sr_entry_(cfg.self_refresh.t_entry_us, sc_core::SC_US),
      sr_exit_(cfg.self_refresh.t_exit_us, sc_core::SC_US),
      psm_(monitor, "dram", "dram", cfg.voltage_v, states(cfg), PowerState::Idle) {
  socket.bind(*this);
  // One port's accesses come in time order: reported as they are placed. With more, one may
  // be placed before reported ones: the monitor asks for them when it commits.
  if (ports > 1) monitor.defer(*this);
  if (sr_enabled_) {
    SC_METHOD(self_refresh_timer);
    sensitive << sr_timer_;
    dont_initialize();
    sr_timer_.notify(sr_idle_);  // idle from time 0
  }
}

std::vector<StateCurrent> Dram::states(const config::DramConfig& cfg) {
  std::vector<StateCurrent> s{{PowerState::Idle, cfg.i_idle_ma},
                              {PowerState::Active, cfg.i_active_ma}};
  if (cfg.self_refresh.enabled)
    s.push_back({PowerState::SelfRefresh, cfg.self_refresh.i_self_refresh_ma});
  return s;
}

// An access moves free_ and notifies the timer again; a wake-up due before free_ + idle
// (an earlier notification wins) finds the DRAM not yet idle long enough and re-arms.
void Dram::self_refresh_timer() {
  if (in_sr_) return;
  const sc_core::sc_time now = sim_now();
  const sc_core::sc_time due = free_ + sr_idle_;
  if (now < due) {
    sr_timer_.notify(due - now);
    return;
  }
  enter_self_refresh(now);
}

void Dram::enter_self_refresh(const sc_core::sc_time& at) {
  in_sr_ = true;
  sr_reached_ = at + sr_entry_;
  change(sr_reached_, PowerState::SelfRefresh);
  ++sr_entries_;
}

sc_core::sc_time Dram::leave_self_refresh(sc_core::sc_time start) {
  // The timer's wake-up at free_ + idle is still pending (it is not before now) when this
  // access comes later than that: the DRAM went in at that time all the same.
  if (!in_sr_ && start >= free_ + sr_idle_) enter_self_refresh(free_ + sr_idle_);
  if (!in_sr_) return start;
  const sc_core::sc_time wake = std::max(start, sr_reached_);
  change(wake, PowerState::Idle);
  in_sr_ = false;
  sr_wait_ += wake + sr_exit_ - start;
  return wake + sr_exit_;
}

namespace {

// The smallest part of the catalogue that holds the table and the write buffer (the first
// listed among equals); nullptr if none does.
const config::DramPart* smallest_fit(const config::DriveConfig& cfg, uint64_t table_bytes) {
  const uint64_t need = table_bytes + (cfg.dram.write_buffer_mb << 20);
  const config::DramPart* best = nullptr;
  for (const config::DramPart& p : cfg.dram.parts)
    if ((p.size_mb << 20) >= need && (!best || p.size_mb < best->size_mb)) best = &p;
  return best;
}

}  // namespace

void Dram::check(const config::DriveConfig& cfg, uint64_t table_bytes, config::Problems& problems) {
  if (!cfg.ftl.size_dram_from_table || smallest_fit(cfg, table_bytes)) return;
  const config::DramPart* largest = nullptr;
  for (const config::DramPart& p : cfg.dram.parts)
    if (!largest || p.size_mb > largest->size_mb) largest = &p;
  problems.add("dram.parts",
               std::string("no part holds the ") + to_string(cfg.ftl.type) +
                   " FTL's mapping table (" + std::to_string(table_bytes) +
                   " bytes) and the write buffer (" + std::to_string(cfg.dram.write_buffer_mb) +
                   " MiB); the largest, \"" + (largest ? largest->name : "") + "\", has " +
                   std::to_string(largest ? largest->size_mb : 0) + " MiB");
}

Dram::Sizing Dram::effective(const config::DriveConfig& cfg, uint64_t table_bytes) {
  if (!cfg.ftl.size_dram_from_table) return {cfg.dram, ""};
  config::Problems problems(config::drive_origin(cfg.name));
  check(cfg, table_bytes, problems);
  problems.raise();
  const config::DramPart* best = smallest_fit(cfg, table_bytes);
  config::DramConfig d = cfg.dram;
  d.size_mb = best->size_mb;
  d.i_active_ma = best->i_active_ma;
  d.i_idle_ma = best->i_idle_ma;
  d.t_access_ns = best->t_access_ns;
  return {d, best->name};
}

void Dram::change(const sc_core::sc_time& t, PowerState s) {
  if (ports_.size() == 1)
    psm_.enter(s, t);
  else
    timeline_.change(t, s);
}

sc_core::sc_time Dram::place(sc_core::sc_time start, const sc_core::sc_time& length) {
  if (start < free_ && timeline_.fit(start, length, start)) {
    timeline_.reserve(start, start + length);
    return start;
  }
  start = std::max(start, free_);
  if (sr_enabled_) start = leave_self_refresh(start);
  free_ = start + length;
  if (ports_.size() == 1)
    psm_.occupy(PowerState::Active, start, free_);
  else
    timeline_.reserve(start, free_);
  return start;
}

void Dram::report_before(uint64_t horizon_ps) {
  timeline_.take_before(sc_core::sc_time::from_value(horizon_ps),
                        [this](const sc_core::sc_time& t, PowerState s) { psm_.enter(s, t); });
}

void Dram::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const sc_core::sc_time now = sim_now();
  const auto* port_ext = gp.get_extension<DramPortExt>();
  const uint32_t port = port_ext ? port_ext->port : 0;
  if (port >= ports_.size()) SC_REPORT_FATAL("/ssdtlm/dram", "access through a port it lacks");
  sc_core::sc_time start = std::max(now + delay, ports_[port]);
  const auto* burst = gp.get_extension<DramBurstExt>();
  if (burst) start = std::max(start, burst->not_before);
  sc_core::sc_time length;
  if (burst) {
    length = burst_time_(gp.get_data_length());
    burst_bytes_ += gp.get_data_length();
  } else {
    if (gp.get_data_length() != last_bytes_) {
      last_bytes_ = gp.get_data_length();
      last_accesses_ = (uint64_t(last_bytes_) + access_bytes_ - 1) / access_bytes_;
      last_time_ = t_access_ * double(last_accesses_);
    }
    length = last_time_;
    accesses_ += last_accesses_;
  }
  const sc_core::sc_time end = place(start, length) + length;
  ports_[port] = end;
  if (sr_enabled_) sr_timer_.notify(free_ + sr_idle_ - now);
  delay = end - now;
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace ssd::model
