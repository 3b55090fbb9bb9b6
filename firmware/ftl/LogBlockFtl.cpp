#include "firmware/ftl/LogBlockFtl.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "common/Errors.h"

namespace ssd::fw {
namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

uint64_t data_blocks_per_die(const config::DriveConfig& cfg) {
  return ceil_div(ceil_div(cfg.logical_pages(), cfg.flash.pages_per_block), cfg.flash.dies());
}

}  // namespace

uint32_t LogBlockFtl::scaled_log_blocks(const config::DriveConfig& cfg, uint32_t minimum) {
  // The small epsilon keeps an exact product (0.05 x 100) from rounding up past it.
  const double n = std::ceil(cfg.ftl.log_block_fraction * double(data_blocks_per_die(cfg)) - 1e-9);
  return std::max(minimum, uint32_t(std::max(0.0, n)));
}

LogBlockFtl::LogBlockFtl(const config::DriveConfig& cfg, Hal& hal, std::string name,
                         uint32_t log_slots)
    : hal_(hal),
      t_step_(cfg.controller.t_fw_per_page_us, sc_core::SC_US),
      ppb_(cfg.flash.pages_per_block),
      name_(std::move(name)),
      blocks_per_die_(cfg.flash.blocks_per_die()),
      lbns_(ceil_div(cfg.logical_pages(), cfg.flash.pages_per_block)),
      table_bytes_((lbns_ + uint64_t(log_slots) * cfg.flash.dies() * ppb_) * cfg.dram.access_bytes),
      dies_(cfg.flash.dies()),
      data_block_(lbns_, kNone),
      data_next_(lbns_, 0),
      data_since_(lbns_, 0),
      data_valid_(lbns_ * ppb_, false),
      erases_(size_t(cfg.flash.dies()) * blocks_per_die_, 0),
      erased_at_(size_t(cfg.flash.dies()) * blocks_per_die_, 0),
      die_erases_(cfg.flash.dies(), 0) {
  const uint64_t data = data_blocks_per_die(cfg);
  if (data + log_slots + 1 > blocks_per_die_)
    throw ConfigError("drive '" + cfg.name + "': ftl.overprovisioning: the " + name_ +
                      " FTL needs " + std::to_string(data + log_slots + 1) + " blocks per die (" +
                      std::to_string(data) + " data blocks, " + std::to_string(log_slots) +
                      " log blocks and 1 spare for merges), the die has " +
                      std::to_string(blocks_per_die_));
  for (Die& d : dies_) {
    for (uint32_t b = 0; b < blocks_per_die_; ++b) d.free.push_back(b);
    d.slots.resize(log_slots);
  }
}

std::optional<BlockManager::EraseSummary> LogBlockFtl::erase_summary() const {
  BlockManager::EraseSummary s;
  s.min = *std::min_element(erases_.begin(), erases_.end());
  s.max = *std::max_element(erases_.begin(), erases_.end());
  double sum = 0, sq = 0;
  for (uint32_t e : erases_) {
    sum += e;
    sq += double(e) * e;
  }
  s.mean = sum / double(erases_.size());
  s.std = std::sqrt(std::max(0.0, sq / double(erases_.size()) - s.mean * s.mean));
  return s;
}

LogBlockFtl::Copy LogBlockFtl::current(Lpn lpn) const {
  const Lbn lbn = lbn_of(lpn);
  const uint32_t die = die_of(lbn);
  if (auto it = log_map_.find(lpn); it != log_map_.end())
    return {true, Ppa{die, dies_[die].slots[it->second.slot].block, it->second.page}};
  if (!data_valid_[lpn]) return {};
  if (lbn == update_.lbn && offset_of(lpn) < update_.next)
    return {true, Ppa{die, update_.block, offset_of(lpn)}};
  return {true, Ppa{die, data_block_[lbn], offset_of(lpn)}};
  return {};
}

Ftl::ReadResult LogBlockFtl::read(Lpn lpn, PageToken& out) {
  {
    Hal::Scope mapping(hal_, Work::Mapping);
    hal_.dram_access(log_blocks_per_die() ? 2 : 1, false);
  }
  const Copy c = current(lpn);
  if (!c.exists) {
    out = PageToken{lpn, 0};
    return {kNoOp, false};
  }
  return {hal_.flash_read(c.ppa, out), true};
}

void LogBlockFtl::trim(Lpn lpn) {
  finish_update();
  Hal::Scope mapping(hal_, Work::Mapping);
  hal_.dram_access(log_blocks_per_die() ? 2 : 1, false);
  if (!current(lpn).exists) return;
  supersede(lpn);
  hal_.dram_access(1, true);
}

