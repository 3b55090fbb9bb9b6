#pragma once
// What the page-mapped FTLs (page, dftl) share: where pages go and how blocks come back. Its
// parts have files of their own: allocation (ftl.allocation, docs/ftl.md#allocation) and the
// streams, firmware/ftl/Streams.h; the SLC cache (docs/ftl.md#slc-cache), firmware/ftl/SlcCache.h;
// garbage collection (ftl.gc_mode, docs/ftl.md#gc-modes), firmware/ftl/GcProgress.h; injected
// faults (flash.faults), firmware/ftl/InjectedFaults.h; flexible data placement's handles
// (ftl.fdp, docs/ftl.md#flexible-data-placement), firmware/ftl/Placement.h.
//
// Read refresh (ftl.read_refresh, firmware/gc/ReadRefresh.h, PageLevelRefresh.cpp): every unit
// read counts as a read of its block; a block due is rewritten as a GC victim is, in steps,
// before a host command's FTL work (maintain()) and in idle time, before background GC.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "firmware/BlockManager.h"
#include "firmware/Ftl.h"
#include "firmware/ftl/GcProgress.h"
#include "firmware/ftl/InjectedFaults.h"
#include "firmware/ftl/Placement.h"
#include "firmware/ftl/SlcCache.h"
#include "firmware/ftl/SpareReserve.h"
#include "firmware/ftl/Streams.h"
#include "firmware/gc/ReadRefresh.h"
#include "firmware/gc/VictimPolicy.h"

namespace ssd::fw {

class PageLevelFtl : public Ftl {
 public:
  // Between host commands (firmware/ftl/PageLevelFaults.cpp): the work of idle_step() and
  // before a command's FTL work (moving a failed block's data, refresh). Under injected faults,
  // a die with no block left for it (a program failing on the way closed a stream early) is out
  // of room (out_of_blocks); the work done stays done, the rest waits for the next command.
  bool background_step() override;
  void maintain() override;
  uint32_t die_set_pages() const override {
    return geometry_.fill_planes() ? uint32_t(host_streams_.front().blocks.size()) : 1;
  }
  uint32_t pages_on_die() const override;
  void settle() override;
  bool seal_word_lines(bool all) override;
  void power_lost() override { power_lost_ = true; }
  bool read_only() const override { return faults_.read_only(); }
  std::optional<BlockManager::EraseSummary> erase_summary() const override {
    return blocks_.erase_summary();
  }
  uint64_t free_blocks() const override {
    uint64_t n = 0;
    for (uint32_t d = 0; d < blocks_.dies(); ++d) n += blocks_.free_blocks(d);
    return n;
  }
  const BlockManager& blocks() const { return blocks_; }
  const BlockModes* block_modes() const override { return &blocks_.modes(); }
  const DynamicSlc& dynamic_slc() const { return slc_.dynamic; }
  const ReadRefresh& read_refresh() const { return refresh_; }
  // With injected faults: the dies out of room and the read-only state.
  const std::optional<SpareReserve>& spare_reserve() const { return faults_.spare(); }
  // A die that stopped answering (flash.faults.dead_die): the logical ranges it took, in order.
  const std::vector<LostRange>& lost_ranges() const override { return faults_.dead.lost_ranges(); }
  void place_by(uint8_t handle) override {
    if (placement_.on()) placement_.select(handle);
  }
  void update_handle(uint8_t handle) override;
  const Placement& placement() const { return placement_; }

 protected:
  PageLevelFtl(const config::DriveConfig& cfg, Hal& hal);

