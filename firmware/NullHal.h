#pragma once
// A Hal that does nothing and takes no time: an FTL that computes its preconditioned state by
// replaying its own decisions (LogBlockFtl::precondition_bulk) runs them on it, so no flash
// command, DRAM access or firmware step is issued, and then lays the result out on the real
// Hal with flash_preset. Reads return an empty token: nothing replayed on it uses data.
#include "firmware/Hal.h"

namespace ssd::fw {

class NullHal final : public Hal {
 public:
  sc_core::sc_time now() const override { return sc_core::SC_ZERO_TIME; }
  double die_retention_s(uint32_t) override { return 0; }
  void compute(const sc_core::sc_time&) override {}
  void unit_work(Unit, const sc_core::sc_time&) override {}
  void dram_access(uint32_t, bool) override {}
  OpId flash_read(const Ppa&, PageToken& out, uint32_t) override {
    out = PageToken{};
    return kNoOp;
  }
  OpId flash_read_spare(const Ppa&, PageToken& out) override {
    out = PageToken{};
    return kNoOp;
  }
  OpId flash_program(const Ppa&, const PageToken&, OpId, OpId) override { return kNoOp; }
  OpId flash_program_units(const Ppa&, const PageToken*, const OpId*, uint32_t, OpId) override {
    return kNoOp;
  }
  OpId flash_erase(uint32_t, uint32_t) override { return kNoOp; }
  void flash_preset(uint32_t, uint32_t, uint32_t, const std::vector<PageToken>&) override {}
  void wait_for(OpId) override {}
  sc_core::sc_time host_data_at(uint64_t) override { return sc_core::SC_ZERO_TIME; }
  void program_data_at(const sc_core::sc_time&) override {}
  sc_core::sc_time dram_burst(uint64_t, bool, const sc_core::sc_time&) override {
    return sc_core::SC_ZERO_TIME;
  }
  bool ended_by_now(OpId) override { return true; }
  void pace_background(OpId) override {}
};

}  // namespace ssd::fw