void LogBlockFtl::supersede(Lpn lpn) {
  if (auto it = log_map_.find(lpn); it != log_map_.end())
    drop_log_copy(die_of(lbn_of(lpn)), it->second, lpn);
  else
    data_valid_[lpn] = false;
}

void LogBlockFtl::drop_log_copy(uint32_t die, const LogPage& at, Lpn lpn) {
  Slot& s = dies_[die].slots[at.slot];
  s.lpns[at.page] = BlockManager::kNoLpn;
  --s.valid;
  log_map_.erase(lpn);
}

uint32_t LogBlockFtl::take_free(uint32_t die) {
  // The block budget checked at construction keeps one block free for every merge.
  if (dies_[die].free.empty())
    throw std::logic_error(name_ + " FTL: die " + std::to_string(die) + " has no free block");
  const uint32_t b = dies_[die].free.front();
  dies_[die].free.pop_front();
  return b;
}

bool LogBlockFtl::is_free(uint32_t die, uint32_t block) const {
  const auto& f = dies_[die].free;
  return std::find(f.begin(), f.end(), block) != f.end();
}

void LogBlockFtl::erase(uint32_t die, uint32_t block) {
  hal_.flash_erase(die, block);
  const size_t i = size_t(die) * blocks_per_die_ + block;
  ++erases_[i];
  erased_at_[i] = ++erase_seq_;
  ++die_erases_[die];
  ++stats_.blocks_erased;
  dies_[die].free.push_back(block);
  on_erase(die, block);
}

void LogBlockFtl::open_slot(uint32_t die, uint32_t slot) {
  Slot& s = dies_[die].slots[slot];
  s.block = take_free(die);
  s.next = 0;
  s.valid = 0;
  s.lpns.assign(ppb_, BlockManager::kNoLpn);
}

void LogBlockFtl::release_slot(uint32_t die, uint32_t slot) {
  Slot& s = dies_[die].slots[slot];
  if (s.valid != 0) throw std::logic_error(name_ + " FTL: log block released with valid pages");
  if (s.block != kNone) {
    erase(die, s.block);
    ++stats_.log_blocks_erased;
  }
  s.block = kNone;
  s.next = 0;
  if (s.lbn != kNoLbn) dedicated_.erase(s.lbn);
  s.lbn = kNoLbn;
}

uint32_t LogBlockFtl::dedicated_slot(Lbn lbn) const {
  auto it = dedicated_.find(lbn);
  return it == dedicated_.end() ? kNone : it->second;
}

void LogBlockFtl::dedicate(uint32_t die, uint32_t slot, Lbn lbn) {
  dies_[die].slots[slot].lbn = lbn;
  dedicated_[lbn] = slot;
}

void LogBlockFtl::examine_candidate() {
  hal_.compute(t_step_);
  hal_.dram_access(1, false);
}

uint32_t LogBlockFtl::least_recently_written(uint32_t die, const std::vector<uint32_t>& slots) {
  Hal::Scope merge(hal_, Work::Merge);
  uint32_t best = kNone;
  for (uint32_t s : slots) {
    examine_candidate();
    if (best == kNone || dies_[die].slots[s].last_write < dies_[die].slots[best].last_write)
      best = s;
  }
  return best;
}

OpId LogBlockFtl::program_host(const Ppa& ppa, const PageToken& data,
                                           OpId ready) {
  Hal::Scope host(hal_, Work::HostData);
  ++stats_.host_pages_written;
  ++stats_.pages_programmed;
  return hal_.flash_program(ppa, data, ready);
}

OpId LogBlockFtl::append(uint32_t die, uint32_t slot, Lpn lpn, const PageToken& data,
                                     OpId data_from) {
  finish_update();
  if (dies_[die].slots[slot].block == kNone) open_slot(die, slot);
  Slot& s = dies_[die].slots[slot];
  {
    Hal::Scope mapping(hal_, Work::Mapping);
    hal_.dram_access(2, false);
    hal_.dram_access(2, true);
  }
  supersede(lpn);
  const Ppa ppa{die, s.block, s.next};
  s.lpns[s.next++] = lpn;
  ++s.valid;
  s.last_write = ++write_seq_;
  log_map_[lpn] = LogPage{slot, ppa.page};
  return program_host(ppa, data, data_from);
}

