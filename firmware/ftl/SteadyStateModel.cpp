#include "firmware/ftl/SteadyStateModel.h"

#include <malloc.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <stdexcept>

#include "firmware/PreconditionStream.h"
#include "firmware/ftl/TranslationPagesModel.h"

namespace ssd::fw {
namespace {

constexpr uint64_t kSeed = 0x9e3779b97f4a7c15ull;  // fixed: the same inputs, the same state
constexpr uint32_t kPrefetchAhead = 16;  // pages: enough misses in flight to hide the latency

}  // namespace

bool PageLevelFtl::fill_steady_state(uint64_t written, uint64_t random_writes, L2pTable& l2p,
                                     MappingInFlash* flash_map) {
  if (!bulk_model_holds_ || slc_.fold_on_full ||
      logical_units_ >= std::numeric_limits<uint32_t>::max())
    return false;
  // Not modelled: DFTL with an SLC cache, with units smaller than the page (the model's
  // translation pages take one slot each; the FTL's take a page's units_ slots, and caches a
  // page's entries before placing it), or with one-shot programming (the translation pages'
  // word lines).
  if (flash_map && (slc_.on || units_ != 1 || geometry_.word_line_pages() > 1)) return false;
  SteadyStateModel model(*this, std::min(written, logical_units_));
  std::optional<TranslationPagesModel> translation;  // DFTL's
  if (flash_map) model.attach(&translation.emplace(model, *flash_map, map_streams_, map_die_));
  model.sequential_pass();
  model.random_overwrites(random_writes);
  model.flush();
  model.fold_slc();
  model.seal_gc();
  model.choose_owners();
  model.lay_out(l2p);
  if (translation) translation->lay_out_streams(map_streams_, map_die_);
  tag_open_blocks();
  return true;
}

SteadyStateModel::SteadyStateModel(PageLevelFtl& ftl, uint64_t written)
    : ftl_(ftl),
      dies_(ftl.dies_),
      per_die_(ftl.blocks_.blocks_per_die()),
      ppb_(ftl.slots_per_block_),
      units_(ftl.units_),
      written_(written),
      lanes_(uint32_t(ftl.host_streams_.front().blocks.size())),
      word_line_pages_(ftl.geometry_.word_line_pages()),
      stride_(uint64_t(lanes_) * ftl.dies_),
      mb_(size_t(dies_) * per_die_),
      counts_(mb_.size()),
      greedy_(dies_, per_die_, ppb_),
      pool_(dies_),
      host_(ftl.host_streams_),
      gc_(ftl.gc_streams_),
      slc_(ftl.slc_.streams),
      slc_pool_(ftl.slc_.pool),
      slc_full_(dies_),
      dynamic_(ftl.slc_.dynamic),
      rotation_(ftl.next_die_),
      rng_(kSeed),
      host_unit_(dies_, 0),
      gc_unit_(dies_, 0),
      host_in_slc_(dies_, false) {
  for (uint32_t d = 0; d < dies_; ++d)
    for (uint32_t b = 0; b < per_die_; ++b)
      if (!ftl.blocks_.reserved(b)) pool_[d].push_back(b);
}

void SteadyStateModel::sequential_pass() {
  for (uint64_t lpn = 0; lpn < written_; ++lpn) host_write(true, lpn);
}

void SteadyStateModel::random_overwrites(uint64_t writes) {
  // The counts need no address; the translation pages (the cache) take the simulated path's
  // (firmware/PreconditionStream.h).
  PreconditionStream addresses(written_);
  for (uint64_t i = 0; i < writes; ++i) host_write(false, translation_ ? addresses.next() : 0);
}

void SteadyStateModel::flush() {
  // As the write buffer's flush: the last page's units, then (one-shot programming) the host
  // word lines padded. The rotation moves on as PageLevelFtl's: when the set of the page being
  // filled ends (the firmware placed that page whole), or when its pads end one.
  for (uint32_t die = 0; die < dies_; ++die) {
    Stream& s = host_in_slc_[die] ? slc_[die] : host_[die];
    if (host_unit_[die] != 0 && die == rotation_ && ftl_.geometry_.ends_set(s))
      rotation_ = (rotation_ + 1) % dies_;
    pad(die, s, host_unit_[die]);
    const bool open = ftl_.geometry_.word_line_open(host_[die]);
    seal(die, host_[die], host_unit_[die]);
    if (open && die == rotation_) rotation_ = (rotation_ + 1) % dies_;
  }
}

void SteadyStateModel::seal_gc() {
  // As Firmware::settle after the folds: the GC streams' word lines padded.
  for (uint32_t die = 0; die < dies_; ++die) seal(die, gc_[die], gc_unit_[die]);
}

void SteadyStateModel::fold_slc() {
  // As PageLevelFtl::settle: each fold makes room first, which may fold dynamic blocks. As
  // PageLevelFtl::fold, only below the hard watermark and back to it, in either GC mode: with
  // a large cache the dies end near it (incremental GC's writes had kept the soft one).
  for (uint32_t die = 0; die < dies_; ++die) {
    while (!slc_full_[die].empty()) {
      if (pool_[die].size() < ftl_.gc_threshold_) collect_to(die, ftl_.gc_threshold_);
      if (slc_full_[die].empty()) break;
      const uint32_t b = slc_full_[die].front();
      slc_full_[die].pop_front();
      fold(die, b);
      seal(die, gc_[die], gc_unit_[die]);  // as PageLevelFtl::fold, after each step
    }
  }
}

void SteadyStateModel::fold(uint32_t die, uint32_t b) {
  const size_t g = size_t(die) * per_die_ + b;
  const bool dynamic = mb_[g].slc;
  evacuate(die, g);
  if (!dynamic) {
    slc_pool_[die].push_back(b);
    return;
  }
  pool_[die].push_back(b);
  dynamic_.gave_back(die);
}

bool SteadyStateModel::evict_dynamic(uint32_t die) {
  auto& full = slc_full_[die];
  const auto oldest = std::find_if(full.begin(), full.end(),
                                   [&](uint32_t b) { return mb_[size_t(die) * per_die_ + b].slc; });
  if (oldest == full.end()) return false;
  const uint32_t b = *oldest;
  full.erase(oldest);
  fold(die, b);
  return true;
}

void SteadyStateModel::fail(const std::string& why) const {
  throw std::runtime_error(ftl_.name() + " FTL: bulk preconditioning: " + why);
}

template <class F>
void SteadyStateModel::choose(Rng& rng, uint32_t n, uint32_t k, F take) {
  for (uint32_t i = 0; i < n && k != 0; ++i) {
    if (rng.below(n - i) < k) {
      take(i);
      --k;
    }
  }
}

SteadyStateModel::Rng SteadyStateModel::block_rng(size_t g) {
  return Rng(kSeed ^ (uint64_t(g + 1) * 0xbf58476d1ce4e5b9ull));
}

size_t SteadyStateModel::take(uint32_t die, Stream& s, uint32_t& unit) {
  uint32_t& block = s.blocks[s.lane];
  const uint32_t pages = ftl_.geometry_.pages(s);
  if (unit != 0) {  // the page being filled
    const size_t g = size_t(die) * per_die_ + block;
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
    const uint32_t plane = s.blocks.size() == 1 ? BlockManager::kAnyPlane : s.lane;
    block = s.slc ? take_slc(die, plane) : take_free(pool_[die], die, plane);
  }
  const size_t g = size_t(die) * per_die_ + block;
  if (s.slc && s.next_page + 1 == pages) slc_full_[die].push_back(block);
  if (units_ != 1) {
    unit = 1;
    return g;
  }
  if (++s.lane == s.blocks.size()) {
    s.lane = 0;
    s.next_page = (s.next_page + 1) % pages;
  }
  return g;
}

uint32_t SteadyStateModel::take_free(std::deque<uint32_t>& free, uint32_t die, uint32_t plane) {
  if (free.empty()) fail("die " + std::to_string(die) + " has no free block left");
  auto it = free.begin();
  if (plane != BlockManager::kAnyPlane) {
    auto on_plane = std::find_if(free.begin(), free.end(),
                                 [&](uint32_t b) { return ftl_.blocks_.plane_of(b) == plane; });
    if (on_plane != free.end()) it = on_plane;
  }
  const uint32_t block = *it;
  free.erase(it);
  return block;
}

uint32_t SteadyStateModel::take_slc(uint32_t die, uint32_t plane) {
  auto& pool = slc_pool_[die];
  const bool on_plane = plane == BlockManager::kAnyPlane
                            ? !pool.empty()
                            : std::any_of(pool.begin(), pool.end(), [&](uint32_t b) {
                                return ftl_.blocks_.plane_of(b) == plane;
                              });
  if (!on_plane &&
      (pool.empty() || dynamic_.room(die, uint32_t(pool_[die].size()), ftl_.gc_target()) != 0)) {
    const uint32_t block = take_free(pool_[die], die, plane);
    mb_[size_t(die) * per_die_ + block].slc = true;
    dynamic_.took(die);
    return block;
  }
  return take_free(pool, die, plane);
}

void SteadyStateModel::put(size_t g, bool valid) {
  Counts& c = counts_[g];
  if (valid) ++c.valid;
  if (++mb_[g].written == ppb_ && !ftl_.blocks_.reserved(uint32_t(g % per_die_)))
    set_key(g, c.valid);
}

void SteadyStateModel::pad(uint32_t die, Stream& s, uint32_t& unit) {
  while (unit != 0) put(take(die, s, unit), false);
}

void SteadyStateModel::seal(uint32_t die, Stream& s, uint32_t& unit) {
  // As PageLevelFtl::seal: pages of no data, a lane's next block made room for first.
  while (ftl_.geometry_.word_line_open(s)) {
    if (s.next_page == 0 && pool_[die].size() < ftl_.gc_threshold_)
      collect_to(die, ftl_.gc_threshold_);
    do put(take(die, s, unit), false);
    while (unit != 0);
  }
}

void SteadyStateModel::moved_valid(Rng& r, size_t g, std::vector<uint32_t>& out) {
  const auto& in = mb_[g].moved_in;
  out.clear();
  choose(r, uint32_t(in.size()), counts_[g].moved, [&](uint32_t i) { out.push_back(in[i]); });
}

void SteadyStateModel::collect(uint32_t die) { collect_to(die, ftl_.gc_target()); }

void SteadyStateModel::collect_to(uint32_t die, uint32_t target) {
  // As PageLevelFtl::collect_garbage: full dynamic SLC blocks first, then greedy victims. More
  // victims than the die has blocks only move data around (each copies as much as it frees).
  uint32_t victims = 0;
  while (pool_[die].size() < target) {
    if (evict_dynamic(die)) continue;
    uint32_t key = kNotFull;
    const uint32_t victim = greedy_.min(die, key);
    if (victim == GreedyIndex::kNone || key >= ppb_)
      fail("die " + std::to_string(die) +
           " has no reclaimable block (over-provisioning too small)");
    if (++victims > per_die_)
      fail("die " + std::to_string(die) + ": garbage collection frees no block after " +
           std::to_string(per_die_) + " victims (over-provisioning too small)");
    evacuate(die, size_t(die) * per_die_ + victim);
    pool_[die].push_back(victim);
  }
}

void SteadyStateModel::host_write(bool sequential, uint64_t lpn) {
  // The old copy's block, drawn below after the work that comes first (a translation page
  // write, GC), is a random touch: its first candidate, drawn now on a copy of the
  // generator, is fetched meanwhile (if GC draws first, the guess is wrong, and harmless).
  if (!sequential) {
    Rng ahead = rng_;
    ssd::prefetch(&counts_[ahead.below(counts_.size())]);
  }
  if (translation_) translation_->host_write(lpn);
  const uint32_t die = rotation_;
  // A page at a time: where it goes (and GC on its die) is decided by its first unit.
  const bool first = host_unit_[die] == 0;
  if (first) {
    host_in_slc_[die] = false;
    if (ftl_.slc_.on &&
        !ftl_.geometry_.word_line_open(host_[die])) {  // as PageLevelFtl::host_in_slc
      const Stream& c = slc_[die];
      const uint32_t room = dynamic_.room(die, uint32_t(pool_[die].size()), ftl_.gc_target());
      host_in_slc_[die] =
          c.next_page != 0 || slc_pool_[die].size() + room >= c.blocks.size() - c.lane;
    }
  }
  Stream* s = host_in_slc_[die] ? &slc_[die] : &host_[die];
  uint32_t& unit = host_unit_[die];
  if (unit + 1 == units_ && ftl_.geometry_.ends_set(*s)) rotation_ = (rotation_ + 1) % dies_;
  if (first) collect(die);
  if (!sequential) {
    // The old copy, a uniformly random valid page: a block drawn with probability
    // proportional to its valid count (a uniform block, kept with probability valid /
    // pages per block), then one of its valid pages.
    size_t g;
    do g = rng_.below(counts_.size());
    while (rng_.below(ppb_) >= counts_[g].valid);
    Counts& c = counts_[g];
    const uint64_t r = rng_.below(c.valid);
    if (r < c.in_place)
      --c.in_place;
    else if (r < c.in_place + c.moved)
      --c.moved;
    --c.valid;
    decrement_key(g);
  }
  const size_t g = take(die, *s, unit);
  if (sequential) {
    ModelBlock& m = mb_[g];
    if (m.written == 0) {
      m.first_lpn = lpn;
      m.word_lines = word_line_pages_ > 1;  // SLC blocks too: their sets are as long
    }
    // An SLC block's last set, cut short at its end, shortens every die's set of that turn: its
    // pages follow their own first.
    const uint32_t page = m.written / units_;
    if (s->slc && m.word_lines && m.written % units_ == 0 && page % word_line_pages_ == 0 &&
        page + word_line_pages_ > ftl_.slc_.region.pages_per_block) {
      m.short_from = page;
      m.short_lpn = lpn;
    }
    ++m.sequential;
    ++counts_[g].in_place;
  }
  put(g);
  if (translation_) translation_->host_written(lpn);
}

void SteadyStateModel::evacuate(uint32_t die, size_t g) {
  ModelBlock& m = mb_[g];
  const Counts c = counts_[g];
  // Out of the greedy index first: a translation victim's copies, moving out, then leave
  // its key alone (not an index update each, for a block about to be erased).
  if (c.key != kNotFull) {
    greedy_.erase(die, uint32_t(g % per_die_), c.key);
    counts_[g].key = kNotFull;
  }
  if (translation_ && translation_->holds(g))
    translation_->evacuate(die, g, c.key);
  else
    copy_valid(die, g, c);
  const uint32_t erases = m.erases + 1;
  m = ModelBlock{};
  m.erases = erases;
  counts_[g] = Counts{};
}

// Copies data block g's valid pages to the die's GC stream, in page order (the sequential
// pass's survivors, then the others in random order).
void SteadyStateModel::copy_valid(uint32_t die, size_t g, const Counts& c) {
  const ModelBlock& m = mb_[g];
  const auto copy_moved = [&](uint32_t lpn) {
    const size_t to = take(die, gc_[die], gc_unit_[die]);
    mb_[to].moved_in.push_back(lpn);
    ++counts_[to].moved;
    put(to);
    if (translation_) translation_->data_moved(lpn);
  };
  choose(rng_, m.sequential, c.in_place,
         [&](uint32_t off) { copy_moved(uint32_t(in_place(m, off))); });
  moved_valid(rng_, g, moved_);
  uint32_t rewritten = c.valid - c.in_place - c.moved;
  size_t next_moved = 0;
  while (next_moved < moved_.size() || rewritten != 0) {
    const uint64_t left = moved_.size() - next_moved;
    if (rng_.below(left + rewritten) < left) {
      copy_moved(moved_[next_moved++]);
    } else {
      put(take(die, gc_[die], gc_unit_[die]));
      // Which page it is matters only to the translation pages: a uniformly drawn logical
      // page (its translation page, and whether its entry is cached, are what matter).
      if (translation_) translation_->data_moved(rng_.below(written_));
      --rewritten;
    }
  }
  pad(die, gc_[die], gc_unit_[die]);  // the victim's last copies fill no page
  if (translation_) translation_->data_copied();
}

void SteadyStateModel::choose_owners() {
  // The logical pages the sequential pass's survivors and the moved pages hold; the others
  // (rewritten) are shuffled over the remaining valid pages. Each block has its own random
  // stream, drawn from twice: here and when it is laid out.
  {
    std::vector<bool> kept(written_, false);
    for (size_t g = 0; g < mb_.size(); ++g) {
      const ModelBlock& m = mb_[g];
      Rng r = block_rng(g);
      choose(r, m.sequential, counts_[g].in_place,
             [&](uint32_t off) { kept[in_place(m, off)] = true; });
      moved_valid(r, g, moved_);
      for (uint32_t lpn : moved_) kept[lpn] = true;
    }
    for (uint64_t lpn = 0; lpn < written_; ++lpn)
      if (!kept[lpn]) rewritten_.push_back(uint32_t(lpn));
  }
  for (size_t i = rewritten_.size(); i > 1; --i)
    std::swap(rewritten_[i - 1], rewritten_[rng_.below(i)]);
}

void SteadyStateModel::lay_out(L2pTable& l2p) {
  std::vector<Lpn> owners(ppb_);
  std::vector<PageToken> tokens;
  for (uint32_t die = 0; die < dies_; ++die) {
    for (uint32_t b = 0; b < per_die_; ++b) {
      const size_t g = size_t(die) * per_die_ + b;
      ModelBlock& m = mb_[g];
      const BlockMode mode = ftl_.blocks_.reserved(b) || m.slc ? BlockMode::Slc : BlockMode::Native;
      if (m.written == 0) {
        ftl_.blocks_.preset_block(die, b, m.erases, nullptr, false, mode);
        if (m.erases != 0) ftl_.hal_.flash_preset(die, b, m.erases, {});
        continue;
      }
      std::fill(owners.begin(), owners.end(), BlockManager::kNoLpn);
      tokens.assign(m.written, PageToken{});
      const uint64_t first_ppn = ftl_.to_ppn(Ppa{die, b, 0});  // the block's pages follow it
      if (translation_ && translation_->holds(g))
        translation_->lay_out(g, first_ppn, owners, tokens);
      else
        lay_out_data(g, first_ppn, owners, tokens, l2p);
      ftl_.blocks_.preset_block(die, b, m.erases, &owners, m.written == ppb_, mode);
      ftl_.hal_.flash_preset(die, b, m.erases, tokens);
      m.moved_in = std::vector<uint32_t>();
    }
    ftl_.blocks_.preset_pool(die, std::move(pool_[die]));
    // The die's moved_in lists are freed, amid the heap: give their pages back, as the tables
    // filled here (their own mappings) cannot reuse them.
    malloc_trim(0);
  }
  if (next_rewritten_ != rewritten_.size())
    throw std::logic_error("bulk preconditioning: the valid pages do not match the logical pages");
  ftl_.host_streams_ = std::move(host_);
  ftl_.gc_streams_ = std::move(gc_);
  ftl_.slc_.streams = std::move(slc_);
  ftl_.slc_.pool = std::move(slc_pool_);
  ftl_.slc_.dynamic = dynamic_;
  ftl_.slc_.dynamic.reset_range();  // the measured run's range starts here, as after settle()
  ftl_.next_die_ = rotation_;
}

void SteadyStateModel::lay_out_data(size_t g, uint64_t first_ppn, std::vector<Lpn>& owners,
                                    std::vector<PageToken>& tokens, L2pTable& l2p) {
  const ModelBlock& m = mb_[g];
  const Counts& c = counts_[g];
  Rng r = block_rng(g);
  choose(r, m.sequential, c.in_place, [&](uint32_t off) { owners[off] = in_place(m, off); });
  moved_valid(r, g, moved_);
  size_t next_moved = 0;
  const uint32_t others = c.valid - c.in_place;
  uint64_t rewritten_left = others - moved_.size();
  choose(r, m.written - m.sequential, others, [&](uint32_t i) {
    const uint64_t moved_left = moved_.size() - next_moved;
    owners[m.sequential + i] = r.below(moved_left + rewritten_left) < moved_left
                                   ? Lpn(moved_[next_moved++])
                                   : (--rewritten_left, Lpn(rewritten_.at(next_rewritten_++)));
  });
  for (uint32_t p = 0; p < m.written; ++p) {
    // The mapping table's entries are scattered (the rewritten pages are shuffled):
    // fetched a few pages ahead, their cache misses overlap.
    if (p + kPrefetchAhead < m.written && owners[p + kPrefetchAhead] != BlockManager::kNoLpn)
      l2p.prefetch(owners[p + kPrefetchAhead]);
    if (owners[p] == BlockManager::kNoLpn) continue;
    tokens[p] = PageToken{owners[p], 0};
    l2p.set(owners[p], first_ppn + p);
  }
}

}  // namespace ssd::fw
