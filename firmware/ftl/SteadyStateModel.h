#pragma once
// The bulk preconditioning model of the page-level FTLs (PageLevelFtl::fill_steady_state,
// docs/ftl.md#bulk-how-the-state-is-computed).
//
// Writing the first W logical pages in order (all of them, or a drive filled to W) and then
// R x W of them at uniformly random addresses is modelled on per-block counts, not per page: a
// random overwrite invalidates the old copy of a uniformly random written logical page, and
// each has exactly one valid copy, so the old copy is a uniformly random valid page: the model
// draws it with probability proportional to each block's valid count (by rejection). Allocation
// (die rotation, lanes, free pools oldest first, the SLC cache filled and, at the end, folded) and
// greedy GC (firmware/ftl/GreedyIndex.h) run on the counts as the FTL runs them on pages; a
// GC copy costs nothing per page but a class draw. Which logical pages the valid pages hold is
// decided at the end, class by class:
// - in place: written by the sequential pass and never moved: page `off` of such a block
//   holds first + off x stride (the rotation is fixed), and which of them survive is a
//   uniformly random subset;
// - moved: never rewritten, but copied by GC; drawn (as above) when their block is collected,
//   then listed with the block they went to; an overwrite of one only counts it, and which
//   of the list are still valid is drawn when the block is collected or laid out (a uniform
//   subset, as removals one at a time at random would leave);
// - rewritten: every other logical page; which is where is a uniform shuffle (the overwrites
//   pick pages uniformly, so their identities are exchangeable).
// Positions of valid pages within a block are a uniformly random subset of its written
// pages (in-place pages keep their offsets).
//
// The phases, in order: sequential_pass, random_overwrites, flush, fold_slc, choose_owners,
// lay_out. The model works on copies of the FTL's streams and pools, and changes the FTL's
// blocks and streams only in lay_out. DFTL's translation pages are a part of their own
// (firmware/ftl/TranslationPagesModel.h), which the model calls through Translation.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "common/Prefetch.h"
#include "firmware/Types.h"
#include "firmware/ftl/GreedyIndex.h"
#include "firmware/ftl/L2pTable.h"
#include "firmware/ftl/PageLevelFtl.h"
#include "firmware/ftl/Streams.h"

namespace ssd::fw {

class SteadyStateModel {
 public:
  // What the translation pages do at the model's steps. Without them (the page FTL) the
  // model's only cost is a null test at each step.
  class Translation {
   public:
    virtual ~Translation() = default;
    // Before a host page of `lpn` is placed: its mapping is looked up (a dirty eviction
    // writes a translation page first); after: its entry is dirty.
    virtual void host_write(Lpn lpn) = 0;
    virtual void host_written(Lpn lpn) = 0;
    // Whether block g holds translation pages (then they, not the model, evacuate and lay
    // it out).
    virtual bool holds(size_t g) const = 0;
    // GC of translation block g, out of the greedy index: its `live` pages are copied.
    virtual void evacuate(uint32_t die, size_t g, uint32_t live) = 0;
    // GC copied the data page of `lpn`; then, after a victim's last copy, data_copied().
    virtual void data_moved(Lpn lpn) = 0;
    virtual void data_copied() = 0;
    // Translation block g's live pages: their owners and tokens (by page), and the FTL told
    // where they are (page p at first_ppn + p).
    virtual void lay_out(size_t g, uint64_t first_ppn, std::vector<Lpn>& owners,
                         std::vector<PageToken>& tokens) = 0;
  };

  // The logical units below `written` are written (the sequential pass), the others never.
  SteadyStateModel(PageLevelFtl& ftl, uint64_t written);
  void attach(Translation* translation) { translation_ = translation; }

  // The phases.
  void sequential_pass();                   // every logical page written, in order
  void random_overwrites(uint64_t writes);  // at uniformly random logical pages written
  void flush();                             // pads the pages (word lines) left part-filled
  void fold_slc();                          // as settle(): folds the full SLC blocks
  void seal_gc();                           // as settle(): pads the GC streams' word lines
  void choose_owners();                     // the rewritten logical pages, shuffled
  void lay_out(L2pTable& l2p);              // into the FTL and its mapping table

