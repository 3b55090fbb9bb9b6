// PageLevelFtl's SLC cache (docs/ftl.md#slc-cache): where host pages go while it has room, the
// blocks it opens, folding them into the main region, and how fast the host wrote into it and
// after it was full.
#include <algorithm>
#include <optional>

#include "firmware/ftl/PageLevelFtl.h"

namespace ssd::fw {

bool PageLevelFtl::slc_room(uint32_t die) const {
  const Stream& s = slc_streams_[die];
  if (s.next_page != 0) return true;
  // At page offset 0 each lane still to come opens a block, static or dynamic.
  return slc_free_[die].size() + dynamic_slc_.room(die, blocks_.free_blocks(die), gc_target()) >=
         s.blocks.size() - s.lane;
}

uint32_t PageLevelFtl::pages_on_die() const {
  const bool fill_planes = geometry_.fill_planes();
  const uint32_t word_line_pages = geometry_.word_line_pages();
  if (!fill_planes && word_line_pages == 1) return 1;
  // The stream place() takes for the next host page (before any fold it may run first).
  const Stream& s = host_in_slc(next_die_) ? slc_streams_[next_die_] : host_streams_[next_die_];
  const uint32_t lanes = uint32_t(s.blocks.size());
  if (word_line_pages == 1) return fill_planes ? lanes - s.lane : 1;
  // The rest of the word line (in SLC mode, of as many pages) on every lane (ends_set).
  return (geometry_.set_end(s) - 1 - s.next_page) * lanes + lanes - s.lane;
}

uint32_t PageLevelFtl::open_slc(uint32_t die, uint32_t plane) {
  auto& pool = slc_free_[die];
  auto it = std::find_if(pool.begin(), pool.end(), [&](uint32_t b) {
    return plane == BlockManager::kAnyPlane || blocks_.plane_of(b) == plane;
  });
  // slc_room() counted the dynamic room before GC ran for this page: an empty static pool
  // takes a free block even if that GC's copies used the room up.
  if (it == pool.end() &&
      (pool.empty() || dynamic_slc_.room(die, blocks_.free_blocks(die), gc_target()) != 0)) {
    const uint32_t block = blocks_.open_block(die, false, plane, BlockMode::Slc);
    dynamic_slc_.took(die);
    return block;
  }
  if (it == pool.end()) it = pool.begin();
  const uint32_t block = *it;
  pool.erase(it);
  blocks_.open_reserved(die, block);
  return block;
}

OpId PageLevelFtl::fold(uint32_t die, uint32_t pages) {
  Hal::Scope scope(hal_, Work::SlcFold);
  // The copies need room in the main region. GC there folds dynamic blocks first, perhaps
  // every block left to fold.
  OpId last = kNoOp;
  if (blocks_.free_blocks(die) < gc_threshold_) last = collect_garbage(die);
  if (!fold_pending(die)) return last;
  Folding& f = folding_[die];
  if (!f.active) {
    f = Folding{true, slc_full_[die].front(), 0};
    slc_full_[die].pop_front();
  }
  last = move_valid(die, f.block, slc_slots(), f.next_page, pages, stats_.slc_pages_folded);
  // Background folding paces itself by the step's last program: its word line must end.
  seal(die, gc_streams_[die]);
  if (f.next_page < slc_slots()) return last;
  f.active = false;
  return folded(die, f.block);
}

std::deque<uint32_t>::iterator PageLevelFtl::oldest_dynamic_slc(uint32_t die) {
  auto& full = slc_full_[die];
  return std::find_if(full.begin(), full.end(), [&](uint32_t b) { return !blocks_.reserved(b); });
}

bool PageLevelFtl::evict_dynamic_slc(uint32_t die, OpId* erase) {
  // Every GC victim asks: a die holding no dynamic block (any drive without the curve) answers
  // at once, without a look at its full SLC blocks.
  if (dynamic_slc_.held(die) == 0) return false;
  // The one incremental GC started first: its cursor carries on.
  Collecting& c = collecting_[die];
  if (c.active && dynamic_slc_block(die, c.block)) {
    if (fits(die, c.block)) {
      *erase = finish_collecting(die);
      return true;
    }
    drop_collecting(die);  // the oldest full block again, below
  }
  Folding& f = folding_[die];
  auto& full = slc_full_[die];
  const bool finishing = f.active && !blocks_.reserved(f.block);
  const auto oldest = oldest_dynamic_slc(die);
  if (!finishing && oldest == full.end()) return false;
  const uint32_t block = finishing ? f.block : *oldest;
  if (!fits(die, block)) return false;
  uint32_t next = 0;
  if (finishing) {
    next = f.next_page;
    f.active = false;
  } else {
    full.erase(oldest);
  }
  Hal::Scope scope(hal_, Work::SlcFold);
  move_valid(die, block, slc_slots(), next, ~0u, stats_.slc_pages_folded);
  *erase = folded(die, block);
  return true;
}

bool PageLevelFtl::collect_dynamic_slc(uint32_t die) {
  if (dynamic_slc_.held(die) == 0) return false;
  auto& full = slc_full_[die];
  const auto oldest = oldest_dynamic_slc(die);
  if (oldest == full.end()) return false;
  collecting_[die] = Collecting{true, *oldest, 0, copy_rate(blocks_.valid_pages(die, *oldest))};
  full.erase(oldest);
  return true;
}

OpId PageLevelFtl::folded(uint32_t die, uint32_t block) {
  const OpId erase = erase_moved(die, block);
  if (blocks_.reserved(block)) {
    if (!blocks_.retired(die, block)) slc_free_[die].push_back(block);  // else the cache shrinks
  } else {
    dynamic_slc_.gave_back(die);  // erase_moved put it back in the free pool (or retired it)
  }
  ++stats_.slc_blocks_folded;
  return erase;
}

bool PageLevelFtl::fold_in_background() {
  // The next step waits for the step issued first of those still running, which ends about
  // first: each die starts its next step when its own ends. (Paced by one die's step, a die
  // whose step ended just after it idled a whole step.)
  OpId pace = kNoOp;
  uint64_t oldest = ~uint64_t{0};
  bool left = false;
  for (uint32_t die = 0; die < dies_; ++die) {
    if (!fold_pending(die)) continue;
    left = true;
    if (hal_.ended_by_now(fold_end_[die])) {
      fold_end_[die] = fold(die, fold_step_pages_);
      fold_issued_[die] = ++fold_steps_;
    }
    if (fold_end_[die] != kNoOp && fold_issued_[die] < oldest) {
      oldest = fold_issued_[die];
      pace = fold_end_[die];
    }
  }
  if (pace != kNoOp) hal_.pace_background(pace);
  return left;
}

void PageLevelFtl::settle() {
  for (uint32_t die = 0; die < dies_; ++die)
    while (fold_pending(die)) fold(die);
  dynamic_slc_.reset_range();  // the measured run's range starts here
}

void PageLevelFtl::placed_host_page(bool in_slc) {
  const double now_s = hal_.now().to_seconds();
  FtlStats& s = stats_;
  if (s.host_first_placed_s < 0) s.host_first_placed_s = now_s;
  s.host_last_placed_s = now_s;
  if (!in_slc && s.slc_full_at_s < 0) {
    s.slc_full_at_s = now_s;
    s.slc_units_before_full = s.host_pages_written;  // this page's units are counted after
  }
}

void PageLevelFtl::register_slc_speed(uint64_t unit_bytes) {
  const FtlStats& s = stats_;
  const auto full = [&s] { return s.slc_full_at_s >= 0; };
  // MB/s of `units` of host data from `from_s` to `to_s` (null when no time passed).
  const auto mbps = [unit_bytes](uint64_t units, double from_s,
                                 double to_s) -> std::optional<double> {
    if (!(to_s > from_s)) return std::nullopt;
    return double(units) * double(unit_bytes) / 1e6 / (to_s - from_s);
  };
  statistics_.group("slc_cache")
      .derived("full_at_s", StatUnit::Seconds,
               "When the first host page found the cache with no room (null: never).",
               [&s, full]() -> std::optional<double> {
                 if (!full()) return std::nullopt;
                 return s.slc_full_at_s;
               })
      .derived("bytes_before_full", StatUnit::Bytes,
               "Host data placed before then, in the cache: written at its speed (null: never "
               "full).",
               [&s, full, unit_bytes]() -> std::optional<double> {
                 if (!full()) return std::nullopt;
                 return double(s.slc_units_before_full) * double(unit_bytes);
               })
      .derived("write_mbps_before_full", StatUnit::MegabytesPerSecond,
               "That data per second from the first host page to then (when never full: all "
               "host data, to the last host page).",
               [&s, full, mbps]() -> std::optional<double> {
                 if (!full())
                   return mbps(s.host_pages_written, s.host_first_placed_s, s.host_last_placed_s);
                 return mbps(s.slc_units_before_full, s.host_first_placed_s, s.slc_full_at_s);
               })
      .derived("write_mbps_after_full", StatUnit::MegabytesPerSecond,
               "Host data placed from then on, per second from then to the last host page "
               "(null: never full).",
               [&s, full, mbps]() -> std::optional<double> {
                 if (!full()) return std::nullopt;
                 return mbps(s.host_pages_written - s.slc_units_before_full, s.slc_full_at_s,
                             s.host_last_placed_s);
               });
}

}  // namespace ssd::fw
