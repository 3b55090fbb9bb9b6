#include "firmware/ftl/Dftl.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include "firmware/ftl/CheckedConfig.h"

namespace ssd::fw {
namespace {

// The translation pages of the drive's table (dram.access_bytes <= flash.page_bytes).
uint64_t translation_pages_for(const config::DriveConfig& cfg) {
  const uint64_t entries_per_tp = cfg.flash.page_bytes / cfg.dram.access_bytes;
  return (cfg.logical_units() + entries_per_tp - 1) / entries_per_tp;
}

// Look-ups of the cached mapping table by host reads, writes and trims, and the
// translation-page traffic (all causes: misses, evictions, GC).
const StatKey kCmtHits("dftl", "cmt_hits", StatUnit::Lookups,
                       "Host look-ups the cached mapping table answered.");
const StatKey kCmtMisses("dftl", "cmt_misses", StatUnit::Lookups, "Host look-ups that missed it.");
const StatKey kTranslationReads("dftl", "translation_reads", StatUnit::Pages,
                                "Translation pages read.");
const StatKey kTranslationWrites("dftl", "translation_writes", StatUnit::Pages,
                                 "Translation pages written.");
const StatKey kTranslationRebuilt("dftl", "translation_pages_rebuilt", StatUnit::Pages,
                                  "Translation pages rebuilt from the reverse map and written "
                                  "again, the die holding them having stopped answering "
                                  "(flash.faults.dead_die).");
const StatKey kTranslationMoves("dftl", "translation_moves", StatUnit::Pages,
                                "Translation pages moved whole (GC, wear levelling, a failed "
                                "program's page rewritten).");

}  // namespace

void Dftl::check(const config::DriveConfig& cfg, config::Problems& problems) {
  if (cfg.dram.access_bytes > cfg.flash.page_bytes) {
    problems.add("dram.access_bytes", "the dftl FTL needs at most flash.page_bytes (" +
                                          std::to_string(cfg.flash.page_bytes) +
                                          ") for its translation pages");
    return;
  }
  const uint64_t cached = cfg.ftl.map_cache_bytes / cfg.dram.access_bytes;
  if (cached == 0 || cached >= MappingCache::kNone) {
    problems.add("ftl.map_cache_bytes",
                 "the dftl FTL caches from one entry of dram.access_bytes (" +
                     std::to_string(cfg.dram.access_bytes) + ") to fewer than 2^32; it holds " +
                     std::to_string(cached));
  } else if (cached < cfg.units_per_page()) {
    // A page's units are placed together, their entries cached first: they must fit at once.
    problems.add("ftl.map_cache_bytes",
                 "the dftl FTL caches the " + std::to_string(cfg.units_per_page()) +
                     " entries of a page's units at once; it holds " + std::to_string(cached));
  }
  // Page numbers are 32-bit (all ones: none): the translation pages' must fit too.
  const uint64_t tps = translation_pages_for(cfg);
  if (cfg.logical_units() + tps >= std::numeric_limits<uint32_t>::max())
    problems.add("flash", "the dftl FTL numbers its " + std::to_string(tps) +
                              " translation pages after the " +
                              std::to_string(cfg.logical_units()) +
                              " logical units, beyond the 32-bit page numbers");
}

uint64_t Dftl::table_bytes(const config::DriveConfig& cfg) {
  return translation_pages_for(cfg) * cfg.dram.access_bytes + cfg.ftl.map_cache_bytes;
}

Dftl::Dftl(const config::DriveConfig& cfg, Hal& hal)
    : PageLevelFtl(checked(cfg, &check), hal),
      first_tp_lpn_(cfg.logical_units()),
      entries_per_tp_(cfg.flash.page_bytes / cfg.dram.access_bytes),
      entry_bytes_(cfg.dram.access_bytes),
      unit_bytes_(cfg.unit_bytes()),
      cmt_capacity_(cfg.ftl.map_cache_bytes / cfg.dram.access_bytes),
      table_bytes_(table_bytes(cfg)),
      lost_ppn_(cfg.flash.total_pages() * cfg.units_per_page()),
      l2p_(cfg.logical_units(), lost_ppn_ + 1),
      cmt_(cmt_capacity_, translation_pages_for(cfg), entries_per_tp_) {
  const uint64_t tps = translation_pages_for(cfg);
  gtd_.assign(tps, L2pTable::kUnmapped);
  tp_version_.assign(tps, 0);
  statistics_.add(kCmtHits);
  statistics_.add(kCmtMisses);
  statistics_.group("dftl").derived(
      "hit_ratio", StatUnit::None, "cmt_hits / (cmt_hits + cmt_misses).",
      [this]() -> std::optional<double> {
        const uint64_t hits = statistics_[kCmtHits], lookups = hits + statistics_[kCmtMisses];
        if (lookups == 0) return std::nullopt;
        return double(hits) / double(lookups);
      });
  statistics_.add(kTranslationReads);
  statistics_.add(kTranslationWrites);
  statistics_.add(kTranslationMoves);
  if (cfg.flash.faults.dead_die_at_ms > 0) statistics_.add(kTranslationRebuilt);
}

void Dftl::read_translation_units(uint64_t tvpn, uint32_t first, uint32_t n, OpId* ready) {
  const Ppa at = to_ppa(gtd_[tvpn]);  // its unit 0
  const PageToken expected{translation_lpn(tvpn), tp_version_[tvpn]};
  for (uint32_t u = first; u < first + n; ++u) {
    PageToken t;
    ready[u - first] = read_unit(Ppa{at.die, at.block, at.page + u}, t);
    ++statistics_[kTranslationReads];
    if (!(t == expected))
      throw std::logic_error("dftl: translation page " + std::to_string(tvpn) +
                             " read back a token of another page or version");
  }
}

OpId Dftl::write_translation_page(uint64_t tvpn, bool for_gc) {
  Hal::Scope mapping(hal_, Work::Mapping);
  // Place first: GC on the way may move the old copy (moved() updates the GTD).
  const Ppa page = for_gc ? place_mapping_for_gc() : place_mapping_page();
  const Ppa to = unit_slot(page, 0);
  const uint32_t units = units_per_page();
  hal_.dram_access(1, false);  // GTD look-up
  const uint64_t old = gtd_[tvpn];
  std::array<OpId, config::kMaxUnitsPerPage> ready;
  ready.fill(kNoOp);
  if (old != L2pTable::kUnmapped) {
    read_translation_units(tvpn, 0, units, ready.data());  // read-modify-write: every entry
    invalidate_page(to_ppa(old));
  }
  const PageToken token{translation_lpn(tvpn), ++tp_writes_};
  tp_version_[tvpn] = token.version;
  set_valid_page(to, token.lpn);
  gtd_[tvpn] = to_ppn(to);
  hal_.dram_access(1, true);  // GTD update
  // The page holds the current mapping of all its entries: its dirty cached ones are clean.
  if (const uint32_t cleaned = cmt_.clean(tvpn)) hal_.dram_access(cleaned, true);
  ++statistics_[kTranslationWrites];
  ++stats_.pages_programmed;
  std::array<PageToken, config::kMaxUnitsPerPage> tokens;
  tokens.fill(token);  // each unit of the page carries the page's token
  return program(page, tokens.data(), ready.data());
}

bool Dftl::precondition_bulk(uint64_t written, uint64_t random_writes) {
  return fill_steady_state(written, random_writes, l2p_, this);
}

uint64_t Dftl::look_up(Lpn lpn) {
  if (const uint32_t slot = cmt_.find(lpn); slot != MappingCache::kNone) {
    cmt_.touch(slot);
    return kNoPage;
  }
  if (!cmt_.full()) return kNoPage;
  // As cache(): the victim leaves, then its translation page is written if it was dirty.
  const MappingCache::Evicted victim = cmt_.evict();
  return victim.dirty ? victim.lpn / entries_per_tp_ : kNoPage;
}

void Dftl::enter(Lpn lpn) {
  if (cmt_.find(lpn) == MappingCache::kNone) cmt_.insert(lpn, kNoOp);
}

bool Dftl::moved_by_gc(Lpn lpn) {
  const uint32_t slot = cmt_.find(lpn);
  if (slot == MappingCache::kNone) return false;
  cmt_.mark_dirty(slot);
  return true;
}

void Dftl::mark_dirty(Lpn lpn) {
  const uint32_t slot = cmt_.find(lpn);
  if (slot == MappingCache::kNone)
    throw std::logic_error("dftl: the entry of page " + std::to_string(lpn) + " left the cache");
  cmt_.mark_dirty(slot);
}

void Dftl::place(uint64_t tvpn, uint64_t ppn, uint64_t version) {
  gtd_[tvpn] = ppn;
  tp_version_[tvpn] = version;
  tp_writes_ = std::max(tp_writes_, version);
}

OpId Dftl::cache(Lpn lpn) {
  Hal::Scope mapping(hal_, Work::Mapping);
  hal_.dram_access(1, false);  // CMT probe
  if (const uint32_t slot = cmt_.find(lpn); slot != MappingCache::kNone) {
    ++statistics_[kCmtHits];
    cmt_.touch(slot);
    return cmt_.loading(slot);
  }
  ++statistics_[kCmtMisses];
  // A read-only drive with no block left for a translation page (injected faults) keeps its
  // dirty entries: the look-up reads the entry's translation page into the controller's buffer
  // and caches nothing (reads are all such a drive serves, so nothing dirties the cache more).
  const bool keep = cmt_.full() && cmt_.oldest_dirty() && mapping_page_stranded();
  if (cmt_.full() && !keep) {
    // Out of the cache before its translation page is written: should GC on the way move its
    // data page, the move is recorded like any uncached entry's (GC writes that translation
    // page), and the write below carries the latest mapping all the same.
    const MappingCache::Evicted victim = cmt_.evict();
    if (victim.dirty) write_translation_page(victim.lpn / entries_per_tp_, false);
  }
  const uint64_t tvpn = lpn / entries_per_tp_;
  hal_.dram_access(1, false);  // GTD look-up
  // A translation page never written maps nothing: no flash read. Else the unit that holds
  // the entry (all of the page when the unit is the page).
  OpId ready = kNoOp;
  if (gtd_[tvpn] != L2pTable::kUnmapped) {
    const uint32_t unit = uint32_t(uint64_t(lpn % entries_per_tp_) * entry_bytes_ / unit_bytes_);
    read_translation_units(tvpn, unit, 1, &ready);
  }
  if (keep) return ready;
  cmt_.insert(lpn, ready);
  hal_.dram_access(1, true);  // CMT fill
  return ready;
}

Ftl::ReadResult Dftl::read(Lpn lpn, PageToken& out) {
  check_dead_die();
  const OpId known = cache(lpn);
  {
    // The data page's address is in the translation page: the core waits for it.
    Hal::Scope mapping(hal_, Work::Mapping);
    hal_.wait_for(known);
  }
  const uint64_t ppn = l2p_.get(lpn);
  if (ppn == L2pTable::kUnmapped) {
    out = PageToken{lpn, 0};
    return {kNoOp, false};
  }
  if (ppn == lost_ppn_) return read_lost(lpn, out);
  return {read_unit(to_ppa(ppn), out), true};
}

OpId Dftl::write(Lpn lpn, const PageToken& data, OpId data_from) {
  if (units_per_page() != 1) {  // a page of its own, padded
    const UnitWrite w{lpn, data, data_from};
    OpId program;
    write_units(&w, 1, &program);
    return program;
  }
  cache(lpn);  // the program does not depend on the old mapping: no wait
  const Ppa ppa = place_page();
  map(lpn, ppa);
  ++stats_.host_pages_written;
  ++stats_.pages_programmed;
  return program_host(ppa, data, data_from);
}

void Dftl::write_units(const UnitWrite* batch, std::size_t n, OpId* programs) {
  if (units_per_page() == 1) return Ftl::write_units(batch, n, programs);
  // The page's entries come in before it is placed: at least a page's worth fit in the CMT
  // (checked when built), so none of them leaves before its unit is mapped.
  pack_units(
      batch, n, programs,
      [this](const UnitWrite* units, uint32_t m) {
        for (uint32_t u = 0; u < m; ++u) cache(units[u].lpn);
      },
      [this](const UnitWrite& w, const Ppa& slot) { map(w.lpn, slot); });
}

void Dftl::map(Lpn lpn, const Ppa& slot) {
  {
    Hal::Scope mapping(hal_, Work::Mapping);
    hal_.dram_access(2, true);  // CMT update, reverse map
  }
  const uint64_t old = l2p_.set(lpn, to_ppn(slot));
  if (on_flash(old)) blocks_.invalidate(to_ppa(old), clock());
  blocks_.set_valid(slot, lpn);
  // GC in place_page() evicts nothing, so the entry cached before is still there.
  mark_dirty(lpn);
}

void Dftl::trim(Lpn lpn) {
  check_dead_die();
  cache(lpn);
  const uint64_t old = l2p_.erase(lpn);
  if (old == L2pTable::kUnmapped) return;
  Hal::Scope mapping(hal_, Work::Mapping);
  if (old != lost_ppn_) blocks_.invalidate(to_ppa(old), clock());
  mark_dirty(lpn);
  hal_.dram_access(1, true);
}

void Dftl::moved(Lpn owner, const Ppa& to) {
  hal_.dram_access(1, true);  // GTD or CMT entry
  if (is_translation(owner)) {
    gtd_[owner - first_tp_lpn_] = to_ppn(to);
    ++statistics_[kTranslationMoves];
    return;
  }
  l2p_.set(owner, to_ppn(to));
  if (const uint32_t slot = cmt_.find(owner); slot != MappingCache::kNone)
    cmt_.mark_dirty(slot);
  else
    pending_tps_.push_back(owner / entries_per_tp_);
}

void Dftl::after_copies() { write_pending(true); }

void Dftl::write_pending(bool for_gc) {
  if (pending_tps_.empty()) return;
  std::vector<uint64_t> tps;
  tps.swap(pending_tps_);
  std::sort(tps.begin(), tps.end());
  tps.erase(std::unique(tps.begin(), tps.end()), tps.end());
  size_t written = 0;
  try {
    for (; written < tps.size(); ++written) write_translation_page(tps[written], for_gc);
  } catch (const BlockManager::NoFreeBlock&) {
    // Under injected faults GC may stop here for want of a block (collect_garbage): the pages
    // not written stay pending, for the next run's copies.
    pending_tps_.insert(pending_tps_.end(), tps.begin() + std::ptrdiff_t(written), tps.end());
    throw;
  }
}

bool Dftl::lose(Lpn lpn) {
  l2p_.set(lpn, lost_ppn_);
  return cmt_.find(lpn) != MappingCache::kNone;
}

void Dftl::rebuild_mapping(const std::vector<Lpn>& pages, uint32_t die) {
  if (pages.empty()) return;
  // The entries of the pages lost are in the cache or in the reverse map: the firmware walks the
  // reverse map of every block holding valid data on the dies left (a step each, and its slots'
  // entries read) and writes each page again (its old copy is gone: nothing to read first).
  uint32_t walked = 0;
  for (uint32_t d = 0; d < blocks_.dies(); ++d) {
    if (d == die) continue;
    for (uint32_t b = 0; b < blocks_.blocks_per_die(); ++b) walked += blocks_.valid_pages(d, b) > 0;
  }
  hal_.compute(t_step_ * double(walked));
  {
    Hal::Scope mapping(hal_, Work::Mapping);
    const uint64_t entries = uint64_t(walked) * blocks_.pages_per_block() * units_per_page();
    for (uint64_t left = entries; left > 0;) {
      const uint32_t n = uint32_t(std::min<uint64_t>(left, uint64_t{1} << 24));  // a transfer's
      hal_.dram_access(n, false);
      left -= n;
    }
  }
  for (const Lpn owner : pages) {
    const uint64_t tvpn = owner - first_tp_lpn_;
    gtd_[tvpn] = L2pTable::kUnmapped;
    pending_tps_.push_back(tvpn);
  }
  statistics_[kTranslationRebuilt] += pages.size();
  write_pending(false);
}

void Dftl::state(StateArchive& a) {
  const uint64_t tps = gtd_.size();
  page_level_state(a, first_tp_lpn_ + tps);
  l2p_.state(a, physical_slots());
  a.section("translation pages");
  a.fixed_indexes(gtd_, physical_slots(), "translation page", L2pTable::kUnmapped);
  a.fixed(tp_version_, "translation page versions");
  a.value(tp_writes_);
  cmt_.state(a, first_tp_lpn_);
  a.indexes(pending_tps_, tps, tps, "pending translation page");
}

}  // namespace ssd::fw
