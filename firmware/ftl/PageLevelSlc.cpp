// PageLevelFtl's SLC cache (docs/ftl.md#slc-cache; its state, firmware/ftl/SlcCache.h): where
// host pages go while it has room, folding its blocks into the main region, and how fast the
// host wrote into it and after it was full.
#include <optional>

#include "firmware/ftl/PageLevelFtl.h"

namespace ssd::fw {

uint32_t PageLevelFtl::pages_on_die() const {
  const bool fill_planes = geometry_.fill_planes();
  const uint32_t word_line_pages = geometry_.word_line_pages();
  if (!fill_planes && word_line_pages == 1) return 1;
  // The stream place() takes for the next host page (before any fold it may run first).
  const Stream& s = host_in_slc(next_die_) ? slc_.streams[next_die_] : host_streams_[next_die_];
  const uint32_t lanes = uint32_t(s.blocks.size());
  if (word_line_pages == 1) return fill_planes ? lanes - s.lane : 1;
  // The rest of the word line (in SLC mode, of as many pages) on every lane (ends_set).
  return (geometry_.set_end(s) - 1 - s.next_page) * lanes + lanes - s.lane;
}

OpId PageLevelFtl::fold(uint32_t die, uint32_t pages) {
  Hal::Scope scope(hal_, Work::SlcFold);
  // The copies need room in the main region. GC there folds dynamic blocks first, perhaps
  // every block left to fold.
  OpId last = kNoOp;
  if (blocks_.free_blocks(die) < gc_threshold_) last = collect_garbage(die);
  if (!slc_.fold_pending(die)) return last;
  SlcCache::Folding& f = slc_.folding[die];
  if (!f.active) {
    f = SlcCache::Folding{true, slc_.full[die].front(), 0};
    slc_.full[die].pop_front();
  }
  last = move_valid(die, f.block, slc_slots(), f.next_page, pages, stats_.slc_pages_folded);
  // Background folding paces itself by the step's last program: its word line must end.
  seal(die, gc_streams_[die]);
  if (f.next_page < slc_slots()) return last;
  f.active = false;
  return folded(die, f.block);
}

bool PageLevelFtl::evict_dynamic_slc(uint32_t die, OpId* erase) {
  // Every GC victim asks: a die holding no dynamic block (any drive without the curve) answers
  // at once, without a look at its full SLC blocks.
  if (slc_.dynamic.held(die) == 0) return false;
  // The one incremental GC started first: its cursor carries on.
  GcProgress::Collecting& c = gc_.collecting[die];
  if (c.active && SlcCache::dynamic_block(blocks_, die, c.block)) {
    if (fits(die, c.block)) {
      *erase = finish_collecting(die);
      return true;
    }
    drop_collecting(die);  // the oldest full block again, below
  }
  SlcCache::Folding& f = slc_.folding[die];
  auto& full = slc_.full[die];
  const bool finishing = f.active && !blocks_.reserved(f.block);
  const auto oldest = slc_.oldest_dynamic(die, blocks_);
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
  if (slc_.dynamic.held(die) == 0) return false;
  auto& full = slc_.full[die];
  const auto oldest = slc_.oldest_dynamic(die, blocks_);
  if (oldest == full.end()) return false;
  gc_.collecting[die] =
      GcProgress::Collecting{true, *oldest, 0, gc_.copy_rate(blocks_.valid_pages(die, *oldest))};
  full.erase(oldest);
  return true;
}

OpId PageLevelFtl::folded(uint32_t die, uint32_t block) {
  const OpId erase = erase_moved(die, block);
  slc_.folded(die, block, blocks_);
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
    if (!slc_.fold_pending(die)) continue;
    left = true;
    if (hal_.ended_by_now(slc_.fold_end[die])) {
      slc_.fold_end[die] = fold(die, slc_.fold_step_pages);
      slc_.fold_issued[die] = ++slc_.fold_steps;
    }
    if (slc_.fold_end[die] != kNoOp && slc_.fold_issued[die] < oldest) {
      oldest = slc_.fold_issued[die];
      pace = slc_.fold_end[die];
    }
  }
  if (pace != kNoOp) hal_.pace_background(pace);
  return left;
}

void PageLevelFtl::settle() {
  for (uint32_t die = 0; die < dies_; ++die)
    while (slc_.fold_pending(die)) fold(die);
  slc_.dynamic.reset_range();  // the measured run's range starts here
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
