// PageLevelFtl::fill_steady_state: bulk preconditioning (docs/ftl.md#preconditioning).
//
// Writing every logical page in order and then R x the logical pages at uniformly random
// addresses is modelled on per-block counts, not per page: a random overwrite invalidates
// the old copy of a uniformly random logical page, and each logical page has exactly one
// valid copy, so the old copy is a uniformly random valid page: the model draws it with
// probability proportional to each block's valid count (by rejection). Allocation (die
// rotation, lanes, free pools oldest first, the SLC cache filled and, at the end, folded) and
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
// DFTL (`flash_map`): the translation pages are written as the FTL writes them, into blocks
// of their own on the mapping stream, and tracked page by page (there are few): each host
// write asks the FTL's cached mapping table what a dirty eviction writes first (the random
// writes use the simulated path's addresses, firmware/PreconditionStream.h, though the data
// model does not need them); GC copies a translation block's live pages within the die and,
// after a data victim's copies, rewrites the translation page of each moved page whose entry
// is not cached (sorted, once each). The identity of a moved page is known for the sequential
// pass's survivors and the moved pages; a rewritten one is a uniformly drawn logical page
// (its translation page, and whether its entry is cached, are what matter).
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/Prefetch.h"
#include "firmware/PreconditionStream.h"
#include "firmware/ftl/GreedyIndex.h"
#include "firmware/ftl/MappingInFlash.h"
#include "firmware/ftl/PageLevelFtl.h"

namespace ssd::fw {
namespace {

constexpr uint64_t kSeed = 0x9e3779b97f4a7c15ull;  // fixed: the same inputs, the same state

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

constexpr uint32_t kNotFull = ~0u;
constexpr uint32_t kPrefetchAhead = 16;  // pages: enough misses in flight to hide the latency
constexpr size_t kFetchAhead = 16;       // DFTL: translation page writes, likewise

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
  bool translation = false;        // DFTL: holds translation pages (tcopies), not data
  uint64_t first_lpn = 0;          // the sequential pass's page at offset 0
  std::vector<uint32_t> moved_in;  // never-rewritten logical pages GC copied here
};

// DFTL: a translation page written into a block, in page order: its number and write stamp.
// The copy is live while the page's last write or move put that stamp in that block.
struct TranslationCopy {
  uint32_t tvpn;
  uint64_t version;
};

// DFTL: where a translation page's live copy is (a block, or kNowhere) and its stamp, side by
// side: each write of the page reads both, at random over the drive's translation pages.
struct TranslationHome {
  static constexpr size_t kNowhere = ~size_t{0};
  size_t block = kNowhere;
  uint64_t version = 0;
};

// Chooses `k` of `n` offsets, each subset equally likely, in ascending order (selection
// sampling); calls take(offset) for each.
template <class F>
void choose(Rng& rng, uint32_t n, uint32_t k, F take) {
  for (uint32_t i = 0; i < n && k != 0; ++i) {
    if (rng.below(n - i) < k) {
      take(i);
      --k;
    }
  }
}

}  // namespace