  // Under injected faults, data no die has a block left for (blocks lost faster than GC frees
  // them; docs/reliability.md#when-a-die-runs-out-of-room): place() and rewrite_slot() throw it.
  struct NoRoom : std::runtime_error {
    using std::runtime_error::runtime_error;
  };
  // The next page of the host stream: picks the die in rotation, makes room on it (GC, then
  // wear levelling), and allocates the page. The caller maps it and programs it.
  Ppa place_page() { return place(host_streams(placement_.handle()), next_die_, true); }
  // As place_page, for the `n` host units `units` the page will hold: nullopt when no die has
  // room left for them (NoRoom), the units then lost (lose_for_no_room); an FTL that cannot lose
  // units (drop) lets NoRoom stop the run.
  std::optional<Ppa> place_units(const UnitWrite* units, uint32_t n);
  // The units `lpns`, their data with nowhere to go, are lost: each marked lost in the mapping
  // (drop), counted (faults.units_lost_no_room) and reported (Ftl::on_units_lost,
  // UnitLoss::NoRoom). False, nothing changed: the FTL cannot lose units.
  bool lose_for_no_room(const std::vector<Lpn>& lpns);
  // As place_page, for a mapping page (DFTL's translation pages): the next die in a rotation
  // of their own (sharing the host pages' would put data and mapping pages on alternate dies
  // when each write evicts a dirty entry), its mapping stream. Mapping pages live in blocks
  // of their own, as DFTL's translation blocks: they are rewritten far more often than data,
  // so their blocks empty fast and data blocks stay dense. Mixed with data, a short-lived
  // mapping page per copied page would leave blocks at most half data, and GC could not gain.
  Ppa place_mapping_page() { return place(map_streams_, map_die_, false); }
  // Whether a mapping page has nowhere to go: the drive read-only (injected faults) and no die
  // with an open mapping block or a free one. Nothing is then written for it: what it would
  // have held stays in DRAM.
  bool mapping_page_stranded() const { return read_only() && !die_with_block(map_streams_, 0); }
  // A mapping page GC writes while collecting a die (DFTL's updates for the pages it moved):
  // the same rotation, with no GC on the die it lands on. Kept on the collected die, they
  // would make each victim cost its copies plus about as many mapping pages (one per moved
  // page when the table is large), whose old copies lie on other dies, so GC on a full die
  // could not gain; spread, the other dies absorb them within their reserve.
  Ppa place_mapping_for_gc();
  // Preconditioning in bulk (Ftl::precondition_bulk, docs/ftl.md#preconditioning): a model
  // of the writes on block valid counts (firmware/ftl/SteadyStateModel.h) gives the blocks'
  // state, which is then laid out, each logical page's physical page number set in `l2p` (the
  // subclass's mapping table); the logical units below `written` written, the others not. False
  // (nothing changed) where the model does not hold: a victim policy other than greedy, static wear
  // levelling. With `flash_map` (DFTL), its translation pages too
  // (firmware/ftl/TranslationPagesModel.h).
  bool fill_steady_state(uint64_t written, uint64_t random_writes, class L2pTable& l2p,
                         class MappingInFlash* flash_map = nullptr);
  // GC or wear levelling moved the valid page of `owner` (BlockManager's owner tag) to `to`:
  // the subclass updates its mapping.
  virtual void moved(Lpn owner, const Ppa& to) = 0;
  // Whether `owner` tags a mapping page (moved within the mapping stream).
  virtual bool is_mapping(Lpn /*owner*/) const { return false; }
  // The unit `lpn` was on a die that stopped answering: the subclass's mapping marks it lost
  // (read_lost), until a write or trim of it. Whether that wrote its entry in DRAM.
  virtual bool lose(Lpn lpn) = 0;
  // The mapping pages (is_mapping) the dead die `die` held are written again from the mapping the
  // firmware still has (DFTL's translation pages).
  virtual void rebuild_mapping(const std::vector<Lpn>& /*pages*/, uint32_t /*die*/) {}
  // The unit `lpn`'s latest data has nowhere to go (lose_for_no_room): the subclass's mapping
  // marks it lost and its older data, if on flash, invalid. False: the FTL cannot (DFTL).
  virtual bool drop(Lpn /*lpn*/) { return false; }
  // A die that stops answering (flash.faults.dead_die, firmware/ftl/PageLevelDeadDie.cpp): at
  // the firmware's first step at or after flash.faults.dead_die_at_ms (a host command's read or
  // page placement, its upkeep, idle work) it learns the die is gone and takes it out of use.
  void check_dead_die() {
    if (faults_.dead.due(hal_.now())) die_died();
  }
  // A host read of a unit lost with its die: no flash command, an unrecovered read error.
  ReadResult read_lost(Lpn lpn, PageToken& out) {
    ++faults_.dead.reads_lost;
    out = PageToken{lpn, 0};
    return {kNoOp, false, true};
  }
  // After the valid pages of a victim were moved, before its erase (DFTL writes its batched
  // translation updates).
  virtual void after_copies() {}
  // The subclass's state(): the block manager (page owners below `owner_bound`), the streams,
  // the SLC cache's pools, the GC and folding cursors.
  void page_level_state(StateArchive& a, uint64_t owner_bound);
  uint64_t logical_units() const { return logical_units_; }
  uint64_t physical_slots() const { return uint64_t(dies_) * slots_per_die_; }
  // The next page of the die's GC stream, for pages written on behalf of GC.
  Ppa place_copy(uint32_t die) { return allocate(die, copy_streams()[die], wear_leveling_); }
  // Programs a host page placed by place_page(): it waits for `data_from` and, if its die was
  // below the hard watermark, for the erase that brought it back.
  OpId program_host(const Ppa& ppa, PageToken data, OpId data_from) {
    placed_host_units(ppa, 1);
    return program(ppa, &data, &data_from, incremental_ ? gc_.take_hold(ppa.die) : kNoOp);
  }
  // As program_host, for a page of units_per_page() units placed by place_page(): its first
  // `n` hold host data (`data`, each waiting for `data_from`), the rest are padded.
  OpId program_host_units(const Ppa& page, PageToken* data, OpId* data_from, uint32_t n) {
    pad(data, data_from, n);
    ++stats_.pages_programmed;
    placed_host_units(page, n);
    return program(page, data, data_from, incremental_ ? gc_.take_hold(page.die) : kNoOp);
  }
  // Packs `batch` (units smaller than the page) a page at a time: `before(units, m)` runs
  // for the next m units before their page is placed (DFTL brings their entries in first, so
  // GC on the way finds them cached), then `map(unit, slot)` maps each to its slot of the
  // page and one program carries them, a tail the batch does not fill padded.
  template <class Before, class Map>
  void pack_units(const UnitWrite* batch, std::size_t n, OpId* programs, Before before, Map map) {
    std::array<PageToken, config::kMaxUnitsPerPage> data;
    std::array<OpId, config::kMaxUnitsPerPage> from;
    for (std::size_t i = 0; i < n;) {
      const uint32_t m = uint32_t(std::min<std::size_t>(units_, n - i));
      before(batch + i, m);
      const std::optional<Ppa> placed = place_units(batch + i, m);
      if (!placed) {  // lost, with nowhere to go
        std::fill(programs + i, programs + i + m, kNoOp);
        i += m;
        continue;
      }
      const Ppa page = *placed;
      for (uint32_t u = 0; u < m; ++u) {
        const UnitWrite& w = batch[i + u];
        map(w, unit_slot(page, u));
        ++stats_.host_pages_written;
        data[u] = w.data;
        from[u] = w.data_from;
      }
      const OpId program = program_host_units(page, data.data(), from.data(), m);
      for (uint32_t u = 0; u < m; ++u) programs[i + u] = program;
      i += m;
    }
  }
  // Programs the flash page `page` (with units smaller than the page, all of them: `data[u]`
  // and what brings it, `from[u]`) after `after`. A program that fails (flash.faults) has its
  // data written again elsewhere (program_status); the program returned is the one that holds it.
  OpId program(const Ppa& page, PageToken* data, OpId* from, OpId after = kNoOp) {
    if (placement_.on()) placement_.count_program(page.die, page.block);
    const OpId op = units_ == 1 ? hal_.flash_program(page, data[0], from[0], after)
                                : hal_.flash_program_units(page, data, from, units_, after);
    if (faults_.config().program_fail_probability > 0.0 && !hal_.functional())
      return program_status(page, data, op);
    return op;
  }
  // The free blocks per die garbage collection keeps: the soft watermark when incremental.
  uint32_t gc_target() const { return incremental_ ? soft_blocks_ : gc_threshold_; }

