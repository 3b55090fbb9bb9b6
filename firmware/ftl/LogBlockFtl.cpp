#include "firmware/ftl/LogBlockFtl.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "firmware/ftl/CheckedConfig.h"

namespace ssd::fw {

LogBlockFtl::LogBlockFtl(const config::DriveConfig& cfg, Hal& hal, std::string name)
    : LogBlockFtl(cfg, hal, std::move(name), Layout::of(checked(cfg, &Layout::check))) {}

LogBlockFtl::LogBlockFtl(const config::DriveConfig& cfg, Hal& hal, std::string name, Layout layout)
    : hal_(&hal),
      t_step_(cfg.controller.fw_per_page_us(), sc_core::SC_US),
      ppb_(cfg.flash.pages_per_block),
      by_ppb_(cfg.flash.pages_per_block),
      by_dies_(cfg.flash.dies()),
      per_die_slots_(layout.log_slots),
      name_(std::move(name)),
      replay_holds_(cfg.dram.write_buffer_mb == 0 && !cfg.lifetime.enabled()),
      pad_(!layout.replacement_blocks),
      map_entries_(layout.log_slots != 0 && !layout.replacement_blocks ? 2 : 1),
      blocks_per_die_(cfg.flash.blocks_per_die()),
      logical_pages_(cfg.logical_pages()),
      lbns_(Layout::logical_blocks(cfg)),
      table_bytes_(Layout::table_bytes(cfg)),
      dies_(cfg.flash.dies()),
      lbn_(lbns_),
      pages_(lbns_ * ppb_),
      index_(ppb_, layout.log_pages(cfg)),
      block_(size_t(cfg.flash.dies()) * blocks_per_die_),
      die_erases_(cfg.flash.dies(), 0),
      die_data_blocks_(cfg.flash.dies(), 0),
      faults_(cfg.flash.faults),
      dead_(cfg.flash.faults) {
  const uint32_t log_slots = layout.log_slots;
  for (Die& d : dies_) {
    for (uint32_t b = 0; b < blocks_per_die_; ++b) d.free.push_back(b);
    d.slots.resize(log_slots);
    for (Slot& slot : d.slots) slot.lpns.resize(ppb_);
    d.empty = log_slots;
    // Never-written slots come first in the order of last writes, in slot order.
    for (uint32_t s = 0; s < log_slots; ++s) touch(uint32_t(&d - dies_.data()), s);
  }
  statistics_.group("merges")
      .counter("switch", StatUnit::Merges, "Log blocks that became the data block whole.",
               log_stats_.merges_switch)
      .counter("partial", StatUnit::Merges, "Log blocks completed from the data block.",
               log_stats_.merges_partial)
      .counter("full", StatUnit::Merges, "Merges copying every valid page to a fresh block.",
               log_stats_.merges_full)
      .counter("pages_copied", StatUnit::Pages, "Pages merges copied.",
               log_stats_.merge_pages_copied)
      .counter("pages_padded", StatUnit::Pages, "Pages programmed without data below a page.",
               log_stats_.pages_padded)
      .counter("log_blocks_erased", StatUnit::Blocks, "Log blocks erased when cleaned.",
               log_stats_.log_blocks_erased);
  if (faults_.any()) register_faults();
}

std::optional<BlockManager::EraseSummary> LogBlockFtl::erase_summary() const {
  return BlockManager::EraseSummary::of(block_.size(),
                                        [this](std::size_t i) { return block_[i].erases; });
}

LogBlockFtl::Copy LogBlockFtl::current(Lpn lpn) const {
  const Lbn lbn = lbn_of(lpn);
  const uint32_t die = die_of(lbn);
  if (const uint32_t at = log_find(lpn); at != LogIndex::kNil)
    return {true, Ppa{die, dies_[die].slots[slot_of(at)].block, at % ppb_}};
  if (!pages_.valid(lpn)) return {};
  if (lbn == update_.lbn && offset_of(lpn) < update_.next)
    return {true, Ppa{die, update_.block, offset_of(lpn)}};
  return {true, Ppa{die, lbn_[lbn].data_block, offset_of(lpn)}};
}

Ftl::ReadResult LogBlockFtl::read(Lpn lpn, PageToken& out) {
  check_dead_die();
  {
    Hal::Scope mapping(*hal_, Work::Mapping);
    hal_->dram_access(map_entries_, false);
    // Lost (or, on the dead die, never written): answered with no flash command.
    const bool dead = on_dead_die(lpn);
    if (dead ? lost(lpn) : !no_room_.empty() && no_room_.count(lpn) != 0) {
      out = PageToken{lpn, 0};
      ++dead_.reads_lost;
      return {kNoOp, false, true};
    }
    if (dead) {
      out = PageToken{lpn, 0};
      return {kNoOp, false};
    }
    locate(lpn);
  }
  const Copy c = current(lpn);
  if (!c.exists) {
    out = PageToken{lpn, 0};
    return {kNoOp, false};
  }
  return {hal_->flash_read(c.ppa, out), true};
}

void LogBlockFtl::trim(Lpn lpn) {
  check_dead_die();
  if (on_dead_die(lpn)) return trim_lost(lpn);
  finish_update();
  Hal::Scope mapping(*hal_, Work::Mapping);
  hal_->dram_access(map_entries_, false);
  if (!current(lpn).exists) return;
  supersede(lpn);
  hal_->dram_access(1, true);
}

void LogBlockFtl::supersede(Lpn lpn) {
  if (const uint32_t at = log_find(lpn); at != LogIndex::kNil)
    drop_log_copy(die_of(lbn_of(lpn)), at, lpn);
  else
    pages_.set_valid(lpn, false);
}

void LogBlockFtl::drop_log_copy(uint32_t die, uint32_t at, Lpn lpn) {
  const uint32_t slot = slot_of(at);
  Slot& s = dies_[die].slots[slot];
  --s.valid;
  log_remove(lpn, at);
  if (!index_.in_block(lbn_[lbn_of(lpn)].log_head, log_page(die, slot, 0))) --s.lbns;
}

void LogBlockFtl::touch(uint32_t die, uint32_t slot) {
  Die& d = dies_[die];
  Slot& s = d.slots[slot];
  if (d.newest == slot) return;
  if (s.older != kNone || d.oldest == slot) {  // in the list: unlink
    if (s.older != kNone)
      d.slots[s.older].newer = s.newer;
    else
      d.oldest = s.newer;
    d.slots[s.newer].older = s.older;  // not the newest, so it has a newer one
  }
  s.older = d.newest;
  s.newer = kNone;
  if (d.newest != kNone)
    d.slots[d.newest].newer = slot;
  else
    d.oldest = slot;
  d.newest = slot;
}

void LogBlockFtl::set_data_block(Lbn lbn, uint32_t block, uint32_t next, bool touched) {
  Logical& l = lbn_[lbn];
  const uint32_t old = l.data_block;
  const uint32_t die = die_of(lbn);
  if (old != kNone) {
    block_[size_t(die) * blocks_per_die_ + old].owner = kNone;
    --die_data_blocks_[die];
  }
  if (block != kNone) {
    block_[size_t(die) * blocks_per_die_ + block].owner = uint32_t(lbn);
    ++die_data_blocks_[die];
  }
  l.data_block = block;
  l.data_next = next;
  if (touched) l.data_since = ++write_seq_;
  on_data_block(lbn, old);
}

uint32_t LogBlockFtl::take_free(uint32_t die) {
  // The block budget checked at construction keeps one block free for every merge, until
  // failed erases take more than the room a die had.
  if (dies_[die].free.empty() && spare_)
    throw NoFreeBlock(name_ + " FTL: die " + std::to_string(die) +
                      " has no free block left: " + std::to_string(retired_blocks(die)) +
                      " of its blocks retired (an erase or a program failed, flash.faults), " +
                      std::to_string(needed_blocks(die)) +
                      " needed for its data and log blocks and a merge");
  if (dies_[die].free.empty())
    throw std::logic_error(name_ + " FTL: die " + std::to_string(die) + " has no free block");
  const uint32_t b = dies_[die].free.front();
  dies_[die].free.pop_front();
  block_[size_t(die) * blocks_per_die_ + b].free = false;
  return b;
}

bool LogBlockFtl::is_free(uint32_t die, uint32_t block) const {
  return block_[size_t(die) * blocks_per_die_ + block].free;
}

void LogBlockFtl::erase(uint32_t die, uint32_t block) {
  hal_->flash_erase(die, block);
  const bool failed = erase_failed(die, block);
  Physical& b = block_[size_t(die) * blocks_per_die_ + block];
  ++b.erases;
  b.erased_at = ++erase_seq_;
  ++die_erases_[die];
  ++stats_.blocks_erased;
  if (failed) return;
  b.free = true;
  dies_[die].free.push_back(block);
  on_erase(die, block);
}

void LogBlockFtl::open_slot(uint32_t die, uint32_t slot) {
  Slot& s = dies_[die].slots[slot];
  s.block = take_free(die);
  s.next = 0;
  s.valid = 0;
  s.lbns = 0;
  --dies_[die].empty;
}

void LogBlockFtl::release_slot(uint32_t die, uint32_t slot) {
  Slot& s = dies_[die].slots[slot];
  if (s.valid != 0) throw std::logic_error(name_ + " FTL: log block released with valid pages");
  if (s.block != kNone) {
    erase(die, s.block);
    ++log_stats_.log_blocks_erased;
    ++dies_[die].empty;
  }
  s.block = kNone;
  s.next = 0;
  if (s.lbn != kNoLbn) lbn_[s.lbn].dedicated = kNone;
  s.lbn = kNoLbn;
}

uint32_t LogBlockFtl::dedicated_slot(Lbn lbn) const { return lbn_[lbn].dedicated; }

void LogBlockFtl::dedicate(uint32_t die, uint32_t slot, Lbn lbn) {
  dies_[die].slots[slot].lbn = lbn;
  lbn_[lbn].dedicated = slot;
}

void LogBlockFtl::examine_candidate() {
  hal_->compute(t_step_);
  hal_->dram_access(1, false);
}

void LogBlockFtl::examine_candidates(uint64_t n) {
  if (replaying_) return;
  for (uint64_t i = 0; i < n; ++i) examine_candidate();
}

uint32_t LogBlockFtl::least_recently_written(uint32_t die, uint32_t first, uint32_t count) {
  Hal::Scope merge(*hal_, Work::Merge);
  // The firmware looks at each slot's last write; the die's order of last writes gives the
  // same answer at once (write stamps are distinct; never-written slots come first, in order).
  examine_candidates(count);
  const Die& d = dies_[die];
  for (uint32_t s = d.oldest; s != kNone; s = d.slots[s].newer)
    if (s - first < count) return s;
  return kNone;
}

uint32_t LogBlockFtl::first_empty(uint32_t die, uint32_t first, uint32_t count) const {
  if (dies_[die].empty == 0) return kNone;
  for (uint32_t s = first; s < first + count; ++s)
    if (slot_empty(die, s)) return s;
  return kNone;
}

OpId LogBlockFtl::program_host(Ppa& ppa, const PageToken& data, OpId ready) {
  Hal::Scope host(*hal_, Work::HostData);
  ++stats_.host_pages_written;
  ++stats_.pages_programmed;
  return program(ppa, data, ready);
}

OpId LogBlockFtl::append(uint32_t die, uint32_t slot, Lpn lpn, const PageToken& data,
                         OpId data_from) {
  finish_update();
  if (dies_[die].slots[slot].block == kNone) open_slot(die, slot);
  Slot& s = dies_[die].slots[slot];
  {
    Hal::Scope mapping(*hal_, Work::Mapping);
    hal_->dram_access(map_entries_, false);
    hal_->dram_access(map_entries_, true);
  }
  supersede(lpn);
  Ppa ppa{die, s.block, s.next};
  const uint32_t first = log_page(die, slot, 0);
  if (!index_.in_block(lbn_[lbn_of(lpn)].log_head, first)) ++s.lbns;
  log_add(lpn, first + s.next);
  s.lpns[s.next++] = lpn;
  ++s.valid;
  s.last_write = ++write_seq_;
  touch(die, slot);
  return program_host(ppa, data, data_from);
}

OpId LogBlockFtl::append_to_area(uint32_t die, Area& area, Lpn lpn, const PageToken& data,
                                 OpId data_from) {
  if (area.current == kNone || slot_full(die, area.current)) {
    uint32_t next = kNone;
    if (dies_[die].empty != 0)
      for (uint32_t s : area.slots)
        if (slot_empty(die, s)) {
          next = s;
          break;
        }
    if (next == kNone) {
      Hal::Scope merge(*hal_, Work::Merge);
      const auto& slots = dies_[die].slots;
      if (area.victim == Victim::Fifo) {
        // The slots fill in ring order, so the one after the current is the oldest.
        examine_candidate();
        const auto pos = std::find(area.slots.begin(), area.slots.end(), area.current);
        next = area.slots[(pos - area.slots.begin() + 1) % area.slots.size()];
      } else {
        uint64_t best_cost = ~uint64_t{0};
        for (uint32_t s : area.slots) {
          examine_candidate();
          uint64_t cost = slots[s].valid;
          if (area.victim == Victim::FewestLbns)
            cost = slots[s].lbns * (uint64_t(ppb_) + 1) + slots[s].valid;
          if (cost < best_cost) {
            best_cost = cost;
            next = s;
          }
        }
      }
      clean(die, next);
    }
    area.current = next;
  }
  return append(die, area.current, lpn, data, data_from);
}

OpId LogBlockFtl::write_to_data_block(Lpn lpn, const PageToken& data, OpId data_from) {
  const Lbn lbn = lbn_of(lpn);
  const uint32_t die = die_of(lbn);
  const uint32_t off = offset_of(lpn);
  if (lbn != update_.lbn || off < update_.next) finish_update();
  {
    Hal::Scope mapping(*hal_, Work::Mapping);
    hal_->dram_access(1, false);
    hal_->dram_access(1, true);
  }
  const HostPage page{lpn, &data, data_from};
  if (lbn == update_.lbn) {
    // The request goes on in the new block: in place, copying any offsets it skips.
    Hal::Scope merge(*hal_, Work::Merge);
    const OpId done = fill(die, update_.block, lbn, update_.next, off, &page, false,
                           log_stats_.merge_pages_copied);
    update_.next = off + 1;
    return done;
  }
  if (lbn_[lbn].data_block != kNone && off < lbn_[lbn].data_next) {
    if (!in_request_) return full_merge(lbn, &page);
    Hal::Scope merge(*hal_, Work::Merge);
    update_ = Update{lbn, take_free(die), 0};
    const OpId done =
        fill(die, update_.block, lbn, 0, off, &page, false, log_stats_.merge_pages_copied);
    update_.next = off + 1;
    ++log_stats_.merges_full;
    return done;
  }
  if (lbn_[lbn].data_block == kNone)
    set_data_block(lbn, take_free(die), 0, true);
  else
    set_data_block(lbn, lbn_[lbn].data_block, lbn_[lbn].data_next, true);
  uint32_t block = lbn_[lbn].data_block;
  uint64_t no_copies = 0;
  const OpId done = fill(die, block, lbn, lbn_[lbn].data_next, off, &page, true, no_copies);
  lbn_[lbn].data_next = off + 1;
  return done;
}

void LogBlockFtl::end_request() {
  finish_update();
  in_request_ = false;
}

void LogBlockFtl::finish_update() {
  if (update_.lbn == kNoLbn) return;
  Hal::Scope merge(*hal_, Work::Merge);
  const Lbn lbn = update_.lbn;
  const uint32_t die = die_of(lbn);
  const uint32_t top = top_offset(lbn, update_.next);
  if (top != kNone)
    fill(die, update_.block, lbn, update_.next, top, nullptr, false, log_stats_.merge_pages_copied);
  hal_->dram_access(1, true);  // block map
  const uint32_t old = lbn_[lbn].data_block;
  const Update done = update_;
  update_ = Update{};
  set_data_block(lbn, done.block, top == kNone ? done.next : top + 1, true);
  erase(die, old);
}

void LogBlockFtl::move_data_block(Lbn lbn, uint32_t to) {
  finish_update();
  const uint32_t die = die_of(lbn);
  auto& f = dies_[die].free;
  // The hot block was erased by the write just done: near the back of the pool.
  f.erase(std::next(std::find(f.rbegin(), f.rend(), to)).base());
  block_[size_t(die) * blocks_per_die_ + to].free = false;
  const uint32_t old = lbn_[lbn].data_block;
  if (lbn_[lbn].data_next > 0)
    fill(die, to, lbn, 0, lbn_[lbn].data_next - 1, nullptr, true, stats_.wl_pages_copied);
  set_data_block(lbn, to, lbn_[lbn].data_next, false);
  hal_->dram_access(1, true);
  erase(die, old);
}

void LogBlockFtl::area_state(StateArchive& a, Area& area) const {
  const uint32_t slots = log_blocks_per_die();
  a.indexes(area.slots, slots, slots, "log area slot");
  a.index(area.current, slots, "log area's current slot", kNone);
  a.index(area.victim, uint64_t(Victim::FewestLbns) + 1, "log area victim policy");
}

void LogBlockFtl::state(StateArchive& a) {
  a.section("log-block FTL");
  const uint32_t slots = log_blocks_per_die();
  const uint64_t log_pages = uint64_t(slots) * dies_.size() * ppb_;
  for (Die& d : dies_) {
    a.indexes(d.free, blocks_per_die_, blocks_per_die_, "free block");
    for (Slot& s : d.slots) {
      a.index(s.block, blocks_per_die_, "log block", kNone);
      a.index(s.next, uint64_t(ppb_) + 1, "log block write pointer");
      a.index(s.valid, uint64_t(ppb_) + 1, "log block valid pages");
      a.index(s.lbns, uint64_t(ppb_) + 1, "log block logical blocks");
      a.index(s.lbn, lbns_, "log block's logical block", kNoLbn);
      a.value(s.last_write);
      a.index(s.older, slots, "log block order", kNone);
      a.index(s.newer, slots, "log block order", kNone);
      a.fixed_indexes(s.lpns, logical_pages_, "logged page");
    }
    a.index(d.empty, uint64_t(slots) + 1, "empty log blocks");
    a.index(d.oldest, slots, "log block order", kNone);
    a.index(d.newest, slots, "log block order", kNone);
  }
  a.fixed(lbn_, "logical blocks");
  a.fixed(pages_.words(), "page bits");
  index_.state(a);
  a.fixed(block_, "physical blocks");
  a.fixed(die_erases_, "die erase counts");
  a.fixed(die_data_blocks_, "die data blocks");
  a.value(erase_seq_);
  a.value(write_seq_);
  a.index(update_.lbn, lbns_, "open update's logical block", kNoLbn);
  a.index(update_.block, blocks_per_die_, "open update's block", kNone);
  a.index(update_.next, uint64_t(ppb_) + 1, "open update's write pointer");
  a.flag(in_request_);
  if (a.loading()) {
    for (const Logical& l : lbn_)
      if ((l.data_block != kNone && l.data_block >= blocks_per_die_) || l.data_next > ppb_ ||
          (l.dedicated != kNone && l.dedicated >= slots) ||
          (l.log_head != LogIndex::kNil && l.log_head >= log_pages))
        StateArchive::invalid("logical block: a block, slot or page out of range");
    for (const Physical& p : block_)
      if ((p.owner != kNone && p.owner >= lbns_) || !StateArchive::valid_flag(p.free) ||
          !StateArchive::valid_flag(p.retired))
        StateArchive::invalid("physical block: an owner out of range or a flag not 0 or 1");
    // Lists walked at most their length: a loop would hang the run.
    uint64_t listed = 0;
    for (const Logical& l : lbn_)
      for (uint32_t p = l.log_head; p != LogIndex::kNil; p = index_.next(p))
        if (++listed > log_pages) StateArchive::invalid("log index: lists longer than the log");
    for (const Die& d : dies_) {
      uint32_t in_order = 0;
      for (uint32_t s = d.oldest; s != kNone; s = d.slots[s].newer)
        if (++in_order > slots) StateArchive::invalid("log blocks: an order longer than the die's");
    }
  }
  own_state(a);
}

}  // namespace ssd::fw
