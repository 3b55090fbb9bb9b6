#include "firmware/ftl/PageFtl.h"

namespace ssd::fw {

uint64_t PageFtl::table_bytes(const config::DriveConfig& cfg) {
  return cfg.logical_units() * cfg.dram.access_bytes;
}

PageFtl::PageFtl(const config::DriveConfig& cfg, Hal& hal)
    : PageLevelFtl(cfg, hal),
      table_bytes_(table_bytes(cfg)),
      lost_ppn_(cfg.flash.total_pages() * cfg.units_per_page()),
      l2p_(cfg.logical_units(), lost_ppn_ + 1) {}

Ftl::ReadResult PageFtl::read(Lpn lpn, PageToken& out) {
  check_dead_die();
  {
    Hal::Scope mapping(hal_, Work::Mapping);
    hal_.dram_access(1, false);
  }
  const uint64_t ppn = l2p_.get(lpn);
  if (ppn == L2pTable::kUnmapped) {
    out = PageToken{lpn, 0};
    return {kNoOp, false};
  }
  if (ppn == lost_ppn_) return read_lost(lpn, out);
  return {read_unit(to_ppa(ppn), out), true};
}

OpId PageFtl::write(Lpn lpn, const PageToken& data, OpId data_from) {
  if (units_per_page() != 1) {  // a page of its own, padded
    const UnitWrite w{lpn, data, data_from};
    OpId program;
    write_units(&w, 1, &program);
    return program;
  }
  const UnitWrite unit{lpn, data, data_from};
  const std::optional<Ppa> placed = place_units(&unit, 1);
  if (!placed) return kNoOp;  // lost, with nowhere to go
  const Ppa ppa = *placed;
  {
    Hal::Scope mapping(hal_, Work::Mapping);
    hal_.dram_access(1, false);
    hal_.dram_access(2, true);
  }
  const uint64_t old = l2p_.set(lpn, to_ppn(ppa));
  if (on_flash(old)) blocks_.invalidate(to_ppa(old), clock());
  blocks_.set_valid(ppa, lpn);
  ++stats_.host_pages_written;
  ++stats_.pages_programmed;
  return program_host(ppa, data, data_from);
}

void PageFtl::write_units(const UnitWrite* batch, std::size_t n, OpId* programs) {
  if (units_per_page() == 1) return Ftl::write_units(batch, n, programs);
  pack_units(
      batch, n, programs, [](const UnitWrite*, uint32_t) {},
      [this](const UnitWrite& w, const Ppa& slot) {
        {
          Hal::Scope mapping(hal_, Work::Mapping);
          hal_.dram_access(1, false);
          hal_.dram_access(2, true);
        }
        const uint64_t old = l2p_.set(w.lpn, to_ppn(slot));
        if (on_flash(old)) blocks_.invalidate(to_ppa(old), clock());
        blocks_.set_valid(slot, w.lpn);
      });
}

void PageFtl::trim(Lpn lpn) {
  check_dead_die();
  Hal::Scope mapping(hal_, Work::Mapping);
  hal_.dram_access(1, false);
  const uint64_t old = l2p_.erase(lpn);
  if (old == L2pTable::kUnmapped) return;
  if (old != lost_ppn_) blocks_.invalidate(to_ppa(old), clock());
  hal_.dram_access(1, true);
}

bool PageFtl::lose(Lpn lpn) {
  l2p_.set(lpn, lost_ppn_);
  return true;
}

bool PageFtl::drop(Lpn lpn) {
  const uint64_t old = l2p_.set(lpn, lost_ppn_);
  if (on_flash(old)) blocks_.invalidate(to_ppa(old), clock());
  return true;
}

void PageFtl::moved(Lpn lpn, const Ppa& to) {
  l2p_.set(lpn, to_ppn(to));
  hal_.dram_access(1, true);
}

}  // namespace ssd::fw