  // For the translation pages, which share the dies' blocks, free pools and greedy GC.
  uint32_t dies() const { return dies_; }
  size_t blocks() const { return mb_.size(); }
  uint32_t pages_per_block() const { return ppb_; }
  // As allocate(), a unit at a time: the stream's next unit slot on `die` (`unit`: the
  // stream's unit counter); the global block index.
  size_t take(uint32_t die, Stream& s, uint32_t& unit);
  bool has_free_block(uint32_t die) const { return !pool_[die].empty(); }
  // GC on the die until it has the free blocks GC keeps (gc_target()), or `target`.
  void collect(uint32_t die);
  void collect_to(uint32_t die, uint32_t target);
  // A translation page was written into block g, which now holds `live` live ones.
  void translation_written(size_t g, uint32_t live) {
    if (++mb_[g].written == ppb_) set_key(g, live);
  }
  // Whether block g is full and in the greedy index (by its key).
  bool full(size_t g) const { return counts_[g].key != kNotFull; }
  // A page of block g died: a full block's key is one less.
  void decrement_key(size_t g) {
    Counts& c = counts_[g];
    if (c.key == kNotFull) return;
    greedy_.decrement(uint32_t(g / per_die_), uint32_t(g % per_die_), c.key--);
  }
  void prefetch_counts(size_t g) const { ssd::prefetch(&counts_[g]); }
  [[noreturn]] void fail(const std::string& why) const;

 private:
  static constexpr uint32_t kNotFull = ~0u;

  class Rng {  // xorshift64*
   public:
    explicit Rng(uint64_t seed) : x_(seed | 1) {}
    uint64_t next() {
      x_ ^= x_ >> 12;
      x_ ^= x_ << 25;
      x_ ^= x_ >> 27;
      return x_ * 0x2545f4914f6cdd1dull;
    }
    uint64_t below(uint64_t n) { return uint64_t((unsigned __int128)next() * n >> 64); }

   private:
    uint64_t x_;
  };

  // What drawing the old copy of an overwrite reads and changes, packed.
  struct Counts {
    uint32_t valid = 0;
    uint32_t in_place = 0;    // valid pages the sequential pass wrote here
    uint32_t moved = 0;       // valid pages of ModelBlock::moved_in
    uint32_t key = kNotFull;  // a full block's valid count (greedy victim), else kNotFull
  };

  struct ModelBlock {
    uint32_t written = 0;     // pages written since the last erase
    uint32_t sequential = 0;  // of which by the sequential pass (a prefix)
    uint32_t erases = 0;
    bool slc = false;                // a native block in the dynamic SLC cache
    bool word_lines = false;         // the sequential pass wrote it a word line at a time
    uint64_t first_lpn = 0;          // the sequential pass's page at offset 0
    uint32_t short_from = ~0u;       // an SLC block's last set, if short: its first page
    uint64_t short_lpn = 0;          // and the sequential pass's page there
    std::vector<uint32_t> moved_in;  // never-rewritten logical pages GC copied here
  };

  // Chooses `k` of `n` offsets, each subset equally likely, in ascending order (selection
  // sampling); calls take(offset) for each.
  template <class F>
  static void choose(Rng& rng, uint32_t n, uint32_t k, F take);
  // Each block's own random stream for choose_owners and lay_out, drawn from in both.
  static Rng block_rng(size_t g);

