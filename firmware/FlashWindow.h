#pragma once
// The flash as the FTL sees it when zoned namespaces take the last blocks of every plane
// (DriveConfig::ftl_flash): a Hal that numbers only the FTL's blocks, plane by plane as the back
// end does, and passes every call to the drive's Hal with its blocks renumbered. The FTL, its
// write buffer and its GC run unchanged on fewer blocks per plane; a block keeps its offset in
// its plane, so multi-plane pairs stay pairs. The work kind and urgency marked on this Hal go
// with each call.
#include <cstdint>
#include <vector>

#include "firmware/Hal.h"

namespace ssd::fw {

class FlashWindow final : public Hal {
  // The call on the drive's Hal, marked with this one's work kind and urgency.
  template <class F>
  decltype(auto) run(F call) {
    const Scope marked(flash_, work());
    if (urgent() && !flash_.urgent()) {
      const Urgent pressing(flash_);
      return call();
    }
    return call();
  }

 public:
  // The FTL's `ftl_blocks` of each plane of `blocks_per_plane`: the first ones.
  FlashWindow(Hal& flash, uint32_t blocks_per_plane, uint32_t ftl_blocks)
      : flash_(flash), per_plane_(blocks_per_plane), ftl_per_plane_(ftl_blocks) {}

  static constexpr uint32_t kNotFtl = ~uint32_t{0};
  uint32_t to_flash(uint32_t block) const {
    return block / ftl_per_plane_ * per_plane_ + block % ftl_per_plane_;
  }
  // The FTL's number of a block of the flash, kNotFtl for a zoned namespace's.
  uint32_t to_ftl(uint32_t block) const {
    const uint32_t offset = block % per_plane_;
    return offset < ftl_per_plane_ ? block / per_plane_ * ftl_per_plane_ + offset : kNotFtl;
  }

  sc_core::sc_time now() const override { return flash_.now(); }
  bool functional() const override { return flash_.functional(); }
  double die_retention_s(uint32_t die) override { return flash_.die_retention_s(die); }
  void compute(const sc_core::sc_time& d) override {
    run([&] { flash_.compute(d); });
  }
  void unit_work(Unit u, const sc_core::sc_time& d) override {
    run([&] { flash_.unit_work(u, d); });
  }
  void dram_access(uint32_t entries, bool write) override {
    run([&] { flash_.dram_access(entries, write); });
  }
  OpId flash_read(const Ppa& ppa, PageToken& out, uint32_t unit) override {
    return run([&] { return flash_.flash_read(moved(ppa), out, unit); });
  }
  OpId flash_read_spare(const Ppa& ppa, PageToken& out) override {
    return run([&] { return flash_.flash_read_spare(moved(ppa), out); });
  }
  OpId flash_program(const Ppa& ppa, const PageToken& data, OpId data_from, OpId after) override {
    return run([&] { return flash_.flash_program(moved(ppa), data, data_from, after); });
  }
  OpId flash_program_units(const Ppa& ppa, const PageToken* data, const OpId* data_from,
                           uint32_t units, OpId after) override {
    return run(
        [&] { return flash_.flash_program_units(moved(ppa), data, data_from, units, after); });
  }
  OpId flash_erase(uint32_t die, uint32_t block) override {
    return run([&] { return flash_.flash_erase(die, to_flash(block)); });
  }
  void flash_preset(uint32_t die, uint32_t block, uint32_t erases,
                    const std::vector<PageToken>& pages) override {
    flash_.flash_preset(die, to_flash(block), erases, pages);
  }
  void wait_for(OpId op) override { flash_.wait_for(op); }
  sc_core::sc_time host_data_at(uint64_t bytes) override { return flash_.host_data_at(bytes); }
  void program_data_at(const sc_core::sc_time& t) override { flash_.program_data_at(t); }
  void program_held(const sc_core::sc_time& length) override { flash_.program_held(length); }
  sc_core::sc_time dram_burst(uint64_t bytes, bool write,
                              const sc_core::sc_time& not_before) override {
    return run([&] { return flash_.dram_burst(bytes, write, not_before); });
  }
  bool ended_by_now(OpId op) override { return flash_.ended_by_now(op); }
  void ftl_work(Lpn lpn) override { flash_.ftl_work(lpn); }
  void pace_background(OpId op) override { flash_.pace_background(op); }

 private:
  Ppa moved(const Ppa& ppa) const { return Ppa{ppa.die, to_flash(ppa.block), ppa.page}; }

  Hal& flash_;
  uint32_t per_plane_;
  uint32_t ftl_per_plane_;
};

}  // namespace ssd::fw
