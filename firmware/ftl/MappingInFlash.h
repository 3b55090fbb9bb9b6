#pragma once
// What bulk preconditioning (PageLevelFtl::fill_steady_state, its translation pages:
// firmware/ftl/TranslationPagesModel.h) needs from an FTL whose mapping table lives in flash
// (DFTL, firmware/ftl/Dftl.h): how its cached mapping table answers each write and each page GC
// moves, which translation pages that makes it write, and where it is told the translation
// pages ended up. The model writes the translation pages into blocks of their own, as the FTL
// does; the cache's state is the FTL's own, changed as the writes would change it.
#include <cstdint>

#include "firmware/Types.h"

namespace ssd::fw {

class MappingInFlash {
 public:
  static constexpr uint64_t kNoPage = ~uint64_t{0};

  virtual ~MappingInFlash() = default;
  virtual uint64_t translation_pages() const = 0;
  virtual uint64_t translation_page_of(Lpn lpn) const = 0;
  // The logical page number a translation page's token carries: after the host's.
  virtual Lpn translation_lpn(uint64_t tvpn) const = 0;
  // A host write of `lpn`, in three steps as the FTL takes them. Its look-up: a hit moves the
  // entry to the front; a miss evicts the least recently used entry and returns the
  // translation page its eviction writes if it was dirty (kNoPage: none, or a hit).
  virtual uint64_t look_up(Lpn lpn) = 0;
  // Then, that page written, the entry is cached (clean, if it was not there); once the host
  // page is placed (GC on its die may have moved pages), it is dirty.
  virtual void enter(Lpn lpn) = 0;
  virtual void wrote(Lpn lpn) = 0;
  // GC moved `lpn`'s data page: whether its entry is cached (now dirty); if not, its
  // translation page is rewritten once the victim's pages are copied.
  virtual bool moved_by_gc(Lpn lpn) = 0;
  // Translation page `tvpn` was written: its dirty cached entries are clean.
  virtual void written(uint64_t tvpn) = 0;
  // Layout: the translation page's current copy, its `version`-th write, is at `ppn`.
  virtual void place(uint64_t tvpn, uint64_t ppn, uint64_t version) = 0;
};

}  // namespace ssd::fw