bool PageLevelFtl::fill_steady_state(uint64_t random_writes,
                                     const std::function<void(Lpn, uint64_t)>& map,
                                     MappingInFlash* flash_map) {
  if (!bulk_model_holds_ || fold_on_full_ || logical_units_ >= std::numeric_limits<uint32_t>::max())
    return false;
  // Not modelled: DFTL with an SLC cache, or with units smaller than the page (the model's
  // translation pages take one slot each; the FTL's take a page's units_ slots, and caches a
  // page's entries before placing it).
  if (flash_map && (slc_.blocks_in_plane != 0 || units_ != 1)) return false;
  // Counts are per unit slot (a page holds units_ of them); streams allocate pages.
  const uint32_t ppb = slots_per_block_;
  const uint32_t per_die = blocks_.blocks_per_die();
  const uint32_t lanes = uint32_t(host_streams_.front().blocks.size());
  const uint64_t stride = uint64_t(lanes) * dies_;
  // The sequential pass's unit at slot `off` of a block whose first is `first`: a page holds
  // units_ consecutive units, and the block's next page comes stride pages later.
  const auto in_place = [&](uint64_t first, uint32_t off) {
    return first + uint64_t(off / units_) * stride * units_ + off % units_;
  };
  std::vector<ModelBlock> mb(size_t(dies_) * per_die);
  std::vector<Counts> counts(mb.size());
  GreedyIndex greedy(dies_, per_die, ppb);  // the full blocks by key
  // A full block's key: set when it fills, one less per page that dies, gone when erased.
  const auto set_key = [&](size_t g, uint32_t key) {
    counts[g].key = key;
    greedy.insert(uint32_t(g / per_die), uint32_t(g % per_die), key);
  };
  const auto decrement_key = [&](size_t g) {
    Counts& c = counts[g];
    if (c.key == kNotFull) return;
    greedy.decrement(uint32_t(g / per_die), uint32_t(g % per_die), c.key--);
  };
  std::vector<std::deque<uint32_t>> pool(dies_);
  for (uint32_t d = 0; d < dies_; ++d)
    for (uint32_t b = 0; b < per_die; ++b)
      if (!blocks_.reserved(b)) pool[d].push_back(b);
  std::vector<Stream> host = host_streams_, gc = gc_streams_, slc = slc_streams_;
  std::vector<std::deque<uint32_t>> slc_pool = slc_free_, slc_full(dies_);
  uint32_t rotation = next_die_;
  Rng rng(kSeed);
  // Per die: the unit of the host page and of the GC page being filled (0: a new page comes
  // next), and whether the host page being filled is in the SLC cache.
  std::vector<uint32_t> host_unit(dies_, 0), gc_unit(dies_, 0);
  std::vector<bool> host_in_slc(dies_, false);
  // DFTL: the translation blocks' pages, each translation page's block and stamp, the mapping
  // stream and its rotation.
  std::vector<std::vector<TranslationCopy>> tcopies(flash_map ? mb.size() : 0);
  std::vector<uint32_t> tvalid(tcopies.size(), 0);  // live copies, kept while not full
  std::vector<TranslationHome> thome(flash_map ? flash_map->translation_pages() : 0);
  const auto live = [&](size_t g, const TranslationCopy& t) {
    return thome[t.tvpn].block == g && thome[t.tvpn].version == t.version;
  };
  uint64_t tp_writes = 0;
  std::vector<Stream> maps = map_streams_;
  uint32_t map_rotation = map_die_;
  uint32_t whole_page = 0;  // translation pages' unit counter: DFTL's units are pages

  // As allocate(), a unit at a time: the stream's next unit slot on `die` (`unit`: the
  // stream's unit counter); the global block index.
  const auto take = [&](uint32_t die, Stream& s, uint32_t& unit) -> size_t {
    uint32_t& block = s.blocks[s.lane];
    const uint32_t pages = s.slc ? slc_.pages_per_block : pages_per_block_;
    if (unit != 0) {  // the page being filled
      const size_t g = size_t(die) * per_die + block;
      if (++unit == units_) {
        unit = 0;
        if (++s.lane == s.blocks.size()) {
          s.lane = 0;
          s.next_page = (s.next_page + 1) % pages;
        }
      }
      return g;
    }
    if (s.next_page == 0) {
      auto& free = s.slc ? slc_pool[die] : pool[die];
      if (free.empty())
        throw std::runtime_error(name() + " FTL: bulk preconditioning: die " + std::to_string(die) +
                                 " has no free block left");
      auto it = free.begin();
      if (s.blocks.size() != 1) {
        auto on_plane = std::find_if(free.begin(), free.end(),
                                     [&](uint32_t b) { return blocks_.plane_of(b) == s.lane; });
        if (on_plane != free.end()) it = on_plane;
      }
      block = *it;
      free.erase(it);
    }
    const size_t g = size_t(die) * per_die + block;
    if (s.slc && s.next_page + 1 == pages) slc_full[die].push_back(block);
    if (units_ != 1) {
      unit = 1;
      return g;
    }
    if (++s.lane == s.blocks.size()) {
      s.lane = 0;
      s.next_page = (s.next_page + 1) % pages;
    }
    return g;
  };
  const auto put = [&](size_t g, bool valid = true) {
    Counts& c = counts[g];
    if (valid) ++c.valid;
    if (++mb[g].written == ppb && !blocks_.reserved(uint32_t(g % per_die))) set_key(g, c.valid);
  };
  // A translation page's copy written (or moved) into block g; its old copy, if any, dies.
  const auto put_translation = [&](size_t g, uint32_t t, uint64_t version) {
    TranslationHome& home = thome[t];
    if (const size_t old = home.block; old != TranslationHome::kNowhere) {
      // A full block's live copies are its key: the count apart is kept while the block is
      // open, or a victim out of the index (not a random touch of a second array per write).
      if (counts[old].key == kNotFull)
        --tvalid[old];
      else
        decrement_key(old);
    }
    home = TranslationHome{g, version};
    std::vector<TranslationCopy>& copies = tcopies[g];
    if (copies.empty()) copies.reserve(ppb);  // filled in one go: no regrowth
    copies.push_back(TranslationCopy{t, version});
    mb[g].translation = true;
    ++tvalid[g];
    if (++mb[g].written == ppb) set_key(g, tvalid[g]);
  };
  // As place_mapping_for_gc: the next die in the mapping rotation that has room, no GC.
  const auto translation_for_gc = [&](uint32_t t) {
    for (uint32_t tries = 0; tries < dies_; ++tries) {
      const uint32_t die = map_rotation;
      map_rotation = (map_rotation + 1) % dies_;
      if (maps[die].next_page != 0 || !pool[die].empty()) {
        put_translation(take(die, maps[die], whole_page), t, ++tp_writes);
        flash_map->written(t);
        return;
      }
    }
    throw std::runtime_error(name() +
                             " FTL: bulk preconditioning: no die has a free block for a "
                             "translation page");
  };
  // As the FTL pads a page it cannot fill: the stream's slots up to the page's end, no data.
  const auto pad = [&](uint32_t die, Stream& s, uint32_t& unit) {
    while (unit != 0) put(take(die, s, unit), false);
  };
  // The logical pages of the block's moved_in list still valid there.
  const auto moved_valid = [&](Rng& r, size_t g, std::vector<uint32_t>& out) {
    const auto& in = mb[g].moved_in;
    out.clear();
    choose(r, uint32_t(in.size()), counts[g].moved, [&](uint32_t i) { out.push_back(in[i]); });
  };
  std::vector<uint32_t> moved;
  // Copies block g's valid pages to the die's GC stream, in page order (the sequential
  // pass's survivors, then the others in random order), and erases it. DFTL: a translation
  // block's live pages go to the die's mapping stream; a data block's moved pages whose
  // entries are not cached have their translation pages rewritten, once each.
  std::vector<uint32_t> pending;
  const auto evacuate = [&](uint32_t die, size_t g) {
    ModelBlock& m = mb[g];
    const Counts c = counts[g];
    // Out of the greedy index first: a translation victim's copies, moving out, then leave
    // its key alone (not an index update each, for a block about to be erased).
    if (c.key != kNotFull) {
      greedy.erase(die, uint32_t(g % per_die), c.key);
      counts[g].key = kNotFull;
    }
    if (m.translation) {
      // The victim's key counts its live copies: the scan stops once they are moved, the
      // pages' homes fetched ahead of it.
      const std::vector<TranslationCopy>& copies = tcopies[g];
      uint32_t left = c.key;
      for (size_t i = 0; i < copies.size() && left != 0; ++i) {
        if (i + 2 * kFetchAhead < copies.size()) ssd::prefetch(&copies[i + 2 * kFetchAhead]);
        if (i + kFetchAhead < copies.size()) ssd::prefetch(&thome[copies[i + kFetchAhead].tvpn]);
        if (!live(g, copies[i])) continue;
        put_translation(take(die, maps[die], whole_page), copies[i].tvpn, copies[i].version);
        --left;
      }
      tcopies[g] = std::vector<TranslationCopy>();  // most blocks hold data next
      tvalid[g] = 0;
    }
    const auto note_moved = [&](uint64_t lpn) {
      if (flash_map && !flash_map->moved_by_gc(lpn))
        pending.push_back(uint32_t(flash_map->translation_page_of(lpn)));
    };
    const auto copy_moved = [&](uint32_t lpn) {
      const size_t to = take(die, gc[die], gc_unit[die]);
      mb[to].moved_in.push_back(lpn);
      ++counts[to].moved;
      put(to);
      note_moved(lpn);
    };
    choose(rng, m.sequential, c.in_place,
           [&](uint32_t off) { copy_moved(uint32_t(in_place(m.first_lpn, off))); });
    moved_valid(rng, g, moved);
    uint32_t rewritten = c.valid - c.in_place - c.moved;
    size_t next_moved = 0;
    while (next_moved < moved.size() || rewritten != 0) {
      const uint64_t left = moved.size() - next_moved;
      if (rng.below(left + rewritten) < left) {
        copy_moved(moved[next_moved++]);
      } else {
        put(take(die, gc[die], gc_unit[die]));
        if (flash_map) note_moved(rng.below(logical_units_));
        --rewritten;
      }
    }
    pad(die, gc[die], gc_unit[die]);  // the victim's last copies fill no page
    std::sort(pending.begin(), pending.end());
    pending.erase(std::unique(pending.begin(), pending.end()), pending.end());
    // Each write kills a copy anywhere on the drive: the page's home, then its old block's
    // counts are fetched a few writes ahead, the second once the first has brought in where
    // it points, so the misses overlap.
    for (size_t i = 0; i < pending.size(); ++i) {
      if (i + kFetchAhead < pending.size()) ssd::prefetch(&thome[pending[i + kFetchAhead]]);
      if (i + kFetchAhead / 2 < pending.size())
        if (const size_t old = thome[pending[i + kFetchAhead / 2]].block;
            old != TranslationHome::kNowhere)
          ssd::prefetch(&counts[old]);
      translation_for_gc(pending[i]);
    }
    pending.clear();
    const uint32_t erases = m.erases + 1;
    m = ModelBlock{};
    m.erases = erases;
    counts[g] = Counts{};
  };
  // Greedy GC on the die until it has the free blocks GC keeps (gc_target()).
  const auto collect = [&](uint32_t die) {
    while (pool[die].size() < gc_target()) {
      uint32_t key = kNotFull;
      const uint32_t victim = greedy.min(die, key);
      if (victim == GreedyIndex::kNone || key >= ppb)
        throw std::runtime_error(name() + " FTL: bulk preconditioning: die " + std::to_string(die) +
                                 " has no reclaimable block (over-provisioning too small)");
      evacuate(die, size_t(die) * per_die + victim);
      pool[die].push_back(victim);
    }
  };
  // As place_mapping_page: a dirty eviction's translation page, on the next die of the
  // mapping rotation, made room on first.
  const auto translation_for_host = [&](uint32_t t) {
    const uint32_t die = map_rotation;
    map_rotation = (map_rotation + 1) % dies_;
    if (pool[die].size() < gc_target()) collect(die);
    put_translation(take(die, maps[die], whole_page), t, ++tp_writes);
    flash_map->written(t);
  };
  // As place(): the next host page; `lpn` for the sequential pass, else a random overwrite.
  const auto host_write = [&](bool sequential, uint64_t lpn) {
    // The old copy's block, drawn below after the work that comes first (a translation page
    // write, GC), is a random touch: its first candidate, drawn now on a copy of the
    // generator, is fetched meanwhile (if GC draws first, the guess is wrong, and harmless).
    if (!sequential) {
      Rng ahead = rng;
      ssd::prefetch(&counts[ahead.below(counts.size())]);
    }
    if (flash_map) {
      const uint64_t t = flash_map->look_up(lpn);
      if (t != MappingInFlash::kNoPage) translation_for_host(uint32_t(t));
      flash_map->enter(lpn);
    }
    const uint32_t die = rotation;
    // A page at a time: where it goes (and GC on its die) is decided by its first unit.
    const bool first = host_unit[die] == 0;
    if (first) {
      host_in_slc[die] = false;
      if (slc_.blocks_in_plane != 0) {
        const Stream& c = slc[die];
        host_in_slc[die] = c.next_page != 0 || slc_pool[die].size() >= c.blocks.size() - c.lane;
      }
    }
    Stream* s = host_in_slc[die] ? &slc[die] : &host[die];
    uint32_t& unit = host_unit[die];
    if (unit + 1 == units_ && (!fill_planes_ || s->lane + 1 == s->blocks.size()))
      rotation = (rotation + 1) % dies_;
    if (first && pool[die].size() < gc_target()) collect(die);
    if (!sequential) {
      // The old copy, a uniformly random valid page: a block drawn with probability
      // proportional to its valid count (a uniform block, kept with probability valid /
      // pages per block), then one of its valid pages.
      size_t g;
      do g = rng.below(counts.size());
      while (rng.below(ppb) >= counts[g].valid);
      Counts& c = counts[g];
      const uint64_t r = rng.below(c.valid);
      if (r < c.in_place)
        --c.in_place;
      else if (r < c.in_place + c.moved)
        --c.moved;
      --c.valid;
      decrement_key(g);
    }
    const size_t g = take(die, *s, unit);
    if (sequential) {
      ModelBlock& m = mb[g];
      if (m.written == 0) m.first_lpn = lpn;
      ++m.sequential;
      ++counts[g].in_place;
    }
    put(g);
    if (flash_map) flash_map->wrote(lpn);
  };

  for (uint64_t lpn = 0; lpn < logical_units_; ++lpn) host_write(true, lpn);
  PreconditionStream addresses(logical_units_);
  for (uint64_t i = 0; i < random_writes; ++i) host_write(false, flash_map ? addresses.next() : 0);
  for (uint32_t die = 0; die < dies_; ++die)  // as a flush: pages the writes left part-filled
    pad(die, host_in_slc[die] ? slc[die] : host[die], host_unit[die]);
  for (uint32_t die = 0; die < dies_; ++die) {  // as settle(): fold the full SLC blocks
    for (uint32_t b : slc_full[die]) {
      if (pool[die].size() < gc_target()) collect(die);
      evacuate(die, size_t(die) * per_die + b);
      slc_pool[die].push_back(b);
    }
  }

  // The logical pages the sequential pass's survivors and the moved pages hold; the others
  // (rewritten) are shuffled over the remaining valid pages. Each block has its own random
  // stream, drawn from twice: here and when it is laid out.
  const auto block_rng = [](size_t g) {
    return Rng(kSeed ^ (uint64_t(g + 1) * 0xbf58476d1ce4e5b9ull));
  };
  std::vector<bool> kept(logical_units_, false);
  for (size_t g = 0; g < mb.size(); ++g) {
    const ModelBlock& m = mb[g];
    Rng r = block_rng(g);
    choose(r, m.sequential, counts[g].in_place,
           [&](uint32_t off) { kept[in_place(m.first_lpn, off)] = true; });
    moved_valid(r, g, moved);
    for (uint32_t lpn : moved) kept[lpn] = true;
  }
  std::vector<uint32_t> rewritten;
  for (uint64_t lpn = 0; lpn < logical_units_; ++lpn)
    if (!kept[lpn]) rewritten.push_back(uint32_t(lpn));
  kept = std::vector<bool>();
  for (size_t i = rewritten.size(); i > 1; --i)
    std::swap(rewritten[i - 1], rewritten[rng.below(i)]);

  size_t next_rewritten = 0;
  std::vector<Lpn> owners(ppb);
  std::vector<PageToken> tokens;
  for (uint32_t die = 0; die < dies_; ++die) {
    for (uint32_t b = 0; b < per_die; ++b) {
      const size_t g = size_t(die) * per_die + b;
      ModelBlock& m = mb[g];
      if (m.written == 0) {
        blocks_.preset_block(die, b, m.erases, nullptr, false);
        if (m.erases != 0) hal_.flash_preset(die, b, m.erases, {});
        continue;
      }
      std::fill(owners.begin(), owners.end(), BlockManager::kNoLpn);
      const Counts& c = counts[g];
      Rng r = block_rng(g);
      choose(r, m.sequential, c.in_place,
             [&](uint32_t off) { owners[off] = in_place(m.first_lpn, off); });
      moved_valid(r, g, moved);
      size_t next_moved = 0;
      const uint32_t others = c.valid - c.in_place;
      uint64_t rewritten_left = others - moved.size();
      choose(r, m.written - m.sequential, others, [&](uint32_t i) {
        const uint64_t moved_left = moved.size() - next_moved;
        owners[m.sequential + i] = r.below(moved_left + rewritten_left) < moved_left
                                       ? Lpn(moved[next_moved++])
                                       : (--rewritten_left, Lpn(rewritten.at(next_rewritten++)));
      });
      tokens.assign(m.written, PageToken{});
      const std::vector<TranslationCopy>* tps = flash_map ? &tcopies[g] : nullptr;
      if (tps)  // a translation block: its pages in write order, the live ones
        for (uint32_t p = 0; p < tps->size(); ++p)
          if (live(g, (*tps)[p])) owners[p] = flash_map->translation_lpn((*tps)[p].tvpn);
      for (uint32_t p = 0; p < m.written; ++p) {
        // The mapping table's entries are scattered (the rewritten pages are shuffled):
        // fetched a few pages ahead, their cache misses overlap.
        if (p + kPrefetchAhead < m.written && owners[p + kPrefetchAhead] < logical_units_)
          prefetch(owners[p + kPrefetchAhead]);
        if (owners[p] == BlockManager::kNoLpn) continue;
        if (owners[p] >= logical_units_) {
          tokens[p] = PageToken{owners[p], (*tps)[p].version};
          flash_map->place((*tps)[p].tvpn, to_ppn(Ppa{die, b, p}), (*tps)[p].version);
          continue;
        }
        tokens[p] = PageToken{owners[p], 0};
        map(owners[p], to_ppn(Ppa{die, b, p}));
      }
      blocks_.preset_block(die, b, m.erases, &owners, m.written == ppb);
      hal_.flash_preset(die, b, m.erases, tokens);
      m.moved_in = std::vector<uint32_t>();
    }
    blocks_.preset_pool(die, std::move(pool[die]));
  }
  if (next_rewritten != rewritten.size())
    throw std::logic_error("bulk preconditioning: the valid pages do not match the logical pages");
  host_streams_ = std::move(host);
  gc_streams_ = std::move(gc);
  slc_streams_ = std::move(slc);
  slc_free_ = std::move(slc_pool);
  next_die_ = rotation;
  map_streams_ = std::move(maps);
  map_die_ = map_rotation;
  return true;
}

}  // namespace ssd::fw
