#include "firmware/ftl/PageLevelFtl.h"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <string>

namespace ssd::fw {

PageLevelFtl::PageLevelFtl(const config::DriveConfig& cfg, Hal& hal)
    : hal_(hal),
      t_step_(cfg.controller.fw_per_page_us(), sc_core::SC_US),
      blocks_(cfg.flash.dies(), cfg.flash.blocks_per_die(),
              cfg.flash.pages_per_block * cfg.units_per_page(), cfg.flash.blocks_per_plane,
              cfg.ftl.slc_cache_blocks_per_plane),
      dies_(cfg.flash.dies()),
      logical_units_(cfg.logical_units()),
      bulk_model_holds_(cfg.ftl.gc_policy == config::GcPolicy::Greedy &&
                        cfg.ftl.wear_leveling != config::WearLeveling::Static),
      geometry_(cfg),
      faults_(cfg.flash.faults, dies_),
      units_(cfg.units_per_page()),
      slots_per_block_(cfg.flash.pages_per_block * cfg.units_per_page()),
      slots_per_die_(cfg.flash.pages_per_die() * cfg.units_per_page()),
      gc_threshold_(cfg.ftl.gc_threshold_blocks),
      incremental_(cfg.ftl.gc_mode == config::GcMode::Incremental),
      soft_blocks_(cfg.ftl.gc_soft_blocks),
      copies_per_write_(cfg.ftl.gc_copies_per_write),
      gc_(dies_, slots_per_block_),
      bg_target_(cfg.ftl.background_gc ? 2 * cfg.ftl.gc_threshold_blocks : 0),
      wear_leveling_(cfg.ftl.wear_leveling == config::WearLeveling::Static),
      wl_threshold_(cfg.ftl.wl_threshold_erases),
      policy_(make_victim_policy(cfg.ftl, cfg.flash.dies())),
      placement_(
          cfg.ftl.fdp, dies_, cfg.flash.blocks_per_die(),
          cfg.ftl.allocation == config::Allocation::ChannelFirst ? 1 : cfg.flash.planes_per_die),
      host_streams_(dies_, Stream(cfg.ftl.allocation == config::Allocation::ChannelFirst
                                      ? 1
                                      : cfg.flash.planes_per_die)),
      gc_streams_(dies_, Stream(1, false, placement_.persistent() ? 0 : placement_.shared_tag())),
      map_streams_(dies_, Stream(1, false, placement_.mapping_tag())),
      slc_(cfg, uint32_t(host_streams_.front().blocks.size())),
      refresh_(cfg, hal) {
  if (slc_.on) register_slc_speed(cfg.unit_bytes());
  if (refresh_.on()) register_refresh();
  if (faults_.config().any()) register_faults(cfg);
  if (faults_.config().dead_die_at_ms > 0) faults_.dead.register_figures(statistics_);
  if (geometry_.word_line_pages() > 1)
    statistics_.group("flash_ops")
        .counter("word_line_pads", StatUnit::Pages,
                 "Pages programmed without data to finish a word line (one-shot programming).",
                 word_line_pads_);
}

Ppa PageLevelFtl::allocate(uint32_t die, Stream& s, bool most_worn) {
  const uint32_t lanes = uint32_t(s.blocks.size());
  const uint32_t pages = geometry_.pages(s);
  const uint32_t plane = lanes == 1 ? BlockManager::kAnyPlane : s.lane;
  uint32_t& block = s.blocks[s.lane];
  if (s.next_page == 0) {
    block = s.slc ? slc_.open(die, plane, blocks_, gc_target())
                  : blocks_.open_block(die, most_worn, plane);
    if (refreshing()) refresh_.opened(die, block, hal_.now());
    if (placement_.on()) placement_.opened(die, block, s.tag);
  }
  const Ppa p{die, block, s.next_page};
  if (s.next_page + 1 == pages) {
    if (s.slc)
      slc_.full[die].push_back(block);
    else
      blocks_.close_block(die, block, clock());
  }
  if (++s.lane == lanes) {
    s.lane = 0;
    s.next_page = (s.next_page + 1) % pages;
  }
  return p;
}

Ppa PageLevelFtl::place(std::vector<Stream>& streams, uint32_t& rotation, bool host) {
  check_dead_die();
  const bool faulty = this->faulty();
  const uint32_t die = faulty ? die_with_room(streams, rotation) : rotation;
  Stream* s = &streams[die];
  if (host && slc_.on) {
    if (slc_.fold_on_full && !power_lost_) {
      while (!slc_.room(die, blocks_, gc_target()) && slc_.fold_pending(die)) {
        fold(die);
        ++stats_.slc_foreground_folds;
      }
    }
    const bool room = host_in_slc(die);
    if (room) {
      s = &slc_.streams[die];
      ++stats_.slc_host_pages;
    }
    placed_host_page(room);
  }
  // Moved on before GC, which may place mapping pages in a rotation of its own.
  if (geometry_.ends_set(*s)) rotation = (rotation + 1) % dies_;
  gc_.host_page();  // a host page may make blocks reclaimable again
  if (!faulty) {
    make_room(die);
    return allocate(die, *s);
  }
  try {
    return allocate(die, *s);
  } catch (const BlockManager::NoFreeBlock&) {
    // Every die out of room (the drive read-only, or about to be): the data in flight goes to
    // the first die from this one with a block left.
    if (const auto to = die_with_block(streams, die)) return allocate(*to, streams[*to]);
    throw NoRoom(name() + " FTL: die " + std::to_string(die) +
                 " has no free block for the data in flight, nor has any other die, "
                 "and every die is out of room" +
                 die_note(die) + " (flash.faults: blocks lost faster than GC frees them)");
  }
}

void PageLevelFtl::make_room(uint32_t die) {
  if (needs_room(die)) {
    if (incremental_) {
      // The hard watermark: collection the host page waits for, not to be passed.
      Hal::Urgent urgent(hal_);
      ++stats_.gc_hard_hits;
      gc_.hold[die] = collect_garbage(die);
    } else {
      collect_garbage(die);
    }
    if (wear_leveling_) level_wear(die);
  } else if (incremental_ && !power_lost_ && blocks_.free_blocks(die) < soft_blocks_) {
    collect_step(die, copies_per_write_);
  }
}

Ppa PageLevelFtl::place_mapping_for_gc() {
  // Under injected faults, to a die out of room only when no other can take it, and never the
  // last free blocks of a die, as many as its streams' lanes (what its own GC needs to start
  // copying): GC does not run on the die a mapping page lands on, and a die drained by another's
  // mapping pages (the drive read-only, no host page coming to run its GC) would have no block
  // left for its own GC. With no die left to take it, the collecting die's GC stops there.
  const auto takes = [&](uint32_t die) {
    const Stream& s = map_streams_[die];
    return s.open() || blocks_.free_blocks(die) > (faults_.spare() ? s.blocks.size() : 0);
  };
  for (uint32_t tries = 0; tries < 2 * dies_; ++tries) {
    const uint32_t die = map_die_;
    map_die_ = (map_die_ + 1) % dies_;
    if (tries < dies_ && faults_.spare() && !faults_.spare()->takes_writes(die)) continue;
    if (takes(die)) return allocate(die, map_streams_[die]);
  }
  throw BlockManager::NoFreeBlock("no die has a free block for a mapping page");
}

struct PageLevelFtl::CopyPage {
  Ppa page;
  uint32_t n = 0;
  std::array<PageToken, config::kMaxUnitsPerPage> data{};
  std::array<OpId, config::kMaxUnitsPerPage> from{};
};

OpId PageLevelFtl::move_valid(uint32_t die, uint32_t block, uint32_t pages, uint32_t& next,
                              uint32_t budget, uint64_t& copies) {
  copy_handle_ = placement_.copy_handle(die, block);
  if (Placement::HandleFigures* f = placement_.on() ? placement_.figures_of(die, block) : nullptr) {
    const uint64_t before = copies;
    const OpId last = move_units(die, block, pages, next, budget, copies);
    f->copied_units += copies - before;
    return last;
  }
  return move_units(die, block, pages, next, budget, copies);
}

OpId PageLevelFtl::move_units(uint32_t die, uint32_t block, uint32_t pages, uint32_t& next,
                              uint32_t budget, uint64_t& copies) {
  OpId last = kNoOp;
  if (units_ == 1) {
    for (; next < pages && budget > 0; ++next) {
      const Ppa from{die, block, next};
      const Lpn owner = blocks_.owner(from);
      if (owner == BlockManager::kNoLpn) continue;
      last = relocate(from, owner);
      ++copies;
      --budget;
    }
    return last;
  }
  // Copies fill whole pages: past the budget, until the page is full; the victim's last page
  // is padded.
  CopyPage page;
  for (; next < pages && (budget > 0 || page.n != 0); ++next) {
    const Ppa from{die, block, next};
    const Lpn owner = blocks_.owner(from);
    if (owner == BlockManager::kNoLpn) continue;
    // A mapping page moves whole; blocks hold mapping pages or data, so it is met at its unit 0.
    if (is_mapping(owner)) {
      last = relocate(from, owner);
      copies += units_;
      budget -= std::min(budget, units_);
      next += units_ - 1;
      continue;
    }
    relocate_unit(from, owner, page);
    ++copies;
    if (budget > 0) --budget;
    if (page.n == units_) last = program_copies(page);
  }
  if (page.n != 0) last = program_copies(page);
  return last;
}

void PageLevelFtl::relocate_unit(const Ppa& from, Lpn owner, CopyPage& page) {
  hal_.compute(t_step_);
  hal_.dram_access(1, false);  // reverse map: whose unit is this
  if (page.n == 0) page.page = place_copy(from.die);
  const Ppa to = unit_slot(page.page, page.n);
  page.from[page.n] = read_unit(from, page.data[page.n]);
  blocks_.invalidate(from, clock());
  blocks_.set_valid(to, owner);
  hal_.dram_access(1, true);  // reverse map of the new location
  moved(owner, to);
  ++page.n;
}

OpId PageLevelFtl::program_copies(CopyPage& page) {
  pad(page.data.data(), page.from.data(), page.n);
  page.n = 0;
  ++stats_.pages_programmed;
  return program(page.page, page.data.data(), page.from.data());
}

OpId PageLevelFtl::erase_moved(uint32_t die, uint32_t block) {
  // The pages written for the copies (DFTL's translation pages) go first, while the victim still
  // holds the data they map. With no block left for them, the victim, its data all moved, is
  // erased first to give them one; those that still find none stay pending, written with the
  // next victim's (a victim's units can touch more translation pages than a block holds).
  bool written = true;
  try {
    after_copies();
  } catch (const BlockManager::NoFreeBlock&) {
    if (faulty()) throw;  // the die is out of room (collect_garbage)
    written = false;
  }
  if (retire_failed(die, block)) return kNoOp;
  const uint32_t erases = blocks_.erase_count(die, block);
  if (placement_.on())
    if (Placement::HandleFigures* f = placement_.figures_of(die, block)) ++f->blocks_erased;
  const OpId erase = hal_.flash_erase(die, block);
  erase_status(die, block, erases);
  if (refresh_.on()) refresh_.erased(die, block);
  ++stats_.blocks_erased;
  if (!written) {
    try {
      after_copies();
    } catch (const BlockManager::NoFreeBlock&) {
    }
  }
  return erase;
}

OpId PageLevelFtl::relocate(const Ppa& from, Lpn owner) {
  hal_.compute(t_step_);
  hal_.dram_access(1, false);  // reverse map: whose page is this
  std::array<PageToken, config::kMaxUnitsPerPage> data;
  std::array<OpId, config::kMaxUnitsPerPage> ready;
  for (uint32_t u = 0; u < units_; ++u)
    ready[u] = read_unit(Ppa{from.die, from.block, from.page + u}, data[u]);
  // A moved mapping page stays with mapping pages, on its die: it frees its old page there.
  const Ppa page =
      is_mapping(owner) ? allocate(from.die, map_streams_[from.die]) : place_copy(from.die);
  const Ppa to = unit_slot(page, 0);
  invalidate_page(from);
  set_valid_page(to, owner);
  hal_.dram_access(1, true);  // reverse map of the new location
  moved(owner, to);
  ++stats_.pages_programmed;
  return program(page, data.data(), ready.data());
}

void PageLevelFtl::level_wear(uint32_t die) {
  if (blocks_.max_erases(die) - blocks_.min_erases(die) <= wl_threshold_) return;
  // The least-erased full block holds the coldest data: moving it lets the block rejoin the
  // pool. Free blocks below the threshold come back into use by themselves (FIFO pool).
  Hal::Scope wl(hal_, Work::WearLeveling);
  const auto& full = blocks_.full_blocks(die);
  if (full.empty()) return;
  hal_.compute(t_step_ * double(full.size()));
  hal_.dram_access(uint32_t(full.size()), false);  // each block's erase count
  uint32_t cold = 0, fewest = ~0u;
  for (uint32_t b : full) {
    if (blocks_.erase_count(die, b) < fewest) {
      fewest = blocks_.erase_count(die, b);
      cold = b;
    }
  }
  if (blocks_.max_erases(die) - fewest <= wl_threshold_) return;
  reclaim(die, cold, stats_.wl_pages_copied);
  ++stats_.wl_blocks_moved;
}

bool PageLevelFtl::idle_step() {
  if (relocate_failed() || refresh_step(true)) return true;
  Hal::Scope gc(hal_, Work::Gc);
  for (uint32_t i = 0; i < dies_; ++i) {
    const uint32_t die = (gc_.bg_die + i) % dies_;
    if (gc_.bg_stuck[die] || faults_.gone(die) || blocks_.free_blocks(die) >= bg_target_) continue;
    if (reclaim_one(die)) {
      ++stats_.gc_background_blocks;
      gc_.bg_die = (die + 1) % dies_;  // spread the idle time over the dies
      gc_.watch_background(die, blocks_.free_blocks(die), uint32_t(blocks_.full_blocks(die).size()),
                           stats_.host_pages_written);
      return true;
    }
    gc_.stuck(die);
  }
  return fold_in_background();
}

void PageLevelFtl::page_level_state(StateArchive& a, uint64_t owner_bound) {
  blocks_.state(a, owner_bound);
  a.section("page-level FTL");
  const uint32_t blocks = blocks_.blocks_per_die();
  gc_.victims_state(a, blocks);
  policy_->state(a);
  for (std::vector<Stream>* streams : {&host_streams_, &gc_streams_, &map_streams_, &slc_.streams})
    geometry_.state(a, *streams, blocks);
  placement_.state(a, geometry_);
  slc_.state(a, blocks, slots_per_block_);
  a.index(next_die_, dies_, "host die rotation");
  a.index(map_die_, dies_, "mapping die rotation");
  gc_.background_state(a);
}

std::vector<std::vector<Stream>*> PageLevelFtl::all_streams() {
  std::vector<std::vector<Stream>*> all{&host_streams_, &gc_streams_, &map_streams_, &slc_.streams};
  for (std::vector<Stream>* s : placement_.streams()) all.push_back(s);
  return all;
}

void PageLevelFtl::tag_open_blocks() {
  if (!placement_.on()) return;
  for (std::vector<Stream>* streams : all_streams())
    for (uint32_t die = 0; die < dies_; ++die) {
      const Stream& s = (*streams)[die];
      for (uint32_t l = 0; l < s.blocks.size(); ++l)
        if (geometry_.lane_open(s, l)) placement_.opened(die, s.blocks[l], s.tag);
    }
}

}  // namespace ssd::fw
