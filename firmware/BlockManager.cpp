#include "firmware/BlockManager.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssd::fw {

BlockManager::BlockManager(uint32_t dies, uint32_t blocks_per_die, uint32_t pages_per_block,
                           uint32_t blocks_per_plane, uint32_t reserved_per_plane)
    : blocks_per_die_(blocks_per_die),
      blocks_per_plane_(blocks_per_plane == 0 ? blocks_per_die : blocks_per_plane),
      reserved_per_plane_(reserved_per_plane),
      ppb_(pages_per_block),
      free_(dies),
      state_(size_t(dies) * blocks_per_die, State::Free),
      valid_(size_t(dies) * blocks_per_die, 0),
      die_valid_(dies, 0),
      erases_(size_t(dies) * blocks_per_die, 0),
      prev_(size_t(dies) * blocks_per_die, kNil),
      next_(size_t(dies) * blocks_per_die, kNil),
      heads_(size_t(dies) * (pages_per_block + 1), kNil),
      owners_(size_t(dies) * blocks_per_die * pages_per_block),
      mapped_(size_t(dies) * blocks_per_die, 0),
      stamp_(size_t(dies) * blocks_per_die, 0),
      full_(dies),
      full_pos_(size_t(dies) * blocks_per_die, kNil),
      min_erases_(dies, 0),
      at_min_(dies, blocks_per_die),
      max_erases_(dies, 0),
      modes_(dies, blocks_per_die) {
  for (uint32_t d = 0; d < dies; ++d) {
    for (uint32_t b = 0; b < blocks_per_die; ++b)
      if (!reserved(b)) free_[d].push_back(b);
    at_min_[d] = uint32_t(free_[d].size());
  }
}

void BlockManager::start_writing(uint32_t gb) {
  state_[gb] = State::Open;
  mapped_[gb] = 1;
  std::fill(owners_of(gb), owners_of(gb) + ppb_, kNoOwner);
}

void BlockManager::open_reserved(uint32_t die, uint32_t block) {
  if (!reserved(block) || state_[index(die, block)] != State::Free)
    throw std::logic_error("die " + std::to_string(die) + " block " + std::to_string(block) +
                           ": not a free reserved block");
  start_writing(index(die, block));
  modes_.set(die, block, BlockMode::Slc);
}

uint32_t BlockManager::open_block(uint32_t die, bool most_worn, uint32_t plane, BlockMode mode) {
  auto& pool = free_[die];
  if (pool.empty()) throw NoFreeBlock("die " + std::to_string(die) + ": no free block left");
  // Among the plane's free blocks if it has any, else among all: the first in pool order
  // (the oldest), or with `most_worn` the first of those erased most often.
  const bool on_plane =
      plane != kAnyPlane &&
      std::any_of(pool.begin(), pool.end(), [&](uint32_t b) { return plane_of(b) == plane; });
  auto pick = pool.end();
  for (auto it = pool.begin(); it != pool.end(); ++it) {
    if (on_plane && plane_of(*it) != plane) continue;
    if (pick == pool.end()) pick = it;
    if (!most_worn) break;
    if (erases_[index(die, *it)] > erases_[index(die, *pick)]) pick = it;
  }
  const uint32_t b = *pick;
  pool.erase(pick);
  start_writing(index(die, b));
  modes_.set(die, b, mode);
  return b;
}

void BlockManager::close_block(uint32_t die, uint32_t block, uint64_t stamp) {
  const uint32_t gb = index(die, block);
  state_[gb] = State::Full;
  stamp_[gb] = stamp;
  link(die, gb);
  full_pos_[gb] = uint32_t(full_[die].size());
  full_[die].push_back(block);
}