OpId LogBlockFtl::append_to_area(uint32_t die, Area& area, Lpn lpn,
                                             const PageToken& data,
                                             OpId data_from) {
  if (area.current == kNone || slot_full(die, area.current)) {
    uint32_t next = kNone;
    for (uint32_t s : area.slots)
      if (slot_empty(die, s)) {
        next = s;
        break;
      }
    if (next == kNone) {
      Hal::Scope merge(hal_, Work::Merge);
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
          if (area.victim == Victim::FewestLbns) {
            std::vector<Lbn> lbns;
            for (Lpn l : slots[s].lpns)
              if (l != BlockManager::kNoLpn &&
                  std::find(lbns.begin(), lbns.end(), lbn_of(l)) == lbns.end())
                lbns.push_back(lbn_of(l));
            cost = lbns.size() * (uint64_t(ppb_) + 1) + slots[s].valid;
          }
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

uint32_t LogBlockFtl::top_offset(Lbn lbn, uint32_t from) {
  if (from >= ppb_) return kNone;
  hal_.dram_access(ppb_ - from, false);
  for (uint32_t off = ppb_; off-- > from;)
    if (current(lbn * ppb_ + off).exists) return off;
  return kNone;
}

OpId LogBlockFtl::fill(uint32_t die, uint32_t block, Lbn lbn, uint32_t from,
                                   uint32_t to, const HostPage* host, bool data_only,
                                   uint64_t& copied) {
  OpId host_done = kNoOp;
  for (uint32_t off = from; off <= to; ++off) {
    const Lpn lpn = lbn * ppb_ + off;
    const Ppa ppa{die, block, off};
    if (host && host->lpn == lpn) {
      supersede(lpn);
      host_done = program_host(ppa, *host->data, host->ready);
      data_valid_[lpn] = true;
      continue;
    }
    hal_.compute(t_step_);
    ++stats_.pages_programmed;
    auto log = log_map_.find(lpn);
    if (data_valid_[lpn] || (!data_only && log != log_map_.end())) {
      PageToken token;
      const OpId ready = hal_.flash_read(current(lpn).ppa, token);
      hal_.flash_program(ppa, token, ready);
      if (log != log_map_.end()) {
        drop_log_copy(die, log->second, lpn);
        hal_.dram_access(1, true);
      }
      data_valid_[lpn] = true;
      ++copied;
    } else {
      hal_.flash_program(ppa, PageToken{lpn, 0}, kNoOp);
      ++stats_.pages_padded;
    }
  }
  return host_done;
}

OpId LogBlockFtl::full_merge(Lbn lbn, const HostPage* host) {
  Hal::Scope merge(hal_, Work::Merge);
  const uint32_t die = die_of(lbn);
  uint32_t top = top_offset(lbn, 0);
  if (host) top = top == kNone ? offset_of(host->lpn) : std::max(top, offset_of(host->lpn));
  const uint32_t old = data_block_[lbn];
  OpId done = kNoOp;
  hal_.dram_access(1, true);  // block map
  if (top == kNone) {
    // Nothing current is left (all trimmed): the logical block needs no data block.
    data_block_[lbn] = kNone;
    data_next_[lbn] = 0;
  } else {
    const uint32_t fresh = take_free(die);
    done = fill(die, fresh, lbn, 0, top, host, false, stats_.merge_pages_copied);
    data_block_[lbn] = fresh;
    data_next_[lbn] = top + 1;
    data_since_[lbn] = ++write_seq_;
  }
  ++stats_.merges_full;
  if (old != kNone) erase(die, old);
  return done;
}

void LogBlockFtl::switch_merge(uint32_t die, uint32_t slot) {
  Slot& s = dies_[die].slots[slot];
  const Lbn lbn = s.lbn;
  uint32_t logged = 0;
  for (uint32_t p = 0; p < s.next; ++p) {
    if (s.lpns[p] == BlockManager::kNoLpn) continue;  // a partial merge's copy or padding
    log_map_.erase(s.lpns[p]);
    data_valid_[s.lpns[p]] = true;
    ++logged;
  }
  hal_.dram_access(logged + 1, true);  // log entries dropped, block map
  const uint32_t old = data_block_[lbn];
  data_block_[lbn] = s.block;
  data_next_[lbn] = s.next;
  data_since_[lbn] = ++write_seq_;
  s.block = kNone;
  s.next = 0;
  s.valid = 0;
  s.lbn = kNoLbn;
  dedicated_.erase(lbn);
  if (old != kNone) erase(die, old);
}

void LogBlockFtl::partial_merge(uint32_t die, uint32_t slot) {
  Slot& s = dies_[die].slots[slot];
  const uint32_t top = top_offset(s.lbn, s.next);
  if (top != kNone) {
    // The rest goes to the log block's own offsets, so it can then switch.
    fill(die, s.block, s.lbn, s.next, top, nullptr, false, stats_.merge_pages_copied);
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
  Hal::Scope merge(hal_, Work::Merge);
  // The firmware reads the log block's reverse map to see what it holds.
  hal_.dram_access(s.next, false);
  if (s.valid == 0) {
    release_slot(die, slot);
    return;
  }
  if (sequential(die, slot)) {
    if (s.next == ppb_) {
      ++stats_.merges_switch;
      switch_merge(die, slot);
    } else {
      ++stats_.merges_partial;
      partial_merge(die, slot);
    }
    return;
  }
  std::vector<Lbn> lbns;
  for (uint32_t p = 0; p < s.next; ++p)
    if (s.lpns[p] != BlockManager::kNoLpn &&
        std::find(lbns.begin(), lbns.end(), lbn_of(s.lpns[p])) == lbns.end())
      lbns.push_back(lbn_of(s.lpns[p]));
  for (Lbn lbn : lbns) full_merge(lbn, nullptr);
  release_slot(die, slot);
}

OpId LogBlockFtl::write_to_data_block(Lpn lpn, const PageToken& data,
                                                  OpId data_from) {
  const Lbn lbn = lbn_of(lpn);
  const uint32_t die = die_of(lbn);
  const uint32_t off = offset_of(lpn);
  if (lbn != update_.lbn || off < update_.next) finish_update();
  {
    Hal::Scope mapping(hal_, Work::Mapping);
    hal_.dram_access(1, false);
    hal_.dram_access(1, true);
  }
  const HostPage page{lpn, &data, data_from};
  if (lbn == update_.lbn) {
    // The request goes on in the new block: in place, copying any offsets it skips.
    Hal::Scope merge(hal_, Work::Merge);
    const OpId done = fill(die, update_.block, lbn, update_.next, off, &page, false,
                           stats_.merge_pages_copied);
    update_.next = off + 1;
    return done;
  }
  if (data_block_[lbn] != kNone && off < data_next_[lbn]) {
    if (!in_request_) return full_merge(lbn, &page);
    Hal::Scope merge(hal_, Work::Merge);
    update_ = Update{lbn, take_free(die), 0};
    const OpId done = fill(die, update_.block, lbn, 0, off, &page, false,
                           stats_.merge_pages_copied);
    update_.next = off + 1;
    ++stats_.merges_full;
    return done;
  }
  if (data_block_[lbn] == kNone) {
    data_block_[lbn] = take_free(die);
    data_next_[lbn] = 0;
  }
  data_since_[lbn] = ++write_seq_;
  const uint32_t block = data_block_[lbn];
  uint64_t no_copies = 0;
  const OpId done = fill(die, block, lbn, data_next_[lbn], off, &page, true, no_copies);
  data_next_[lbn] = off + 1;
  return done;
}

void LogBlockFtl::end_request() {
  finish_update();
  in_request_ = false;
}

void LogBlockFtl::finish_update() {
  if (update_.lbn == kNoLbn) return;
  Hal::Scope merge(hal_, Work::Merge);
  const Lbn lbn = update_.lbn;
  const uint32_t die = die_of(lbn);
  const uint32_t top = top_offset(lbn, update_.next);
  if (top != kNone)
    fill(die, update_.block, lbn, update_.next, top, nullptr, false, stats_.merge_pages_copied);
  hal_.dram_access(1, true);  // block map
  const uint32_t old = data_block_[lbn];
  data_block_[lbn] = update_.block;
  data_next_[lbn] = top == kNone ? update_.next : top + 1;
  data_since_[lbn] = ++write_seq_;
  update_ = Update{};
  erase(die, old);
}

void LogBlockFtl::move_data_block(Lbn lbn, uint32_t to) {
  finish_update();
  const uint32_t die = die_of(lbn);
  auto& f = dies_[die].free;
  f.erase(std::find(f.begin(), f.end(), to));
  const uint32_t old = data_block_[lbn];
  if (data_next_[lbn] > 0)
    fill(die, to, lbn, 0, data_next_[lbn] - 1, nullptr, true, stats_.wl_pages_copied);
  data_block_[lbn] = to;
  hal_.dram_access(1, true);
  erase(die, old);
}

}  // namespace ssd::fw
