// PageLevelFtl's garbage collection (docs/ftl.md#gc-policies): foreground runs that keep a die's
// free blocks at ftl.gc_threshold_blocks, incremental steps, the victim choice that fits the
// die's room, and what a run that cannot gain says (or, under injected faults, the die out of
// room).
#include <stdexcept>
#include <string>

#include "firmware/ftl/PageLevelFtl.h"

namespace ssd::fw {

OpId PageLevelFtl::collect_garbage(uint32_t die) {
  Hal::Scope gc(hal_, Work::Gc);
  ++stats_.gc_runs;
  OpId erase = kNoOp;
  // A victim frees a block, but its copies and the pages written on their behalf (DFTL's
  // translation pages) fill pages again. A run that has reclaimed as many victims as the die
  // had full blocks, or has used up the free pool, only moves data around: it stops the run
  // rather than loop (issuing flash commands without end) or fail later without a cause.
  // Full dynamic SLC blocks go first, folded: each frees a block for at most a native block's
  // share of copies (the folded data takes fewer blocks than in SLC mode), so the cache gives
  // the main region its blocks back as the drive fills, and GC always gains.
  const uint32_t free_at_start = blocks_.free_blocks(die);
  const size_t limit = blocks_.full_blocks(die).size();
  size_t victims = 0;
  while (blocks_.free_blocks(die) < gc_threshold_) {
    try {
      // A fold's translation pages (DFTL) may find no block either.
      if (evict_dynamic_slc(die, &erase)) continue;
      // Under injected faults, a die whose GC cannot gain has run out of room (SpareReserve).
      const bool stuck = victims == limit && limit != 0;
      if (stuck && faulty()) {
        out_of_room(die);
        return erase;
      }
      if (stuck) throw no_progress(die, victims, free_at_start, "");
      if (!reclaim_one(die, &erase)) {
        if (faulty()) {
          out_of_room(die);
          return erase;
        }
        throw std::runtime_error(
            name() + " FTL: die " + std::to_string(die) + " has no reclaimable block: every full " +
            "block on it holds only valid data" +
            (blocks_.free_blocks(die) == 0
                 ? ", or more valid pages than its open block has room for (it has no free block)"
                 : "") +
            die_note(die) +
            ". Writes go to dies in fixed rotation and GC works within a die, so a workload whose "
            "live data piles up on one die can fill it; more over-provisioning delays this");
      }
    } catch (const BlockManager::NoFreeBlock& e) {
      // Under injected faults, a die with no block left for its victim's copies or the pages
      // written for them (their erases failing faster than GC reclaims) is out of room; the
      // copies made stay made.
      if (faulty()) {
        out_of_room(die);
        return erase;
      }
      throw no_progress(die, victims, free_at_start, e.what());
    }
    ++victims;
  }
  return erase;
}

void PageLevelFtl::collect_step(uint32_t die, uint32_t budget) {
  Hal::Scope gc(hal_, Work::Gc);
  GcProgress::Collecting& c = gc_.collecting[die];
  if (!c.active && !collect_dynamic_slc(die)) {
    const VictimPolicy::Choice choice = policy_->choose(blocks_, die, clock());
    charge_candidates(choice.examined);
    // Nothing reclaimable yet (a victim with no invalid page frees nothing): the hard
    // watermark's collection will say so if it stays that way.
    if (!choice.block) return;
    const uint32_t valid = blocks_.valid_pages(die, *choice.block);
    if (valid == slots_per_block_) return;
    c = GcProgress::Collecting{true, *choice.block, 0, gc_.copy_rate(valid)};
  }
  ++stats_.gc_incremental_steps;
  const bool slc = SlcCache::dynamic_block(blocks_, die, c.block);
  const uint32_t slots = slc ? slc_slots() : slots_per_block_;
  // Per unit placed: a page places units_ of them.
  move_valid(die, c.block, slots, c.next_page, (budget != 0 ? budget : c.rate) * units_,
             slc ? stats_.slc_pages_folded : stats_.gc_pages_copied);
  // Erased as soon as nothing valid is left, not one step later.
  while (c.next_page < slots &&
         blocks_.owner(Ppa{die, c.block, c.next_page}) == BlockManager::kNoLpn)
    ++c.next_page;
  if (c.next_page < slots) return;
  finish_collecting(die);
}

OpId PageLevelFtl::finish_collecting(uint32_t die) {
  GcProgress::Collecting& c = gc_.collecting[die];
  c.active = false;
  if (SlcCache::dynamic_block(blocks_, die, c.block)) {
    move_valid(die, c.block, slc_slots(), c.next_page, ~0u, stats_.slc_pages_folded);
    return folded(die, c.block);
  }
  move_valid(die, c.block, slots_per_block_, c.next_page, ~0u, stats_.gc_pages_copied);
  ++stats_.gc_blocks_reclaimed;
  return erase_moved(die, c.block);
}

void PageLevelFtl::drop_collecting(uint32_t die) {
  GcProgress::Collecting& c = gc_.collecting[die];
  c.active = false;
  // A dynamic SLC block goes back to the cache's full blocks, still the oldest.
  if (SlcCache::dynamic_block(blocks_, die, c.block)) slc_.full[die].push_front(c.block);
}

std::runtime_error PageLevelFtl::no_progress(uint32_t die, size_t victims, uint32_t free_at_start,
                                             const std::string& stopped) const {
  return std::runtime_error(
      name() + " FTL: die " + std::to_string(die) + ": garbage collection cannot make progress: " +
      std::to_string(victims) + " victims reclaimed in this run, free blocks " +
      std::to_string(free_at_start) + " -> " + std::to_string(blocks_.free_blocks(die)) +
      " (ftl.gc_threshold_blocks " + std::to_string(gc_threshold_) + ")" + die_note(die) +
      (stopped.empty() ? "" : "; copying the next victim stopped: " + stopped) +
      ": each victim's valid pages, and the pages written for them (translation pages), fill "
      "as much as the victim frees. More over-provisioning, or a larger ftl.map_cache_bytes "
      "for dftl, helps");
}

std::string PageLevelFtl::die_note(uint32_t die) const {
  uint64_t total = 0;
  for (uint32_t d = 0; d < dies_; ++d) total += blocks_.valid_on_die(d);
  std::string note = "; it holds " + std::to_string(blocks_.valid_on_die(die)) +
                     " valid units against a mean of " + std::to_string(total / dies_) + " per die";
  const uint32_t retired = blocks_.retired_blocks(die, false);
  if (retired != 0)
    note += ", and " + std::to_string(retired) +
            " of its blocks are retired (an erase or a program failed, flash.faults)";
  if (!faults_.failed(die).empty())
    note += "; " + std::to_string(faults_.failed(die).size()) +
            " more hold data of a failed program, to move before they are retired";
  return note;
}

void PageLevelFtl::charge_candidates(uint32_t examined) {
  // Each candidate: one firmware step and one DRAM access (its valid count).
  if (examined != 0) {
    hal_.compute(t_step_ * double(examined));
    hal_.dram_access(examined, false);
  }
  stats_.gc_candidates_examined += examined;
}

bool PageLevelFtl::reclaim_one(uint32_t die, OpId* erase) {
  GcProgress::Collecting& started = gc_.collecting[die];
  OpId last;
  // The victim an incremental collection left half done, unless its valid pages no longer fit
  // the die's room: it stays a full block, with fewer valid pages, for a later choice.
  if (started.active && !fits(die, started.block)) drop_collecting(die);
  if (started.active) {
    last = finish_collecting(die);
  } else {
    // On its last free block the die takes what fits with the fewest valid pages, whatever
    // the policy: a victim full of valid data would copy as much as it frees.
    const bool last_block = blocks_.free_blocks(die) <= 1;
    VictimPolicy::Choice c =
        last_block ? VictimPolicy::Choice{} : policy_->choose(blocks_, die, clock());
    if (last_block || (c.block && !fits(die, *c.block))) {
      const uint32_t examined = c.examined;
      c = fewest_valid(blocks_, die, [&](uint32_t b) { return fits(die, b); });
      c.examined += examined;
    }
    charge_candidates(c.examined);
    if (!c.block) return false;
    last = reclaim(die, *c.block, stats_.gc_pages_copied);
    ++stats_.gc_blocks_reclaimed;
  }
  if (erase) *erase = last;
  return true;
}

bool PageLevelFtl::fits(uint32_t die, uint32_t block) const {
  // A victim has fewer valid pages than a block holds: a free block takes them all.
  if (blocks_.free_blocks(die) != 0) return true;
  // Blocks hold mapping pages or data: the first valid page says which open block the copies
  // go to (a mapping page moves whole, a page per units_ slots; data units fill pages).
  const uint32_t valid = blocks_.valid_pages(die, block);
  const uint8_t h = placement_.copy_handle(die, block);
  const Stream* to = h == 0 ? &gc_streams_[die] : &placement_.gc(h)[die];
  for (uint32_t slot = 0; slot < slots_per_block_; ++slot) {
    const Lpn owner = blocks_.owner(Ppa{die, block, slot});
    if (owner == BlockManager::kNoLpn) continue;
    if (is_mapping(owner)) to = &map_streams_[die];
    break;
  }
  const uint32_t room = to->open() ? geometry_.pages_per_block() - to->next_page : 0;
  return (valid + units_ - 1) / units_ <= room;
}

OpId PageLevelFtl::reclaim(uint32_t die, uint32_t block, uint64_t& copies) {
  uint32_t next = 0;
  move_valid(die, block, slots_per_block_, next, ~0u, copies);
  return erase_moved(die, block);
}

}  // namespace ssd::fw