  // The sequential pass's unit at slot `off` of block m: a page holds units_ consecutive
  // units, and the block's next page comes stride pages later; a word line at a time, its
  // pages come a lane's pages apart, and its next word line a word line's stride later.
  uint64_t in_place(const ModelBlock& m, uint32_t off) const {
    const uint32_t page = off / units_, word_line = m.word_lines ? word_line_pages_ : 1;
    if (page >= m.short_from)
      return m.short_lpn + uint64_t(page - m.short_from) * lanes_ * units_ + off % units_;
    const uint64_t pages =
        uint64_t(page / word_line) * stride_ * word_line + uint64_t(page % word_line) * lanes_;
    return m.first_lpn + pages * units_ + off % units_;
  }
  // A full block's key: set when it fills, one less per page that dies, gone when erased.
  void set_key(size_t g, uint32_t key) {
    counts_[g].key = key;
    greedy_.insert(uint32_t(g / per_die_), uint32_t(g % per_die_), key);
  }
  void put(size_t g, bool valid = true);
  // The block of `free` on `plane` that comes first, else its first (kAnyPlane: its first).
  uint32_t take_free(std::deque<uint32_t>& free, uint32_t die, uint32_t plane);
  // As SlcCache::open: a static SLC block, or a free one the dynamic cache takes.
  uint32_t take_slc(uint32_t die, uint32_t plane);
  // GC's first choice, as the FTL's: the die's oldest full dynamic SLC block, folded; false if
  // it has none.
  bool evict_dynamic(uint32_t die);
  // Folds SLC block b of the die: its valid pages to the GC stream, the block to its pool.
  void fold(uint32_t die, uint32_t b);
  // As the FTL pads a page it cannot fill: the stream's slots up to the page's end, no data.
  void pad(uint32_t die, Stream& s, uint32_t& unit);
  // One-shot programming: the stream's open word lines padded (`unit` at 0).
  void seal(uint32_t die, Stream& s, uint32_t& unit);
  // The logical pages of the block's moved_in list still valid there.
  void moved_valid(Rng& r, size_t g, std::vector<uint32_t>& out);
  // As place(): the next host page; `lpn` for the sequential pass, else a random overwrite.
  void host_write(bool sequential, uint64_t lpn);
  // GC of block g: its valid pages moved (a data block's by copy_valid), and it is erased.
  void evacuate(uint32_t die, size_t g);
  void copy_valid(uint32_t die, size_t g, const Counts& c);
  // A data block's owners and tokens by page, each valid page mapped in `l2p`.
  void lay_out_data(size_t g, uint64_t first_ppn, std::vector<Lpn>& owners,
                    std::vector<PageToken>& tokens, L2pTable& l2p);

  PageLevelFtl& ftl_;
  Translation* translation_ = nullptr;
  const uint32_t dies_;
  const uint32_t per_die_;  // blocks
  const uint32_t ppb_;      // counts are per unit slot (a page holds units_ of them)
  const uint32_t units_;
  const uint64_t written_;  // logical units written (below it), of the FTL's logical units
  const uint32_t lanes_;    // a stream's blocks open at once (one per plane under plane_first)
  const uint32_t word_line_pages_;  // pages a native-mode program writes (one-shot programming)
  const uint64_t stride_;           // pages between a block's pages in the sequential pass
  std::vector<ModelBlock> mb_;
  std::vector<Counts> counts_;
  GreedyIndex greedy_;  // the full blocks by key
  // The FTL's streams (they allocate pages), free pools and rotation, as the writes leave them.
  std::vector<std::deque<uint32_t>> pool_;
  std::vector<Stream> host_, gc_, slc_;
  std::vector<std::deque<uint32_t>> slc_pool_, slc_full_;
  DynamicSlc dynamic_;
  uint32_t rotation_;
  Rng rng_;
  // Per die: the unit of the host page and of the GC page being filled (0: a new page comes
  // next), and whether the host page being filled is in the SLC cache.
  std::vector<uint32_t> host_unit_, gc_unit_;
  std::vector<bool> host_in_slc_;
  std::vector<uint32_t> moved_;  // moved_valid's, reused
  // choose_owners: the rewritten logical pages in the order lay_out gives them out.
  std::vector<uint32_t> rewritten_;
  size_t next_rewritten_ = 0;
};

}  // namespace ssd::fw
