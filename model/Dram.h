#pragma once
// The DRAM holding the mapping table and the write buffer. A mapping-table access moves
// access_bytes and takes t_access_ns; a transaction of N x access_bytes is N back-to-back
// accesses. Page data for the write buffer (a transaction with a DramBurstExt) moves in one
// burst at burst_mb_per_s. Transactions are served one after another; the DRAM is active
// while it serves one and idles between (it stays powered to keep its contents).
#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "config/DriveConfig.h"
#include "model/PowerStateMachine.h"
#include "model/SsdExtensions.h"

namespace ssd::model {

class Dram : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Dram> socket;

  Dram(sc_core::sc_module_name name, const config::DramConfig& cfg, EnergyMonitor& monitor);

  uint64_t accesses() const { return accesses_; }
  uint64_t burst_bytes() const { return burst_bytes_; }

  // The DRAM a drive gets (ftl.size_dram_from_table, docs/energy-model.md): `cfg` as
  // configured, or sized from the FTL's mapping tables: the table rounded up to a power of
  // two MiB, with currents on the line through the brief's two parts (8 MB: 77 mA active,
  // 3 mA idle; 512 MB: 100 mA, 20 mA), extended past them and clamped at 0.
  static config::DramConfig effective(const config::DramConfig& cfg, bool size_from_table,
                                      uint64_t table_bytes);

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);

  uint32_t access_bytes_;
  sc_core::sc_time t_access_;
  double burst_mb_per_s_;
  uint64_t burst_bytes_ = 0;
  sc_core::sc_time free_;
  uint64_t accesses_ = 0;
  PowerStateMachine psm_;
};

}  // namespace ssd::model
