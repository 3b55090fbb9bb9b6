// PageLevelFtl under injected faults (flash.faults, docs/reliability.md#injected-faults): an
// erase that failed retires its block; a program that failed has its data written again
// elsewhere, and its block, once its valid data has moved, is retired; the report counts the
// spare blocks left.
#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "firmware/ftl/PageLevelFtl.h"

namespace ssd::fw {

void PageLevelFtl::erase_status(uint32_t die, uint32_t block, uint32_t erases) {
  if (!hal_.functional() && faults_.erase_failed(die, block, erases)) {
    blocks_.retire_block(die, block);
    lost_block(die);
    return;
  }
  blocks_.release_block(die, block);
}

OpId PageLevelFtl::program_status(Ppa page, PageToken* data, OpId op) {
  const uint32_t die = page.die;
  // One-shot programming: the word line's status is its last page's, for all of its pages; the
  // controller keeps the data of those before it until then.
  const uint32_t pages = blocks_.modes().slc(die, page.block) ? 1 : geometry_.word_line_pages();
  if ((page.page + 1) % pages != 0) {
    faults_.hold(die, page.block, data, units_);
    return op;
  }
  std::vector<PageToken> word_line =
      pages > 1 ? faults_.release(die, page.block) : std::vector<PageToken>{};
  const uint32_t first = page.page + 1 - pages;
  if (!faults_.program_failed(die, page.block, first, blocks_.erase_count(die, page.block)))
    return op;
  hal_.compute(t_step_);  // the failed status handled
  // NVMe FDP's events: the block's handle had media reallocated; a handle whose open host blocks
  // closed had its reclaim unit changed.
  Placement::HandleFigures* handle =
      placement_.on() ? placement_.figures_of(die, page.block) : nullptr;
  const Stream* closed = close_stream_of(die, page.block);
  if (handle && closed && closed->tag < placement_.handles() &&
      closed == &host_streams(closed->tag)[die])
    ++placement_.figures(closed->tag).implicit_ru_changes;
  if (faults_.add_failed(die, page.block)) lost_block(die);  // retired once its data has moved
  if (handle) ++handle->media_reallocated;
  copy_handle_ = placement_.copy_handle(die, page.block);  // to its handle's GC stream
  word_line.insert(word_line.end(), data, data + units_);
  std::vector<std::pair<uint32_t, Stream*>> written;
  for (uint32_t p = 0; p + 1 < pages; ++p)
    rewrite(Ppa{die, page.block, first + p}, &word_line[std::size_t(p) * units_], op, handle,
            written);
  const OpId again =
      rewrite(page, &word_line[std::size_t(pages - 1) * units_], op, handle, written);
  // One-shot programming: the word lines the data went to are ended with padding, so their
  // programs run now; what waits for them (a fold, a full buffer) would otherwise wait for ever.
  for (const auto& [to, s] : written) seal(to, *s);
  return again;
}

OpId PageLevelFtl::rewrite(const Ppa& page, PageToken* data, OpId failed,
                           Placement::HandleFigures* handle,
                           std::vector<std::pair<uint32_t, Stream*>>& written) {
  const uint32_t die = page.die;
  // As GC would move them: a mapping page with mapping pages, data with GC's copies. A page of
  // no data (a word line's padding) stays behind.
  std::vector<Lpn> owners;
  for (uint32_t u = 0; u < units_; ++u)
    if (const Lpn owner = blocks_.owner(unit_slot(page, u)); owner != BlockManager::kNoLpn)
      owners.push_back(owner);
  if (owners.empty()) return failed;
  const Lpn first = blocks_.owner(unit_slot(page, 0));
  const bool mapping = first != BlockManager::kNoLpn && is_mapping(first);
  std::optional<Ppa> slot;
  try {
    slot = rewrite_slot(die, mapping);
  } catch (const NoRoom&) {
    // Nowhere to write the data again: it is lost (a mapping page's cannot be).
    if (mapping || !lose_for_no_room(owners)) throw;
    return failed;
  }
  const Ppa again = *slot;
  for (uint32_t u = 0; u < units_; ++u) {
    const Ppa from = unit_slot(page, u);
    const Lpn owner = blocks_.owner(from);
    if (owner == BlockManager::kNoLpn) continue;  // padding
    const Ppa to = unit_slot(again, u);
    if (mapping) {  // moved whole
      invalidate_page(from);
      set_valid_page(to, owner);
      moved(owner, to);
      break;
    }
    blocks_.invalidate(from, clock());
    blocks_.set_valid(to, owner);
    moved(owner, to);
    if (handle) ++handle->units_reallocated;
  }
  // The data is still in the controller's buffer; the failed program's status lets it go.
  // program() reads this one's status in turn.
  std::array<OpId, config::kMaxUnitsPerPage> after;
  after.fill(failed);
  ++stats_.pages_programmed;
  const std::pair<uint32_t, Stream*> to{again.die,
                                        &(mapping ? map_streams_ : copy_streams())[again.die]};
  if (std::find(written.begin(), written.end(), to) == written.end()) written.push_back(to);
  return program(again, data, after.data());
}

std::optional<uint32_t> PageLevelFtl::die_with_block(const std::vector<Stream>& streams,
                                                     uint32_t from) const {
  for (uint32_t i = 0; i < dies_; ++i) {
    const uint32_t die = (from + i) % dies_;
    if (!faults_.gone(die) && (streams[die].open() || blocks_.free_blocks(die) != 0)) return die;
  }
  return std::nullopt;
}

Ppa PageLevelFtl::rewrite_slot(uint32_t die, bool mapping) {
  // Found before any mapping changes: a rewrite with nowhere to go leaves the drive as it was.
  std::vector<Stream>& streams = mapping ? map_streams_ : copy_streams();
  if (const auto to = die_with_block(streams, die))
    return mapping ? allocate(*to, streams[*to]) : place_copy(*to);
  throw NoRoom(name() + " FTL: die " + std::to_string(die) +
               ": a program failed and no die has a free block to write its data "
               "again" +
               die_note(die) + " (flash.faults: blocks lost faster than GC frees them)");
}

std::optional<Ppa> PageLevelFtl::place_units(const UnitWrite* units, uint32_t n) {
  try {
    return place_page();
  } catch (const NoRoom&) {
    std::vector<Lpn> lpns(n);
    for (uint32_t u = 0; u < n; ++u) lpns[u] = units[u].lpn;
    if (!lose_for_no_room(lpns)) throw;
    return std::nullopt;
  }
}

bool PageLevelFtl::lose_for_no_room(const std::vector<Lpn>& lpns) {
  Hal::Scope mapping(hal_, Work::Mapping);
  for (const Lpn lpn : lpns)
    if (!drop(lpn)) return false;  // the first: nothing changed
  hal_.dram_access(uint32_t(lpns.size()), true);
  faults_.units_lost_no_room += lpns.size();
  if (on_lost_) on_lost_(lpns, UnitLoss::NoRoom);
  return true;
}

void PageLevelFtl::lost_block(uint32_t die) {
  faults_.spare()->lost(die, hal_.now().to_seconds(),
                        blocks_.retired_blocks(die, false) + faults_.failed(die).size(),
                        filled_blocks(die));
}

void PageLevelFtl::out_of_room(uint32_t die) {
  faults_.spare()->out_of_room(die, hal_.now().to_seconds(), filled_blocks(die));
}

uint32_t PageLevelFtl::die_with_room(std::vector<Stream>& streams, uint32_t& rotation) {
  for (uint32_t tries = 0; tries < dies_; ++tries) {
    const uint32_t die = rotation;
    SpareReserve& spare = *faults_.spare();
    spare.back_in_room(die, filled_blocks(die));
    if (spare.takes_writes(die)) {
      make_room(die);
      if (spare.takes_writes(die)) return die;
    }
    // Out of room: its set ends here, as at a pause (seal_word_lines), and it takes no more.
    if (!faults_.gone(die)) seal(die, streams[die]);
    rotation = (die + 1) % dies_;
  }
  return rotation;  // not reached: with every die out of room, each takes writes again
}

Stream* PageLevelFtl::close_stream_of(uint32_t die, uint32_t block) {
  for (std::vector<Stream>* streams : all_streams()) {
    Stream& s = (*streams)[die];
    bool holds = false;
    for (uint32_t l = 0; l < s.blocks.size(); ++l)
      holds |= s.blocks[l] == block && geometry_.lane_open(s, l);
    if (!holds) continue;
    seal(die, s);  // one-shot programming: the other lanes' word lines ended with padding
    close_lanes(die, s);
    return &s;
  }
  return nullptr;
}

bool PageLevelFtl::background_step() {
  check_dead_die();
  try {
    return idle_step();
  } catch (const BlockManager::NoFreeBlock&) {
    if (!faulty()) throw;
    out_of_blocks();
    return false;  // until the next host command
  }
}

void PageLevelFtl::maintain() {
  check_dead_die();
  try {
    relocate_failed();
    if (!refreshing()) return;
    last_host_ = hal_.now();
    refresh_step(false);
    refresh_.host_core_s += (hal_.now() - last_host_).to_seconds();
  } catch (const BlockManager::NoFreeBlock&) {
    if (!faulty()) throw;
    out_of_blocks();
  }
}

void PageLevelFtl::out_of_blocks() {
  for (uint32_t die = 0; die < dies_; ++die)
    if (!faults_.gone(die) && blocks_.free_blocks(die) == 0) out_of_room(die);
}

bool PageLevelFtl::relocate_failed() {
  for (uint32_t i = 0; i < dies_; ++i) {
    const uint32_t die = (faults_.failed_die + i) % dies_;
    for (const uint32_t block : faults_.failed(die)) {
      // An SLC block is folded (it is among the cache's full ones); GC's victim finishes itself.
      const GcProgress::Collecting& c = gc_.collecting[die];
      if (!blocks_.full(die, block) || (c.active && c.block == block) || !fits(die, block))
        continue;
      Hal::Scope gc(hal_, Work::Gc);
      reclaim(die, block, stats_.gc_pages_copied);
      faults_.failed_die = (die + 1) % dies_;
      return true;
    }
  }
  return false;
}

bool PageLevelFtl::retire_failed(uint32_t die, uint32_t block) {
  if (!faults_.remove_failed(die, block)) return false;
  blocks_.retire_block(die, block, false);
  if (refresh_.on()) refresh_.erased(die, block);
  return true;
}

void PageLevelFtl::register_faults(const config::DriveConfig& cfg) {
  // The spare: blocks outside the SLC reserve beyond those the logical capacity fills.
  const uint32_t native_per_die =
      blocks_.blocks_per_die() - cfg.ftl.slc_cache_blocks_per_plane * cfg.flash.planes_per_die;
  const uint64_t filled = (logical_units_ + slots_per_block_ - 1) / slots_per_block_;
  const auto spare = double(uint64_t(dies_) * native_per_die - filled);
  // The data in flight: a die's share of a full write buffer, in whole sets of its streams'
  // blocks, at least as much as GC keeps (the writes in flight without a buffer, or a small one).
  const uint64_t lanes = host_streams_.front().blocks.size();
  const uint64_t flush_units = (cfg.write_buffer_units() + dies_ - 1) / dies_;
  const uint64_t flush_sets =
      (flush_units + slots_per_block_ * lanes - 1) / (slots_per_block_ * lanes);
  const auto in_flight = uint32_t(std::max<uint64_t>(gc_threshold_, flush_sets * lanes));
  faults_.spare().emplace(dies_, native_per_die, gc_threshold_, in_flight,
                          cfg.flash.faults.die_out_of_room);
  const auto retired = [this](bool in_reserve) {
    return retired_total_and_most(
        dies_, [&](uint32_t d) { return blocks_.retired_blocks(d, in_reserve); });
  };
  StatGroup& g = statistics_.group("faults");
  g.counter("erase_failures", StatUnit::Blocks,
            "Erases that failed (flash.faults), each retiring its block for good.",
            faults_.erase_failures)
      .counter("program_failures", StatUnit::Pages,
               "Page programs that failed (flash.faults), each writing its data again elsewhere; "
               "its block is retired once its valid data has moved.",
               faults_.program_failures)
      .derived("blocks_awaiting_retirement", StatUnit::Blocks,
               "Blocks whose program failed with valid data still to move at the end of the run.",
               [this] { return double(faults_.failed_blocks()); })
      .counter("units_lost_no_room", StatUnit::Units,
               "Logical units whose data no die had a block left for (blocks lost faster than GC "
               "frees them, the drive read-only): lost, their reads failing with an unrecovered "
               "read error until the host writes them again.",
               faults_.units_lost_no_room)
      .derived("spare_blocks", StatUnit::Blocks,
               "Blocks outside the SLC reserve beyond those the logical capacity fills, before "
               "any failure.",
               [spare] { return spare; })
      .derived("spare_blocks_left", StatUnit::Blocks,
               "The spare blocks less the retired ones outside the SLC reserve, and less the good "
               "ones of a die that stopped answering (flash.faults.dead_die); negative: the dies "
               "left cannot hold the whole logical capacity.",
               [this, spare, retired, native_per_die] {
                 const uint32_t dead = faults_.config().dead_die;
                 const double gone_blocks =
                     faults_.gone(dead) ? native_per_die - blocks_.retired_blocks(dead, false)
                                        : 0.0;
                 return spare - retired(false).first - gone_blocks;
               })
      .derived("most_retired_on_a_die", StatUnit::Blocks,
               "Retired blocks outside the SLC reserve on the die with the most: GC works within "
               "a die, so that die runs out of spare first.",
               [retired] { return double(retired(false).second); })
      .derived("dies_out_of_room", StatUnit::None,
               "Dies out of room at the end: their room (good blocks beyond those their valid "
               "data fills) down to their reserve (the free blocks GC keeps, "
               "ftl.gc_threshold_blocks, and as many again or their share of the write buffer), "
               "or nothing left for their GC to reclaim; they take no host data.",
               [this] { return double(faults_.spare()->dies_out()); });
  faults_.spare()->figures(g);
  if (cfg.ftl.slc_cache_blocks_per_plane != 0)
    g.derived("slc_blocks_retired", StatUnit::Blocks,
              "Retired blocks of the static SLC cache, which shrinks by them.",
              [retired] { return double(retired(true).first); });
}

}  // namespace ssd::fw