  // BlockManager stamps: the controller clock in its own ticks (cost-benefit ages).
  uint64_t clock() const { return hal_.now().value(); }
  // The mapping works on unit slots: slot s of a block is unit s mod U of its page s / U, for
  // U mapping units a page (ftl.mapping_unit_bytes; U = 1, slot = page, when the unit is the
  // page). Ppa::page is a slot in the mapping and the block manager, a page for the flash.
  Ppa to_ppa(uint64_t ppn) const {
    const uint64_t in_die = ppn % slots_per_die_;
    return Ppa{uint32_t(ppn / slots_per_die_), uint32_t(in_die / slots_per_block_),
               uint32_t(in_die % slots_per_block_)};
  }
  uint64_t to_ppn(const Ppa& p) const {
    return p.die * slots_per_die_ + uint64_t(p.block) * slots_per_block_ + p.page;
  }
  uint32_t units_per_page() const { return units_; }
  // Unit `u` of the flash page `page`, as a slot.
  Ppa unit_slot(const Ppa& page, uint32_t u) const {
    return Ppa{page.die, page.block, page.page * units_ + u};
  }
  // A mapping page (DFTL's translation page) is a whole flash page: it takes every slot of
  // its page (from `first`, its unit 0), owned alike, so its block's valid count weighs it as
  // a page of data, and it is invalidated and moved whole.
  void set_valid_page(const Ppa& first, Lpn owner) {
    for (uint32_t u = 0; u < units_; ++u)
      blocks_.set_valid(Ppa{first.die, first.block, first.page + u}, owner);
  }
  void invalidate_page(const Ppa& first) {
    for (uint32_t u = 0; u < units_; ++u)
      blocks_.invalidate(Ppa{first.die, first.block, first.page + u}, clock());
  }
  // Reads the unit in `slot`: its page, that unit over the bus.
  OpId read_unit(const Ppa& slot, PageToken& out) {
    if (refreshing())
      refresh_.read(slot.die, slot.block, blocks_.erase_count(slot.die, slot.block), hal_.now(),
                    !copying() && blocks_.full(slot.die, slot.block));
    if (units_ == 1) return hal_.flash_read(slot, out);
    return hal_.flash_read(Ppa{slot.die, slot.block, slot.page / units_}, out, slot.page % units_);
  }

