#pragma once
// Page-mapping FTL: one mapping entry per logical unit (ftl.mapping_unit_bytes: the page, or
// a part of it packed with others), the whole table in DRAM. Allocation, GC and wear
// levelling are PageLevelFtl's (firmware/ftl/PageLevelFtl.h, docs/ftl.md).
//
// DRAM traffic per operation (each entry one access): read = 1 (L2P look-up); write = 3
// (L2P look-up of the old location, L2P update, reverse-map update); trim = 2 (1 when
// the page is not mapped); GC = 1 per candidate block examined, and per copied page 1
// reverse-map read + 2 updates (reverse map, L2P). A unit lost with a die that stopped answering
// (flash.faults.dead_die) is mapped to a slot past the drive's last, until written or trimmed.
#include "firmware/ftl/L2pTable.h"
#include "firmware/ftl/PageLevelFtl.h"

namespace ssd::fw {

class PageFtl final : public PageLevelFtl {
 public:
  PageFtl(const config::DriveConfig& cfg, Hal& hal);

  ReadResult read(Lpn lpn, PageToken& out) override;
  OpId write(Lpn lpn, const PageToken& data, OpId data_from) override;
  void write_units(const UnitWrite* batch, std::size_t n, OpId* programs) override;
  void trim(Lpn lpn) override;
  void prefetch(Lpn lpn) const override { l2p_.prefetch(lpn); }
  bool precondition_bulk(uint64_t written, uint64_t random_writes) override {
    return fill_steady_state(written, random_writes, l2p_);
  }
  std::string name() const override { return "page"; }
  void state(StateArchive& a) override {
    page_level_state(a, logical_units());
    l2p_.state(a, physical_slots());
  }
  uint64_t mapping_table_bytes() const override { return table_bytes_; }
  // One entry of dram.access_bytes per logical unit.
  static uint64_t table_bytes(const config::DriveConfig& cfg);

 private:
  void moved(Lpn lpn, const Ppa& to) override;
  bool lose(Lpn lpn) override;
  bool drop(Lpn lpn) override;
  // Whether the mapping entry `ppn` names a slot on flash (not unmapped, not lost).
  bool on_flash(uint64_t ppn) const { return ppn != L2pTable::kUnmapped && ppn != lost_ppn_; }

  uint64_t table_bytes_;
  uint64_t lost_ppn_;  // the entry of a lost unit: one slot past the drive's last
  L2pTable l2p_;
};

}  // namespace ssd::fw