void BlockManager::erased(uint32_t die, uint32_t block, State to, bool counted) {
  const uint32_t gb = index(die, block);
  if (valid_[gb] != 0)
    throw std::logic_error("die " + std::to_string(die) + " block " + std::to_string(block) +
                           ": released with valid pages");
  if (state_[gb] == State::Full) {
    unlink(die, gb);
    const uint32_t last = full_[die].back();
    full_[die][full_pos_[gb]] = last;
    full_pos_[index(die, last)] = full_pos_[gb];
    full_[die].pop_back();
    full_pos_[gb] = kNil;
  }
  state_[gb] = to;
  if (!counted) {
    // Retired at its count: the minimum moves if it was the last block there.
    if (!reserved(block) && erases_[gb] == min_erases_[die] && --at_min_[die] == 0)
      recount_min(die);
    return;
  }
  const uint32_t erases = ++erases_[gb];
  if (reserved(block)) return;
  max_erases_[die] = std::max(max_erases_[die], erases);
  // Counts only grow by one, so the minimum moves only when its last block leaves it (a retired
  // block leaves the count for good).
  if (erases - 1 == min_erases_[die] && --at_min_[die] == 0) recount_min(die);
  if (to == State::Free) free_[die].push_back(block);
}

uint32_t BlockManager::retired_blocks(uint32_t die, bool in_reserve) const {
  uint32_t n = 0;
  for (uint32_t b = 0; b < blocks_per_die_; ++b)
    n += reserved(b) == in_reserve && state_[index(die, b)] == State::Retired;
  return n;
}

void BlockManager::preset_block(uint32_t die, uint32_t block, uint32_t erases,
                                const std::vector<Lpn>* owners, bool full, BlockMode mode) {
  const uint32_t gb = index(die, block);
  erases_[gb] = erases;
  modes_.set(die, block, mode);
  if (!owners) return;
  start_writing(gb);
  uint32_t valid = 0;
  for (uint32_t p = 0; p < ppb_; ++p) {
    if ((*owners)[p] == kNoLpn) continue;
    owners_of(gb)[p] = uint32_t((*owners)[p]);
    ++valid;
  }
  die_valid_[die] = die_valid_[die] - valid_[gb] + valid;
  valid_[gb] = valid;
  if (full) close_block(die, block);
}

void BlockManager::preset_pool(uint32_t die, std::deque<uint32_t> pool) {
  free_[die] = std::move(pool);
  recount_min(die);
  uint32_t most = 0;
  for (uint32_t b = 0; b < blocks_per_die_; ++b)
    if (!reserved(b)) most = std::max(most, erases_[index(die, b)]);
  max_erases_[die] = most;
}

void BlockManager::recount_min(uint32_t die) {
  uint32_t least = ~0u, count = 0;
  for (uint32_t b = 0; b < blocks_per_die_; ++b) {
    if (reserved(b) || state_[index(die, b)] == State::Retired) continue;
    const uint32_t e = erases_[index(die, b)];
    if (e < least) {
      least = e;
      count = 0;
    }
    count += e == least;
  }
  min_erases_[die] = least;
  at_min_[die] = count;
}

void BlockManager::set_valid(const Ppa& ppa, Lpn lpn) {
  const uint32_t gb = index(ppa.die, ppa.block);
  owners_of(gb)[ppa.page] = uint32_t(lpn);
  if (state_[gb] == State::Full) unlink(ppa.die, gb);
  ++valid_[gb];
  ++die_valid_[ppa.die];
  if (state_[gb] == State::Full) link(ppa.die, gb);
}

void BlockManager::invalidate(const Ppa& ppa, uint64_t stamp) {
  const uint32_t gb = index(ppa.die, ppa.block);
  stamp_[gb] = stamp;
  owners_of(gb)[ppa.page] = kNoOwner;
  if (state_[gb] == State::Full) unlink(ppa.die, gb);
  --valid_[gb];
  --die_valid_[ppa.die];
  if (state_[gb] == State::Full) link(ppa.die, gb);
}

Lpn BlockManager::owner(const Ppa& ppa) const {
  const uint32_t gb = index(ppa.die, ppa.block);
  if (!mapped_[gb]) return kNoLpn;
  const uint32_t o = owners_[std::size_t(gb) * ppb_ + ppa.page];
  return o == kNoOwner ? kNoLpn : o;
}

bool BlockManager::greedy_victim(uint32_t die, uint32_t& block) const {
  for (uint32_t v = 0; v <= ppb_; ++v) {
    const uint32_t gb = heads_[die * (ppb_ + 1) + v];
    if (gb != kNil) {
      block = gb - die * blocks_per_die_;
      return true;
    }
  }
  return false;
}

