// LogBlockFtl's merges (firmware/ftl/LogBlockFtl.h): switch, partial and full, the cleaning
// of a log block by the cheapest its contents allow, and the page-by-page fill they share
// (and its replay form, which changes only the tables).
#include <algorithm>
#include <vector>

#include "common/Prefetch.h"
#include "firmware/ftl/LogBlockFtl.h"

namespace ssd::fw {

uint32_t LogBlockFtl::top_offset(Lbn lbn, uint32_t from) {
  if (from >= ppb_) return kNone;
  hal_->dram_access(ppb_ - from, false);
  for (uint32_t off = ppb_; off-- > from;)
    if (has_data(lbn * ppb_ + off)) return off;
  return kNone;
}

OpId LogBlockFtl::fill(uint32_t die, uint32_t& block, Lbn lbn, uint32_t from, uint32_t to,
                       const HostPage* host, bool data_only, uint64_t& copied) {
  if (replaying_) {
    fill_tables(die, lbn, from, to, host, data_only);
    return kNoOp;
  }
  OpId host_done = kNoOp;
  for (uint32_t off = from; off <= to; ++off) {
    const Lpn lpn = lbn * ppb_ + off;
    Ppa ppa{die, block, off};
    if (host && host->lpn == lpn) {
      supersede(lpn);
      host_done = program_host(ppa, *host->data, host->ready);
      block = ppa.block;
      pages_.set_valid(lpn, true);
      continue;
    }
    const uint32_t log = log_find(lpn);
    const bool has_copy = pages_.valid(lpn) || (!data_only && log != LogIndex::kNil);
    if (!has_copy && !pad_) continue;  // a never-written offset stays erased
    hal_->compute(t_step_);
    ++stats_.pages_programmed;
    if (has_copy) {
      PageToken token;
      const OpId ready = hal_->flash_read(current(lpn).ppa, token);
      program(ppa, token, ready);
      if (log != LogIndex::kNil) {
        drop_log_copy(die, log, lpn);
        hal_->dram_access(1, true);
      }
      pages_.set_valid(lpn, true);
      ++copied;
    } else {
      program(ppa, PageToken{lpn, 0}, kNoOp);
      ++log_stats_.pages_padded;
    }
    block = ppa.block;
  }
  return host_done;
}

void LogBlockFtl::fill_tables(uint32_t die, Lbn lbn, uint32_t from, uint32_t to,
                              const HostPage* host, bool data_only) {
  // Offsets whose current copy is in the data block stay valid, those with none stay padding:
  // only the log copies in range move (unless `data_only`), and the host page.
  const uint32_t host_off = host ? offset_of(host->lpn) : kNone;
  if (!data_only) {
    for (uint32_t at = lbn_[lbn].log_head; at != LogIndex::kNil;) {
      const uint32_t next = index_.next(at);
      const uint32_t off = index_.offset(at);
      if (off >= from && off <= to && off != host_off) {
        const Lpn lpn = lbn * ppb_ + off;
        drop_log_copy(die, at, lpn);
        pages_.set_valid(lpn, true);
      }
      at = next;
    }
  }
  if (host) {
    supersede(host->lpn);
    pages_.set_valid(host->lpn, true);
  }
}

OpId LogBlockFtl::full_merge(Lbn lbn, const HostPage* host) {
  Hal::Scope merge(*hal_, Work::Merge);
  const uint32_t die = die_of(lbn);
  uint32_t top = top_offset(lbn, 0);
  if (host) top = top == kNone ? offset_of(host->lpn) : std::max(top, offset_of(host->lpn));
  const uint32_t old = lbn_[lbn].data_block;
  OpId done = kNoOp;
  hal_->dram_access(1, true);  // block map
  if (top == kNone) {
    // Nothing current is left (all trimmed): the logical block needs no data block.
    set_data_block(lbn, kNone, 0, false);
  } else {
    uint32_t fresh = take_free(die);
    done = fill(die, fresh, lbn, 0, top, host, false, log_stats_.merge_pages_copied);
    set_data_block(lbn, fresh, top + 1, true);
  }
  ++log_stats_.merges_full;
  if (old != kNone) erase(die, old);
  return done;
}

void LogBlockFtl::fold(uint32_t die, uint32_t slot) {
  finish_update();
  Hal::Scope merge(*hal_, Work::Merge);
  full_merge(dies_[die].slots[slot].lbn, nullptr);
  ++log_stats_.folds;
  release_slot(die, slot);
}

void LogBlockFtl::switch_merge(uint32_t die, uint32_t slot) {
  Slot& s = dies_[die].slots[slot];
  const Lbn lbn = s.lbn;
  const uint32_t first = log_page(die, slot, 0);
  uint32_t logged = 0;
  for (uint32_t p = 0; p < s.next; ++p) {
    if (!index_.live(first + p)) continue;  // a partial merge's copy or padding
    log_remove(s.lpns[p], first + p);
    pages_.set_valid(s.lpns[p], true);
    ++logged;
  }
  hal_->dram_access(logged + 1, true);  // log entries dropped, block map
  const uint32_t old = lbn_[lbn].data_block;
  const uint32_t block = s.block, next = s.next;
  s.block = kNone;
  s.next = 0;
  s.valid = 0;
  s.lbns = 0;
  s.lbn = kNoLbn;
  ++dies_[die].empty;
  lbn_[lbn].dedicated = kNone;
  set_data_block(lbn, block, next, true);
  if (old != kNone) erase(die, old);
}

void LogBlockFtl::partial_merge(uint32_t die, uint32_t slot) {
  Slot& s = dies_[die].slots[slot];
  const uint32_t top = top_offset(s.lbn, s.next);
  if (top != kNone) {
    // The rest goes to the log block's own offsets, so it can then switch.
    uint32_t block = s.block;  // the slot follows a replacement (substitute())
    fill(die, block, s.lbn, s.next, top, nullptr, false, log_stats_.merge_pages_copied);
    s.next = top + 1;
  }
  switch_merge(die, slot);
}

bool LogBlockFtl::sequential(uint32_t die, uint32_t slot) const {
  const Slot& s = dies_[die].slots[slot];
  if (s.lbn == kNoLbn || s.valid != s.next) return false;
  for (uint32_t p = 0; p < s.next; ++p)
    if (s.lpns[p] != s.lbn * ppb_ + p) return false;
  return true;
}

void LogBlockFtl::clean(uint32_t die, uint32_t slot) {
  finish_update();
  Slot& s = dies_[die].slots[slot];
  if (s.block == kNone) return;
  Hal::Scope merge(*hal_, Work::Merge);
  // The firmware reads the log block's reverse map to see what it holds.
  hal_->dram_access(s.next, false);
  if (s.valid == 0) {
    release_slot(die, slot);
    return;
  }
  if (sequential(die, slot)) {
    if (s.next == ppb_) {
      ++log_stats_.merges_switch;
      switch_merge(die, slot);
    } else {
      ++log_stats_.merges_partial;
      partial_merge(die, slot);
    }
    return;
  }
  const uint32_t first = log_page(die, slot, 0);
  std::vector<Lbn> lbns;
  for (uint32_t p = 0; p < s.next; ++p)
    if (index_.live(first + p) &&
        std::find(lbns.begin(), lbns.end(), lbn_of(s.lpns[p])) == lbns.end())
      lbns.push_back(lbn_of(s.lpns[p]));
  // The merges touch each logical block's fields, pages and data block: fetched together
  // first, so the misses overlap (what replaying preconditioning spends its time on).
  for (Lbn lbn : lbns) {
    ssd::prefetch(&lbn_[lbn]);
    ssd::prefetch(pages_.word(lbn * ppb_ + ppb_ - 1));
  }
  for (Lbn lbn : lbns)
    if (lbn_[lbn].data_block != kNone)
      ssd::prefetch(&block_[size_t(die) * blocks_per_die_ + lbn_[lbn].data_block]);
  for (Lbn lbn : lbns) full_merge(lbn, nullptr);
  release_slot(die, slot);
}

}  // namespace ssd::fw