  Hal& hal_;
  sc_core::sc_time t_step_;
  BlockManager blocks_;

 private:
  // The bulk model works on copies of the streams and pools, and lays its state out here.
  friend class SteadyStateModel;

  void reset_own_figures() override { placement_.reset_figures(); }
  // Flexible data placement: handle h's host streams; the GC streams copies of a block go to
  // (Placement::copy_handle; copy_handle_ is the block being moved's, set by move_valid and a
  // failed program's rewrite); every stream set (host, GC, mapping, SLC, the handles').
  std::vector<Stream>& host_streams(uint8_t h) {
    return h == 0 ? host_streams_ : placement_.host(h);
  }
  std::vector<Stream>& copy_streams() {
    return copy_handle_ == 0 ? gc_streams_ : placement_.gc(copy_handle_);
  }
  std::vector<std::vector<Stream>*> all_streams();
  void placed_host_units(const Ppa& page, uint32_t n) {
    if (placement_.on()) placement_.count_host(page.die, page.block, n);
  }
  // After bulk preconditioning laid blocks out: the streams' open blocks take their tags.
  void tag_open_blocks();

  // The die `rotation` names (which moves on), made room on, and its stream in `streams`
  // (for `host` pages, its SLC stream while the SLC cache has room).
  Ppa place(std::vector<Stream>& streams, uint32_t& rotation, bool host);
  // GC on the die (then wear levelling) when a page about to be placed on it needs room.
  void make_room(uint32_t die);
  // Under injected faults: from the die `rotation` names on, the first that takes host data
  // (SpareReserve), made room on first (its GC may find it out of room); a die passed has its
  // open word line padded and the rotation moves past it.
  uint32_t die_with_room(std::vector<Stream>& streams, uint32_t& rotation);
  // Injected faults in the measured run: dies may run out of room.
  bool faulty() const { return faults_.spare() && !hal_.functional(); }
  // The die ran out of room now (SpareReserve).
  void out_of_room(uint32_t die);
  // Blocks the die's valid data fills.
  uint64_t filled_blocks(uint32_t die) const {
    return (blocks_.valid_on_die(die) + slots_per_block_ - 1) / slots_per_block_;
  }
  // With an SLC cache: counts a host page placed now, in the cache or not (the cache's speed
  // figures, FtlStats), and registers those figures (unit_bytes: a mapping unit's data).
  void placed_host_page(bool in_slc);
  void register_slc_speed(uint64_t unit_bytes);
  // Folds up to `pages` valid pages of the die's SLC block being folded (the oldest full one
  // if none is), and once none is left erases it; returns the last command issued.
  OpId fold(uint32_t die, uint32_t pages = ~0u);
  // GC's first choice: the die's dynamic SLC block incremental GC or folding started, else its
  // oldest full one, folded whole if its valid pages fit the die's room; false if it has none
  // that fits. `erase`: the block's erase.
  bool evict_dynamic_slc(uint32_t die, OpId* erase);
  // Incremental GC's first choice, likewise: the die's oldest full dynamic SLC block becomes
  // its victim (gc_.collecting), folded a step at a time; false if it has none.
  bool collect_dynamic_slc(uint32_t die);
  uint32_t slc_slots() const { return slc_.region.pages_per_block * units_; }
  // A page about to be placed on the die needs GC first: below the watermark, or after a power
  // loss only when the die has no free block left.
  bool needs_room(uint32_t die) const {
    return blocks_.free_blocks(die) < (power_lost_ ? 1u : gc_threshold_);
  }
  // A block whose valid pages all moved: erased, and back in its pool (static or free).
  OpId folded(uint32_t die, uint32_t block);
  // Background: a word line per lane of folding on every die whose previous step has ended,
  // paced by the first; whether any die has SLC blocks left to fold.
  bool fold_in_background();
  // `most_worn`: open the free block erased most often (copies are older, colder data).
  Ppa allocate(uint32_t die, Stream& s, bool most_worn = false);
  // Pads the stream's open word lines (every lane's) with pages of no data; whether it did.
  bool seal(uint32_t die, Stream& s);
  // seal() on a die with no free block for the lanes after s.lane (at a word line's first page).
  void seal_lanes_with_blocks(uint32_t die, Stream& s);
  // Programs `page` with no data (a pad).
  void pad_page(const Ppa& page);
  // The stream the next host page on `die` goes to: the SLC cache's while it has room, unless
  // a main-region word line there waits for pages (one-shot programming fills it first).
  bool host_in_slc(uint32_t die) const {
    return slc_.on && !geometry_.word_line_open(host_streams_[die]) &&
           slc_.room(die, blocks_, gc_target());
  }
  // Reclaims victims (full dynamic SLC blocks first) until the die has gc_threshold_ free
  // blocks; returns the last erase.
  OpId collect_garbage(uint32_t die);
  // Incremental: moves up to `budget` valid pages of the die's victim (choosing one if it has
  // none, a full dynamic SLC block first; 0: the victim's own rate), and erases the victim once
  // no valid page is left.
  void collect_step(uint32_t die, uint32_t budget);
  // The incremental victim's remaining valid pages moved and the block erased: a dynamic SLC
  // block folded (back in the free pool, a fold), another a GC victim. Returns the erase.
  OpId finish_collecting(uint32_t die);
  // The incremental victim given up (its pages no longer fit the die's room): a dynamic SLC
  // block back at the front of the cache's full blocks.
  void drop_collecting(uint32_t die);
  // The model error of a GC run on `die` that frees nothing; `stopped`: why copying a victim
  // failed, if it did (no block for its pages).
  std::runtime_error no_progress(uint32_t die, size_t victims, uint32_t free_at_start,
                                 const std::string& stopped) const;
  // Chooses a victim on `die` (charging the candidates examined) and reclaims it, or finishes
  // the victim being collected incrementally; false if the die has nothing reclaimable.
  // `erase`: the victim's erase.
  bool reclaim_one(uint32_t die, OpId* erase = nullptr);
  // One step of idle-time work: a failed block's data moved, refresh, background GC on the next
  // die below its target, then folding; whether there was any.
  bool idle_step();
  // Whether the valid pages of a full block fit the room the die has for them: a free block,
  // or the pages its open block left (the GC block for data, the mapping block for mapping
  // pages). On a die with no free block, which DFTL's GC can leave behind (its translation
  // pages go to other dies, without GC there: place_mapping_for_gc), a victim that does not fit
  // would need a block the die does not have; reclaim_one then takes the fewest-valid block
  // that fits instead of the policy's choice.
  bool fits(uint32_t die, uint32_t block) const;
  // The firmware's cost of the candidates a victim policy examined.
  void charge_candidates(uint32_t examined);
  // Copies the block's valid pages to the die's GC stream and erases it; returns the erase.
  OpId reclaim(uint32_t die, uint32_t block, uint64_t& copies);
  // Copies up to `budget` valid pages of the block from page `*next` on (to `pages`),
  // advancing `*next` past the pages examined; returns the last program.
  OpId move_valid(uint32_t die, uint32_t block, uint32_t pages, uint32_t& next, uint32_t budget,
                  uint64_t& copies);
  // move_valid's copying, after the copies' streams are chosen and around its figures.
  OpId move_units(uint32_t die, uint32_t block, uint32_t pages, uint32_t& next, uint32_t budget,
                  uint64_t& copies);
  // After the copies: the subclass's batched updates, the erase; the block is free again.
  OpId erase_moved(uint32_t die, uint32_t block);
  // Moves a whole page, from its unit 0 in `from`: every page when the unit is the page, a
  // mapping page otherwise (its units read one by one, which the back end serves with one
  // array read, and programmed together).
  OpId relocate(const Ppa& from, Lpn owner);
  // Units smaller than the page: copies gather in a page of the die's GC stream, programmed
  // once full (or padded, at the victim's end).
  struct CopyPage;  // firmware/ftl/PageLevelFtl.cpp
  void relocate_unit(const Ppa& from, Lpn owner, CopyPage& page);
  OpId program_copies(CopyPage& page);
  // What a unit of padding holds: no data, and a logical unit no data has (past the host's units
  // and the mapping pages', within what the NAND's tokens hold), so counting programmed units by
  // what they hold counts it for no namespace (model/controller/NamespaceFlash.h).
  PageToken pad_token() const { return PageToken{2 * physical_slots() - 1, 0}; }
  // Fills `data` and `data_from` from `n` on with padding (nothing to wait for).
  void pad(PageToken* data, OpId* data_from, uint32_t n) {
    for (uint32_t u = n; u < units_; ++u) {
      data[u] = pad_token();
      data_from[u] = kNoOp;
      ++stats_.units_padded;
    }
  }
  void level_wear(uint32_t die);
  // Read refresh records the run (not preconditioning, not a restart).
  bool refreshing() const { return refresh_.on() && !hal_.functional(); }
  // A copy read empties its block (GC, wear levelling, folding, a refresh): no block to queue; nor
  // is an open block, which is rewritten only once full.
  bool copying() const { return hal_.work() != Work::HostData && hal_.work() != Work::Mapping; }
  // A step of the scan under way: up to units_per_step full blocks examined (0: every one of every
  // die), a firmware step and a DRAM access each.
  void scan_for_refresh();
  // A step of the rewrite under way (ftl.read_refresh.units_per_step valid units; the block erased
  // once none is left), begun if none is, once the last step's flash work has ended; whether it
  // took one.
  bool refresh_one(bool idle);
  // Begins rewriting the first queued block from the rotation with room for its units (`idle`:
  // of data older than the last host command); whether it found one.
  bool begin_rewrite(bool idle);
  // A step of the scan under way or due, then refresh_one(); whether there was work (idle time:
  // also while a scan is under way). `idle`: from background work.
  bool refresh_step(bool idle);
  // Whether a queued block is still one to rewrite: full, in the main region, not the victim
  // incremental GC works on.
  bool refreshable(uint32_t die, uint32_t block) const;
  void register_refresh();
  // Injected faults (flash.faults, firmware/ftl/PageLevelFaults.cpp): the erase of `block`, after
  // `erases` earlier ones, released it to the free pool or, failed, retired it. Faults are of the
  // run: preconditioning, the drive's past, draws none.
  void erase_status(uint32_t die, uint32_t block, uint32_t erases);
  // The program of `page` (`op`, its units' `data`) read back as the NAND's draw gives it (one-shot
  // programming: a word line's, at its last page): failed, its stream's open blocks are closed
  // (the failed one kept for relocate_failed()) and each failed page written again (rewrite).
  OpId program_status(Ppa page, PageToken* data, OpId op);
  // A failed page's units mapped to a page of a GC stream (a mapping page: a mapping stream's;
  // rewrite_slot) and programmed there once the `failed` program's status is in; again while
  // the program fails. A page of no data is left. `written`: the streams written to, by die.
  OpId rewrite(const Ppa& page, PageToken* data, OpId failed, Placement::HandleFigures* handle,
               std::vector<std::pair<uint32_t, Stream*>>& written);
  // The page a failed program's data is written to again: on its die, or, with no block left
  // there (its erases failing), on the next die with room, so a GC run that stops for want of
  // a block (collect_garbage) never leaves data mapped to the failed page. No die with room: an
  // error naming the die.
  Ppa rewrite_slot(uint32_t die, bool mapping);
  // Under injected faults, the first die from `from` on (in rotation) whose stream in `streams`
  // takes a page without GC: an open block, or a free one; none if no die has either.
  std::optional<uint32_t> die_with_block(const std::vector<Stream>& streams, uint32_t from) const;
  // Closes every open block of the die's stream that has `block` open (none: the failed page was
  // its block's last): the stream opens new ones, from page 0, at its next page. Returns that
  // stream (null: none).
  Stream* close_stream_of(uint32_t die, uint32_t block);
  // Closes the stream's open blocks where their pages end (as full: GC may take them) and
  // returns the pages left unwritten; the stream opens new blocks at its next page.
  uint32_t close_lanes(uint32_t die, Stream& s);
  // Moves the valid data of one block whose program failed (on the first die from the
  // rotation with one whose pages fit) out, and retires it; whether it did. Before a host
  // command's FTL work and in idle time.
  bool relocate_failed();
  // Every die with no free block left is out of room (SpareReserve).
  void out_of_blocks();
  // After its valid data moved, a block whose program failed is retired, not erased; whether
  // `block` was one.
  bool retire_failed(uint32_t die, uint32_t block);
  void register_faults(const config::DriveConfig& cfg);
  // The die lost a block for good: whether the drive turns read-only (SpareReserve).
  void lost_block(uint32_t die);
  // The firmware learns that the die flash.faults.dead_die stopped answering: it finishes the
  // word lines it left open there, marks every unit mapped there lost, and sends the die
  // nothing more.
  void die_died();
  // For GC's errors: the die's valid units beside the mean over the dies (a die that holds more
  // than its share fills first), and its retired blocks if any.
  std::string die_note(uint32_t die) const;

