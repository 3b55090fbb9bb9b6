#include "firmware/ftl/PageFtl.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssd::fw {

PageFtl::PageFtl(const config::DriveConfig& cfg, Hal& hal)
    : hal_(hal),
      t_step_(cfg.controller.t_fw_per_page_us, sc_core::SC_US),
      dies_(cfg.flash.dies()),
      pages_per_block_(cfg.flash.pages_per_block),
      pages_per_die_(cfg.flash.pages_per_die()),
      gc_threshold_(cfg.ftl.gc_threshold_blocks),
      table_bytes_(cfg.logical_pages() * cfg.dram.access_bytes),
      blocks_(cfg.flash.dies(), cfg.flash.blocks_per_die(), cfg.flash.pages_per_block),
      host_streams_(dies_),
      gc_streams_(dies_) {}

Ppa PageFtl::to_ppa(uint64_t ppn) const {
  const uint64_t in_die = ppn % pages_per_die_;
  return Ppa{uint32_t(ppn / pages_per_die_), uint32_t(in_die / pages_per_block_),
             uint32_t(in_die % pages_per_block_)};
}

uint64_t PageFtl::to_ppn(const Ppa& p) const {
  return p.die * pages_per_die_ + uint64_t(p.block) * pages_per_block_ + p.page;
}

Ppa PageFtl::allocate(uint32_t die, Stream& s) {
  if (!s.open) {
    s.block = blocks_.open_block(die);
    s.next_page = 0;
    s.open = true;
  }
  Ppa p{die, s.block, s.next_page++};
  if (s.next_page == pages_per_block_) {
    blocks_.close_block(die, s.block);
    s.open = false;
  }
  return p;
}

Ftl::ReadResult PageFtl::read(Lpn lpn, PageToken& out) {
  {
    Hal::Scope mapping(hal_, Work::Mapping);
    hal_.dram_access(1, false);
  }
  auto it = l2p_.find(lpn);
  if (it == l2p_.end()) {
    out = PageToken{lpn, 0};
    return {hal_.now(), false};
  }
  return {hal_.flash_read(to_ppa(it->second), out), true};
}

sc_core::sc_time PageFtl::write(Lpn lpn, const PageToken& data,
                                const sc_core::sc_time& data_ready) {
  const uint32_t die = next_die_;
  next_die_ = (next_die_ + 1) % dies_;
  if (blocks_.free_blocks(die) < gc_threshold_) collect_garbage(die);
  const Ppa ppa = allocate(die, host_streams_[die]);
  {
    Hal::Scope mapping(hal_, Work::Mapping);
    hal_.dram_access(1, false);
    hal_.dram_access(2, true);
  }
  auto [it, fresh] = l2p_.try_emplace(lpn, to_ppn(ppa));
  if (!fresh) {
    blocks_.invalidate(to_ppa(it->second));
    it->second = to_ppn(ppa);
  }
  blocks_.set_valid(ppa, lpn);
  ++stats_.host_pages_written;
  ++stats_.pages_programmed;
  return hal_.flash_program(ppa, data, data_ready);
}

void PageFtl::trim(Lpn lpn) {
  Hal::Scope mapping(hal_, Work::Mapping);
  hal_.dram_access(1, false);
  auto it = l2p_.find(lpn);
  if (it == l2p_.end()) return;
  blocks_.invalidate(to_ppa(it->second));
  l2p_.erase(it);
  hal_.dram_access(1, true);
}

void PageFtl::collect_garbage(uint32_t die) {
  Hal::Scope gc(hal_, Work::Gc);
  ++stats_.gc_runs;
  while (blocks_.free_blocks(die) < gc_threshold_) {
    hal_.compute(t_step_);
    hal_.dram_access(1, false);
    uint32_t victim = 0;
    if (!blocks_.greedy_victim(die, victim) ||
        blocks_.valid_pages(die, victim) == pages_per_block_)
      throw std::runtime_error(
          "page FTL: die " + std::to_string(die) +
          " has no reclaimable block: every full block on it holds only valid data. Writes go "
          "to dies in fixed rotation and GC works within a die, so a workload whose live data "
          "piles up on one die can fill it; more over-provisioning delays this");
    for (uint32_t page = 0; page < pages_per_block_; ++page) {
      const Ppa from{die, victim, page};
      const Lpn lpn = blocks_.owner(from);
      if (lpn != BlockManager::kNoLpn) relocate(from, lpn);
    }
    hal_.flash_erase(die, victim);
    blocks_.release_block(die, victim);
    ++stats_.blocks_erased;
    ++stats_.gc_blocks_reclaimed;
  }
}

void PageFtl::relocate(const Ppa& from, Lpn lpn) {
  hal_.compute(t_step_);
  hal_.dram_access(1, false);
  PageToken data;
  const sc_core::sc_time ready = hal_.flash_read(from, data);
  const Ppa to = allocate(from.die, gc_streams_[from.die]);
  blocks_.invalidate(from);
  blocks_.set_valid(to, lpn);
  l2p_[lpn] = to_ppn(to);
  hal_.dram_access(2, true);
  ++stats_.gc_pages_copied;
  ++stats_.pages_programmed;
  hal_.flash_program(to, data, ready);
}

}  // namespace ssd::fw