BlockManager::EraseSummary BlockManager::erase_summary() const {
  return EraseSummary::of(erases_.size(), [this](std::size_t i) { return erases_[i]; });
}

void BlockManager::link(uint32_t die, uint32_t gb) {
  uint32_t& h = head(die, valid_[gb]);
  prev_[gb] = kNil;
  next_[gb] = h;
  if (h != kNil) prev_[h] = gb;
  h = gb;
}

void BlockManager::unlink(uint32_t die, uint32_t gb) {
  if (prev_[gb] != kNil)
    next_[prev_[gb]] = next_[gb];
  else
    head(die, valid_[gb]) = next_[gb];
  if (next_[gb] != kNil) prev_[next_[gb]] = prev_[gb];
  prev_[gb] = next_[gb] = kNil;
}

}  // namespace ssd::fw

namespace ssd::fw {

void BlockManager::state(StateArchive& a, uint64_t owner_bound) {
  a.section("block manager");
  const uint64_t blocks = state_.size();
  a.expect(uint64_t(blocks_per_die_), "blocks per die");
  a.expect(uint64_t(ppb_), "pages per block");
  for (std::deque<uint32_t>& pool : free_)
    a.indexes(pool, blocks_per_die_, blocks_per_die_, "free block");
  a.fixed(state_, "block states");
  a.fixed(valid_, "valid counts");
  a.fixed(erases_, "erase counts");
  a.fixed_indexes(prev_, blocks, "full-block list", kNil);  // blocks of the drive
  a.fixed_indexes(next_, blocks, "full-block list", kNil);
  a.fixed_indexes(heads_, blocks, "full-block list head", kNil);
  a.fixed(stamp_, "block stamps");
  a.fixed_indexes(full_pos_, blocks_per_die_, "full-block position", kNil);
  for (std::vector<uint32_t>& full : full_)
    a.indexes(full, blocks_per_die_, blocks_per_die_, "full block");
  a.fixed(min_erases_, "least erase counts");
  a.fixed_indexes(at_min_, uint64_t(blocks_per_die_) + 1, "blocks at the least erase count");
  a.fixed(max_erases_, "most erase counts");
  modes_.state(a);
  // Which blocks have a reverse map, then the map whole (a block never opened has a row of
  // zeros): one table, which loading maps from the file.
  a.fixed_indexes(mapped_, 2, "reverse-map flags");
  if (a.loading()) owners_.advise_huge();  // a saved drive is an aged one: it fills
  a.table(owners_, blocks * ppb_, "page owner", owner_bound, kNoOwner);
  if (!a.loading()) return;
  // Lists walked at most their length (a loop would hang GC), positions where they point.
  uint64_t listed = 0;
  for (const uint32_t head : heads_)
    for (uint32_t gb = head; gb != kNil; gb = next_[gb])
      if (++listed > blocks) StateArchive::invalid("full-block lists longer than the drive");
  for (uint32_t die = 0; die < full_.size(); ++die)
    for (uint32_t i = 0; i < full_[die].size(); ++i)
      if (full_pos_[index(die, full_[die][i])] != i)
        StateArchive::invalid("full blocks: a position that does not match the list");
  for (uint64_t b = 0; b < blocks; ++b) {
    if (uint8_t(state_[b]) > uint8_t(State::Retired))
      StateArchive::invalid("a block state of no kind");
    if (valid_[b] > ppb_) StateArchive::out_of_range("valid count", valid_[b], uint64_t(ppb_) + 1);
    const std::vector<uint32_t>& full = full_[b / blocks_per_die_];
    if (state_[b] == State::Full &&
        (full_pos_[b] >= full.size() || full[full_pos_[b]] != b % blocks_per_die_))
      StateArchive::invalid("full blocks: a full block missing from its die's list");
  }
  die_valid_.assign(die_valid_.size(), 0);
  for (uint64_t b = 0; b < blocks; ++b) die_valid_[b / blocks_per_die_] += valid_[b];
}

}  // namespace ssd::fw