  uint32_t dies_;
  uint64_t logical_units_;
  bool bulk_model_holds_;  // fill_steady_state's model is the configured GC
  StreamGeometry geometry_;
  uint64_t word_line_pads_ = 0;  // pages seal() programmed
  InjectedFaults faults_;
  uint32_t units_;            // mapping units per page
  uint32_t slots_per_block_;  // unit slots: the mapping's and the block manager's
  uint64_t slots_per_die_;
  uint32_t gc_threshold_;
  // The supply failed: the flush takes the free blocks GC keeps, GC runs only on a die that has
  // none left (needs_room), and the SLC cache is not folded.
  bool power_lost_ = false;
  bool incremental_;           // ftl.gc_mode
  uint32_t soft_blocks_;       // ftl.gc_soft_blocks
  uint32_t copies_per_write_;  // 0: the victim's own rate
  GcProgress gc_;
  uint32_t bg_target_;  // background GC stops at this many free blocks per die
  bool wear_leveling_;
  uint32_t wl_threshold_;
  std::unique_ptr<VictimPolicy> policy_;
  Placement placement_;
  uint8_t copy_handle_ = 0;
  std::vector<Stream> host_streams_, gc_streams_, map_streams_;  // map: opened on first use
  SlcCache slc_;
  uint32_t next_die_ = 0;
  uint32_t map_die_ = 0;  // the mapping pages' rotation
  ReadRefresh refresh_;
  uint32_t refresh_die_ = 0;    // where refresh looks first
  OpId refresh_end_ = kNoOp;    // the last rewrite's erase
  sc_core::sc_time last_host_;  // when the last host command's FTL work began
};

}  // namespace ssd::fw
