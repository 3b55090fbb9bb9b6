#pragma once
// The DRAM (dram): size, access time, the write buffer in it, its currents, the parts catalogue and
// self-refresh. The struct, its field table (keys, members, ranges: read, written and listed by
// config/json/) and its own rules; rules across sections are DriveConfig's. docs/config.md
// documents each key.
#include <cstdint>
#include <string>
#include <vector>

#include "config/Choices.h"
#include "config/json/Bounds.h"
#include "config/json/Problems.h"

namespace ssd::config {

// A DRAM part the drive can be built with (dram.parts): ftl.size_dram_from_table picks the
// smallest that holds the FTL's mapping table and the write buffer.
struct DramPart {
  std::string name;
  uint64_t size_mb = 0;
  double i_active_ma = 0.0;
  double i_idle_ma = 0.0;
  double t_access_ns = 0.0;
  std::string source;  // where its figures come from
};

// DRAM self-refresh (docs/energy-model.md#low-power-states): after idle_us without an
// access the DRAM takes t_entry_us (at its idle current) to enter self-refresh, where it
// draws i_self_refresh_ma (the datasheet's IDD6); the next access first waits t_exit_us
// (tXS, at the idle current).
struct DramSelfRefreshConfig {
  bool enabled = false;
  double idle_us = 1000.0;
  double t_entry_us = 0.0;
  double t_exit_us = 0.0;
  double i_self_refresh_ma = 0.0;
};

struct DramConfig {
  uint64_t size_mb = 512;
  double t_access_ns = 50.0;  // one access of access_bytes
  uint32_t access_bytes = 4;  // bytes moved per access (one mapping-table entry)
  // Write buffer (write-back data cache) in this DRAM; 0: none (writes complete when
  // programmed, as in the founding study's drives). Page data moves in bursts at
  // burst_mb_per_s; the buffer destages once the drive has been idle write_buffer_idle_us.
  uint64_t write_buffer_mb = 0;
  double burst_mb_per_s = 800.0;
  double write_buffer_idle_us = 1000.0;
  double voltage_v = 3.3;
  double i_active_ma = 100.0;
  double i_idle_ma = 20.0;
  std::vector<DramPart> parts;  // catalogue for ftl.size_dram_from_table; may be empty
  DramSelfRefreshConfig self_refresh;
};

// The field table: the visitor (config/json/) is called once per key, in the order configs
// write them.
template <class Part, class V>
void visit_dram_part(Part& p, V& v) {
  v("name", p.name, Presence::kRequired);
  v("size_mb", p.size_mb, between(1, 1 << 20), Presence::kRequired);
  v("i_active_ma", p.i_active_ma, kCurrent, Presence::kRequired);
  v("i_idle_ma", p.i_idle_ma, kCurrent, Presence::kRequired);
  v("t_access_ns", p.t_access_ns, positive_up_to(1e9), Presence::kRequired);
  v("source", p.source, Presence::kRequired);
}

template <class Dram, class V>
void visit_dram(Dram& d, V& v) {
  v("size_mb", d.size_mb, between(1, 1 << 20));          // up to 1 TiB
  v("t_access_ns", d.t_access_ns, positive_up_to(1e9));  // a second
  v("access_bytes", d.access_bytes, between(1, 4096));
  v("write_buffer_mb", d.write_buffer_mb, between(0, 1 << 20));          // fits size_mb: validate()
  v("burst_mb_per_s", d.burst_mb_per_s, positive_up_to(1e6));            // 1 TB/s
  v("write_buffer_idle_us", d.write_buffer_idle_us, between(0, 3.6e9));  // an hour
  v("voltage_v", d.voltage_v, kVoltage);
  v("i_active_ma", d.i_active_ma, kCurrent);
  v("i_idle_ma", d.i_idle_ma, kCurrent);
  v.list("parts", d.parts, 0, [](auto& p, auto& pv) { visit_dram_part(p, pv); });
  v.section("self_refresh", d.self_refresh, [](auto& s, auto& sv) {
    sv("enabled", s.enabled);
    sv("idle_us", s.idle_us, kIdleTime);  // positive when enabled: validate()
    sv("t_entry_us", s.t_entry_us, kStepTime);
    sv("t_exit_us", s.t_exit_us, kStepTime);
    sv("i_self_refresh_ma", s.i_self_refresh_ma, kCurrent);
  });
}

// The rules that involve more than one field of the section: each broken one is added to
// `problems`, naming its key.
void validate(const DramConfig& section, Problems& problems);

}  // namespace ssd::config
