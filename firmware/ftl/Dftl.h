#pragma once
// DFTL: page mapping whose table lives in flash. The table is cut into translation pages of
// page_bytes / dram.access_bytes entries each; the global translation directory (GTD, in
// DRAM) holds where each translation page is; a cached mapping table (CMT) of
// map_cache_bytes / access_bytes entries, in LRU order, holds the entries in use. A miss
// reads the entry's translation page; evicting a dirty entry writes its translation page
// (read the old one, program the new one), which cleans every dirty cached entry of that page
// at once. Data GC updates cached entries in the CMT and the others in their translation
// pages, one read-modify-write per translation page per victim. Translation pages share the
// blocks (and GC) of data pages; docs/ftl.md has the details.
//
// Translation pages hold real tokens in NAND: {logical units + translation page number,
// write sequence}, numbered after the host's units so no host unit can be mistaken for one;
// every translation read checks the token it gets back.
//
// A die that stops answering (flash.faults.dead_die): its data units are lost (a cached entry is
// marked so, a CMT write; an entry in a translation page needs nothing, as its address on the
// dead die reads as lost); the translation pages it held are written again from the reverse map
// (a step and its slots' entries read per block holding valid data on the dies left).
//
// Mapping units smaller than the page (ftl.mapping_unit_bytes): an entry maps a unit, so
// there are U times the translation pages; a translation page is still a whole flash page
// (every unit of it carries its token). A miss reads the one unit holding its entry; a
// translation page write reads all U units first (one array read, the page over the bus).
// Host units are packed U to a page as in the page FTL, their entries cached first.
//
// DRAM traffic (each entry one access): CMT probe 1 per host page operation; on a miss GTD
// look-up 1 and CMT fill 1 (write); write: CMT update 1 + reverse map 1 (writes); trim: 1
// write when the page was mapped; translation page write: GTD look-up 1, GTD update 1, and 1
// write per cached entry it cleans. GC as PageLevelFtl, plus 1 CMT or GTD write per moved page.
#include <vector>

#include "firmware/ftl/L2pTable.h"
#include "firmware/ftl/MappingCache.h"
#include "firmware/ftl/MappingInFlash.h"
#include "firmware/ftl/PageLevelFtl.h"

namespace ssd::fw {

class Dftl final : public PageLevelFtl, private MappingInFlash {
 public:
  // Throws ssd::ConfigError if the drive breaks a rule of check().
  Dftl(const config::DriveConfig& cfg, Hal& hal);
  // The drive's rules for this FTL, each broken one a problem: translation pages of
  // dram.access_bytes entries, a cache of a page's entries at least, 32-bit page numbers.
  static void check(const config::DriveConfig& cfg, config::Problems& problems);
  // GTD (one entry per translation page) + CMT (map_cache_bytes).
  static uint64_t table_bytes(const config::DriveConfig& cfg);
  // The page FTL's model, with the translation pages written as this FTL writes them and the
  // cache changed as the writes change it (firmware/ftl/MappingInFlash.h); not with an SLC
  // cache or units smaller than the page (false: the caller simulates).
  bool precondition_bulk(uint64_t written, uint64_t random_writes) override;

  ReadResult read(Lpn lpn, PageToken& out) override;
  OpId write(Lpn lpn, const PageToken& data, OpId data_from) override;
  void write_units(const UnitWrite* batch, std::size_t n, OpId* programs) override;
  void trim(Lpn lpn) override;
  std::string name() const override { return "dftl"; }
  void state(StateArchive& a) override;
  // The page number translation page `tvpn`'s token carries, and whether a token's is one.
  Lpn translation_lpn(uint64_t tvpn) const override { return first_tp_lpn_ + tvpn; }
  bool is_translation(Lpn lpn) const { return lpn >= first_tp_lpn_; }
  uint64_t mapping_table_bytes() const override { return table_bytes_; }

  uint64_t translation_pages() const override { return gtd_.size(); }
  uint32_t entries_per_translation_page() const { return entries_per_tp_; }
  uint64_t cache_entries() const { return cmt_capacity_; }
  uint64_t cached() const { return cmt_.size(); }

 private:
  // Brings lpn's entry into the CMT (a hit moves it to the front). Returns the translation-page
  // read the entry waits for (kNoOp if it is known).
  OpId cache(Lpn lpn);
  // The entry of `lpn`, which must be cached, is dirty.
  void mark_dirty(Lpn lpn);
  // MappingInFlash: the cache's part in bulk preconditioning, as cache(), write() and moved()
  // change it.
  uint64_t translation_page_of(Lpn lpn) const override { return lpn / entries_per_tp_; }
  uint64_t look_up(Lpn lpn) override;
  void enter(Lpn lpn) override;
  void wrote(Lpn lpn) override { mark_dirty(lpn); }
  bool moved_by_gc(Lpn lpn) override;
  void written(uint64_t tvpn) override { cmt_.clean(tvpn); }
  void place(uint64_t tvpn, uint64_t ppn, uint64_t version) override;
  // Writes translation page `tvpn` from the current mapping, as PageLevelFtl places mapping
  // pages (`for_gc`: on behalf of GC). Returns when it is programmed.
  OpId write_translation_page(uint64_t tvpn, bool for_gc);
  // Reads units [first, first + n) of translation page `tvpn` (`ready[i]`: unit first + i's
  // read), checking each one's token.
  void read_translation_units(uint64_t tvpn, uint32_t first, uint32_t n, OpId* ready);
  // A host write's mapping of `lpn` (its entry cached) to `slot`.
  void map(Lpn lpn, const Ppa& slot);
  void moved(Lpn owner, const Ppa& to) override;
  bool lose(Lpn lpn) override;
  void rebuild_mapping(const std::vector<Lpn>& pages, uint32_t die) override;
  // Writes the translation pages in pending_tps_ (`for_gc`: GC's); those not written for want
  // of a block stay pending.
  void write_pending(bool for_gc);
  // Whether the mapping entry `ppn` names a slot on flash (not unmapped, not lost).
  bool on_flash(uint64_t ppn) const { return ppn != L2pTable::kUnmapped && ppn != lost_ppn_; }
  bool is_mapping(Lpn owner) const override { return is_translation(owner); }
  void after_copies() override;

  Lpn first_tp_lpn_;
  uint32_t entries_per_tp_;
  uint32_t entry_bytes_;
  uint32_t unit_bytes_;
  uint64_t cmt_capacity_;
  uint64_t table_bytes_;
  uint64_t lost_ppn_;  // the entry of a unit lost with its die: one slot past the drive's last
  L2pTable l2p_;       // the current mapping: the CMT's dirty entries over the translation pages
  std::vector<uint64_t> gtd_;         // translation page -> ppn, or L2pTable::kUnmapped
  std::vector<uint64_t> tp_version_;  // token version of each translation page's last write
  uint64_t tp_writes_ = 0;
  MappingCache cmt_;
  std::vector<uint64_t> pending_tps_;  // uncached entries GC moved, by translation page
};

}  // namespace ssd::fw
