#pragma once
// Base of the block-mapped FTLs (block, bast, bast_star, fast, last): the block map, the
// page-mapped log blocks, the per-die free pools and the merges. Subclasses decide only where
// a host page goes (which log block, or the data block) and which log block to clean.
//
// Layout. Logical block b (logical pages b x P .. b x P + P - 1, P = pages per block) lives on
// die b mod dies, so consecutive logical blocks alternate channels (dies are numbered
// channel-major) and requests spanning blocks run in parallel; the pages of one logical block
// share a die. Its data block is any physical block of that die, a page at its fixed offset.
// Each die has its own log blocks ("slots"), free pool (FIFO) and merges, all die-local.
//
// NAND programs a block's pages in ascending order, so a data block has a write pointer:
// offsets below it are programmed (with the page's data or, where there was none, padding);
// offsets above it are erased.
//
// Merges clean a log block (Work::Merge):
//   switch:  the log block holds offsets 0..P-1 of one logical block, in order, all current:
//            it becomes the data block; the old data block is erased.
//   partial: the same but incomplete (offsets 0..k-1): the current copies of the offsets from
//            k on are copied into it, then it switches.
//   full:    the current copies of every offset of the logical block (from data and log
//            blocks) are copied into a new block; the old data block is erased. A shared
//            log block is cleaned by a full merge of every logical block it holds pages of,
//            then erased. A log block with no current page left is erased without a merge.
//
// Costs. DRAM (one access per entry): host read 2 reads (block map, log map; block FTL 1);
// host write into a log block 2 reads + 2 writes (block map, log map look-ups; log map and
// log reverse-map updates; a block FTL replacement block 1 + 1, the block map); trim 2 reads + 1
// write when the page was mapped. In a merge, 1 read per log page scanned and per offset examined,
// 1 write per log entry dropped and 1 block-map write, and t_fw_per_page_us per page copied or
// padded. Victim searches: t_fw_per_page_us and 1 DRAM read per candidate log (or data) block.
//
// Injected faults (flash.faults): a block whose erase failed is retired (out of its die's free
// pool for good; nothing to move, as a block is erased once its data has moved). A block whose
// program failed is replaced at once by a fresh one holding its pages at the same pages (so the
// block map, log index and open update keep their page numbers), and retired. Logical blocks
// live on their die, so a die needs a good block for each of its logical blocks, its log blocks
// and one for a merge; its room is the good blocks beyond those. At two (the drive still writes
// what it acknowledged once read-only) the die is out of room and the drive turns read-only
// (SpareReserve, policy read_only).
//
// A die that stops answering (flash.faults.dead_die) takes its logical blocks with it: their
// reads fail, host writes to them fail (refuses()), trims unmap.
//
// Files: LogBlockFtl.cpp (tables, pools, log blocks, writes), LogBlockMerges.cpp (merges),
// LogBlockPrecondition.cpp (bulk preconditioning by replay), LogBlockFaults.cpp (injected
// faults), LogBlockDeadDie.cpp (a dead die); the layout and its rules: LogBlockLayout.h.
#include <cstdint>
#include <deque>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

#include "config/FaultConfig.h"
#include "firmware/Ftl.h"
#include "firmware/NullHal.h"
#include "firmware/ftl/DeadDie.h"
#include "firmware/ftl/Divisor.h"
#include "firmware/ftl/LogBlockLayout.h"
#include "firmware/ftl/LogIndex.h"
#include "firmware/ftl/SpareReserve.h"

namespace ssd::fw {

// The family's counters, counted in its shared code (a subclass's own figures are StatKeys in
// its .cpp). A block FTL's copy-on-update counts as a full merge. Padding: pages programmed with no
// data to fill the offsets below a block-mapped page (NAND programs a block's pages in order).
struct LogBlockStats {
  uint64_t merges_switch = 0;
  uint64_t merges_partial = 0;
  uint64_t merges_full = 0;
  uint64_t merge_pages_copied = 0;
  uint64_t pages_padded = 0;
  uint64_t log_blocks_erased = 0;  // log blocks erased when cleaned (not switched)
  // block with replacement blocks (docs/ftl.md#block-mapping): replacement blocks folded
  // (valid pages of data and replacement block copied to a fresh block, both erased).
  uint64_t folds = 0;
};

class LogBlockFtl : public Ftl {
 public:
  // Log blocks per die and their kind, and the drive's rules for them: LogBlockLayout.h.
  using Layout = LogBlockLayout;

  ReadResult read(Lpn lpn, PageToken& out) override;
  // The subclass's write_page; on a die that stopped answering, a page the write buffer
  // acknowledged before is lost (the host's writes there fail from then on: refuses()), as is
  // one no block is left for on a read-only drive (faults.units_lost_no_room).
  OpId write(Lpn lpn, const PageToken& data, OpId data_from) final;
  void trim(Lpn lpn) override;
  bool refuses(Lpn first, Lpn last) override;
  const std::vector<LostRange>& lost_ranges() const override { return dead_.lost_ranges(); }
  std::string name() const override { return name_; }
  void state(StateArchive& a) final;
  uint64_t mapping_table_bytes() const override { return table_bytes_; }
  std::optional<BlockManager::EraseSummary> erase_summary() const override;
  uint64_t free_blocks() const override {
    uint64_t n = 0;
    for (const Die& d : dies_) n += d.free.size();
    return n;
  }
  bool read_only() const override { return spare_ && spare_->read_only(); }
  void begin_request() override { in_request_ = true; }
  void end_request() override;
  // Replays the writes of preconditioning through this FTL's own decisions on a Hal that does
  // nothing (no flash command, no per-page copy: the tables change as the merges would change
  // them), then lays the blocks out on the NAND: the state the simulated path leaves, page
  // for page. Not with a write buffer or the lifetime manager, which reorder the writes.
  bool precondition_bulk(uint64_t written, uint64_t random_writes) override;

  uint32_t log_blocks_per_die() const { return uint32_t(per_die_slots_.value()); }
  const LogBlockStats& log_stats() const { return log_stats_; }

 protected:
  using Lbn = uint64_t;
  static constexpr uint32_t kNone = Layout::kNone;
  static constexpr Lbn kNoLbn = ~Lbn{0};

  // How a shared log area picks the log block to clean when all of its blocks are full.
  enum class Victim : uint8_t { Fifo, FewestValid, FewestLbns };

  // A group of log slots of one die written as one stream (FAST's random log, LAST's hot or
  // cold partition): pages are appended to `current` until it is full.
  struct Area {
    std::vector<uint32_t> slots;
    uint32_t current = kNone;
    Victim victim = Victim::Fifo;
  };

  // Laid out by Layout::of(cfg); throws ssd::ConfigError if the drive breaks a rule of
  // Layout::check().
  LogBlockFtl(const config::DriveConfig& cfg, Hal& hal, std::string name);

  virtual OpId write_page(Lpn lpn, const PageToken& data, OpId data_from) = 0;

  Lbn lbn_of(Lpn lpn) const { return by_ppb_.quot(lpn); }
  uint32_t offset_of(Lpn lpn) const { return uint32_t(by_ppb_.rem(lpn)); }
  uint32_t die_of(Lbn lbn) const { return uint32_t(by_dies_.rem(lbn)); }

  // Host write of `lpn` appended to log slot `slot` of `die` (opened on a free block if empty).
  OpId append(uint32_t die, uint32_t slot, Lpn lpn, const PageToken& data, OpId data_from);
  // Host write appended to a shared log area; cleans a victim when the area is full.
  OpId append_to_area(uint32_t die, Area& area, Lpn lpn, const PageToken& data, OpId data_from);
  // Host write straight into the data block: in place when `lpn`'s offset is at or above the
  // write pointer (padding the gap), else copy-on-update (a full merge taking the page). In a
  // request, copy-on-update copies the offsets below the page into the new block and leaves
  // the update open: the request's next pages of the block go there in place, and the rest of
  // the old block is copied when the request leaves the block (one merge per request).
  OpId write_to_data_block(Lpn lpn, const PageToken& data, OpId data_from);

  // Cleans a log slot by the cheapest merge its contents allow; leaves it empty.
  void clean(uint32_t die, uint32_t slot);
  // Folds a dedicated slot's logical block: a full merge of it (counted in merges_full and
  // folds), then the slot's block erased; leaves the slot empty.
  void fold(uint32_t die, uint32_t slot);
  // Called by read() after the block-map look-up, before the flash read: what the firmware
  // does to find the page (the block FTL reads replacement blocks' spare areas).
  virtual void locate(Lpn /*lpn*/) {}
  // The slot dedicated to `lbn` (kNone if none); dedication lasts until the slot is cleaned.
  uint32_t dedicated_slot(Lbn lbn) const;
  void dedicate(uint32_t die, uint32_t slot, Lbn lbn);
  // Of slots [first, first + count) (none empty), the one least recently written; charges one
  // candidate each.
  uint32_t least_recently_written(uint32_t die, uint32_t first, uint32_t count);
  // Of slots [first, first + count), the first empty one, or kNone.
  uint32_t first_empty(uint32_t die, uint32_t first, uint32_t count) const;
  // Victim search cost of one candidate, and of `n` (none while replaying: the search finds
  // its answer without them, and a Hal that does nothing would still be called n times).
  void examine_candidate();
  void examine_candidates(uint64_t n);
  bool replaying() const { return replaying_; }

  bool slot_empty(uint32_t die, uint32_t slot) const {
    return dies_[die].slots[slot].block == kNone;
  }
  bool slot_full(uint32_t die, uint32_t slot) const { return dies_[die].slots[slot].next == ppb_; }
  uint32_t slot_next(uint32_t die, uint32_t slot) const { return dies_[die].slots[slot].next; }
  uint32_t slot_block(uint32_t die, uint32_t slot) const { return dies_[die].slots[slot].block; }
  // The page of slot `slot` holding the current copy of `lpn`, or kNone.
  uint32_t page_in_slot(Lpn lpn, uint32_t slot) const {
    const uint32_t at = log_find(lpn);
    return at != LogIndex::kNil && slot_of(at) == slot ? at % ppb_ : kNone;
  }
  // Whether the current copy of `lpn` is in a log block.
  bool in_log(Lpn lpn) const { return pages_.logged(lpn); }
  bool in_request() const { return in_request_; }

  // The subclass's own part of state() (its areas, wear levelling's orders).
  virtual void own_state(StateArchive& /*a*/) {}
  // An area's slots and current slot (state()).
  void area_state(StateArchive& a, Area& area) const;

  // Called after each block erase, with the die and block (bast_star levels wear on it).
  virtual void on_erase(uint32_t /*die*/, uint32_t /*block*/) {}
  // Called when a logical block's data block or its data_since() changes, before the old
  // block (`old`, kNone if none) is erased (bast_star keeps its data blocks in order of age).
  virtual void on_data_block(Lbn /*lbn*/, uint32_t /*old*/) {}

  // Per-block bookkeeping exposed to wear levelling.
  uint32_t erase_count(uint32_t die, uint32_t block) const {
    return block_[size_t(die) * blocks_per_die_ + block].erases;
  }
  uint64_t last_erase(uint32_t die, uint32_t block) const {
    return block_[size_t(die) * blocks_per_die_ + block].erased_at;
  }
  uint64_t die_erases(uint32_t die) const { return die_erases_[die]; }
  // The logical block whose data block `block` is, or kNoLbn; how many data blocks the die has.
  Lbn owner(uint32_t die, uint32_t block) const {
    const uint32_t o = block_[size_t(die) * blocks_per_die_ + block].owner;
    return o == kNone ? kNoLbn : o;
  }
  uint64_t data_blocks(uint32_t die) const { return die_data_blocks_[die]; }
  uint32_t blocks_per_die() const { return blocks_per_die_; }
  uint32_t dies() const { return uint32_t(dies_.size()); }
  uint64_t logical_blocks() const { return lbns_; }
  uint32_t data_block(Lbn lbn) const { return lbn_[lbn].data_block; }
  // The data block's write pointer: offsets from it on are erased.
  uint32_t data_next(Lbn lbn) const { return lbn_[lbn].data_next; }
  // When the logical block's data block was last written (a write sequence number).
  uint64_t data_since(Lbn lbn) const { return lbn_[lbn].data_since; }
  // Copies the data block of `lbn` into free block `to` of its die (taken out of the pool),
  // erases the old one and maps `to` instead. Wear levelling's move; counts wl_pages_copied.
  void move_data_block(Lbn lbn, uint32_t to);
  bool is_free(uint32_t die, uint32_t block) const;

  Hal* hal_;  // the drive's, or none_ while replaying
  sc_core::sc_time t_step_;
  uint32_t ppb_;
  Divisor by_ppb_, by_dies_, per_die_slots_;
  // Each counter a subclass increments is registered by it (reset_stats() zeroes them through
  // the registry); those it never increments stay 0.
  LogBlockStats log_stats_;

 private:
  LogBlockFtl(const config::DriveConfig& cfg, Hal& hal, std::string name, Layout layout);

  struct Slot {
    uint32_t block = kNone;  // physical block; kNone: the slot holds no block
    uint32_t next = 0;       // next page to program
    uint32_t valid = 0;      // pages holding the current copy of their logical page
    uint32_t lbns = 0;       // logical blocks with a current page in it
    Lbn lbn = kNoLbn;        // the logical block it is dedicated to, or kNoLbn (shared)
    uint64_t last_write = 0;
    uint32_t older = kNone, newer = kNone;  // the die's slots in order of last_write
    // Per page below `next`: the logical page written there (a partial merge's copies, which
    // switch at once, leave what was there).
    std::vector<Lpn> lpns;
  };
  struct Die {
    std::deque<uint32_t> free;
    std::vector<Slot> slots;
    uint32_t empty = 0;                       // slots holding no block
    uint32_t oldest = kNone, newest = kNone;  // the slots' order of last_write
  };
  // Where the current copy of a logical page is.
  struct Copy {
    bool exists = false;
    Ppa ppa;
  };

  Copy current(Lpn lpn) const;
  // The log page holding the current copy of `lpn`, or LogIndex::kNil.
  uint32_t log_find(Lpn lpn) const {
    return pages_.logged(lpn) ? index_.find(lbn_[lbn_of(lpn)].log_head, offset_of(lpn))
                              : LogIndex::kNil;
  }
  bool has_data(Lpn lpn) const { return pages_.valid(lpn) || pages_.logged(lpn); }
  // `lpn`'s current copy is now (no longer) at log page `at`.
  void log_add(Lpn lpn, uint32_t at) {
    index_.add(lbn_[lbn_of(lpn)].log_head, offset_of(lpn), at);
    pages_.set_logged(lpn, true);
  }
  void log_remove(Lpn lpn, uint32_t at) {
    index_.remove(lbn_[lbn_of(lpn)].log_head, at);
    pages_.set_logged(lpn, false);
  }
  // Forgets the current copy of `lpn` (a newer one is being written, or it is trimmed).
  void supersede(Lpn lpn);
  // Log page numbers (LogIndex) of a die's slot and page, and back.
  uint32_t log_page(uint32_t die, uint32_t slot, uint32_t page) const {
    return (die * log_blocks_per_die() + slot) * ppb_ + page;
  }
  uint32_t slot_of(uint32_t log_page) const {
    return uint32_t(per_die_slots_.rem(by_ppb_.quot(log_page)));
  }
  void drop_log_copy(uint32_t die, uint32_t at, Lpn lpn);
  // The slot was written: it becomes the die's most recently written.
  void touch(uint32_t die, uint32_t slot);
  // Points `lbn` at `block` (kNone: none) with its write pointer; `touched`: its data changed
  // (data_since), not only its place.
  void set_data_block(Lbn lbn, uint32_t block, uint32_t next, bool touched);
  uint32_t take_free(uint32_t die);
  void open_slot(uint32_t die, uint32_t slot);
  void erase(uint32_t die, uint32_t block);
  void release_slot(uint32_t die, uint32_t slot);
  bool sequential(uint32_t die, uint32_t slot) const;
  void switch_merge(uint32_t die, uint32_t slot);
  void partial_merge(uint32_t die, uint32_t slot);
  struct HostPage {
    Lpn lpn;
    const PageToken* data;
    OpId ready;
  };
  // Rebuilds `lbn` into a new block from its current copies, plus the host page if given;
  // returns the host page's program (or kNoOp).
  OpId full_merge(Lbn lbn, const HostPage* host);
  // Programs offsets [from, to] of `lbn` into `block` at the same offsets: the host page,
  // else the current copy (only a data-block copy if `data_only`), else padding. Copied
  // pages count in `copied`; returns the host page's program (or kNoOp).
  // `block` follows a program failure's replacement (program()).
  OpId fill(uint32_t die, uint32_t& block, Lbn lbn, uint32_t from, uint32_t to,
            const HostPage* host, bool data_only, uint64_t& copied);
  // What fill() leaves in the tables, while replaying: only the block's log pages are visited.
  void fill_tables(uint32_t die, Lbn lbn, uint32_t from, uint32_t to, const HostPage* host,
                   bool data_only);
  // After a replay: every block's NAND state (erase count, pages and their tokens).
  void lay_out();
  // Brings in, at `stage` 0, 1, 2 (each a few writes nearer), what replaying a random write of
  // `lpn` will touch.
  void prefetch_write(Lpn lpn, uint32_t stage) const;
  // Highest offset >= from holding a current copy of `lbn`, or kNone; 1 DRAM read per offset.
  uint32_t top_offset(Lbn lbn, uint32_t from);
  // Programs a host page; `ppa` as program() leaves it.
  OpId program_host(Ppa& ppa, const PageToken& data, OpId ready);
  // Programs `data` at `ppa` once `ready` has ended. Under injected program failures, a failed
  // program's block is replaced: its pages below the failed one copied to a fresh block of the
  // die at the same pages, the data programmed there again once the failed program has ended,
  // every table's reference to the block moved to the fresh one (`ppa.block` with them) and the
  // failed block retired. Returns the data's program.
  OpId program(Ppa& ppa, const PageToken& data, OpId ready) {
    const OpId op = hal_->flash_program(ppa, data, ready);
    return faults_.program_fail_probability > 0 ? replace_if_failed(ppa, data, op) : op;
  }
  // program()'s answer once `op`, the program of `data` at `ppa`, is issued.
  OpId replace_if_failed(Ppa& ppa, const PageToken& data, OpId op);
  // Whether the program just issued at `ppa` failed (the status the NAND's draw gives it).
  bool program_failed(const Ppa& ppa);
  // Every reference to block `from` of `die` (a log slot, a data block, the open update) now
  // names `to`, which holds its pages at the same pages.
  void substitute(uint32_t die, uint32_t from, uint32_t to);
  // The block is out of use for good (its erase or a program failed).
  void retire(uint32_t die, uint32_t block);

  std::string name_;
  bool replay_holds_;     // precondition_bulk's writes are the simulated path's
  bool pad_;              // offsets below a data-block page with no data are padded, not skipped
  uint32_t map_entries_;  // DRAM entries a look-up reads: block map, and log map if in DRAM
  uint32_t blocks_per_die_;
  uint64_t logical_pages_;
  uint64_t lbns_;
  uint64_t table_bytes_;
  std::vector<Die> dies_;
  // What the FTL keeps per logical block, together: a write touches them all.
  struct Logical {
    uint32_t data_block = kNone;
    uint32_t data_next = 0;              // the data block's write pointer
    uint32_t dedicated = kNone;          // its log slot
    uint32_t log_head = LogIndex::kNil;  // its newest current log page (LogIndex)
    uint64_t data_since = 0;             // write sequence of its data block's last change
  };
  struct Physical {          // per block of the drive
    uint64_t erased_at = 0;  // erase sequence number of its last erase
    uint32_t erases = 0;
    uint32_t owner = kNone;  // the logical block whose data block it is
    bool free = true;        // in its die's free pool
    bool retired = false;    // its erase or a program failed (flash.faults): out of use
    uint8_t unused[6] = {};  // the padding, zero: blocks are saved as bytes
  };
  std::vector<Logical> lbn_;
  // Two bits per logical page, in words the replay can prefetch: its current copy is in the
  // data block (valid), or in a log block (logged; LogIndex says where).
  class PageBits {
   public:
    explicit PageBits(uint64_t pages) : words_((pages + 31) / 32, 0) {}
    bool valid(uint64_t lpn) const { return words_[lpn / 32] >> (lpn % 32 * 2) & 1; }
    bool logged(uint64_t lpn) const { return words_[lpn / 32] >> (lpn % 32 * 2 + 1) & 1; }
    void set_valid(uint64_t lpn, bool v) { set(lpn % 32 * 2, lpn, v); }
    void set_logged(uint64_t lpn, bool v) { set(lpn % 32 * 2 + 1, lpn, v); }
    const uint64_t* word(uint64_t lpn) const { return &words_[lpn / 32]; }
    std::vector<uint64_t>& words() { return words_; }

   private:
    void set(unsigned shift, uint64_t lpn, bool v) {
      uint64_t& w = words_[lpn / 32];
      w = (w & ~(uint64_t{1} << shift)) | uint64_t{v} << shift;
    }
    std::vector<uint64_t> words_;
  };
  PageBits pages_;
  LogIndex index_;  // current copies in log blocks
  std::vector<Physical> block_;
  std::vector<uint64_t> die_erases_;
  std::vector<uint64_t> die_data_blocks_;
  uint64_t erase_seq_ = 0;
  uint64_t write_seq_ = 0;
  // The copy-on-update a request has open: offsets below `next` of `lbn` are in `block`, the
  // rest still in its data block.
  struct Update {
    Lbn lbn = kNoLbn;
    uint32_t block = kNone;
    uint32_t next = 0;
  };
  Update update_;
  bool in_request_ = false;
  bool replaying_ = false;
  NullHal none_;
  config::FaultConfig faults_;
  std::optional<SpareReserve> spare_;  // with injected faults
  uint64_t erase_failures_ = 0;
  uint64_t program_failures_ = 0;
  uint64_t pages_moved_ = 0;  // copied off blocks whose program failed
  uint64_t units_lost_no_room_ = 0;
  // Pages lost for want of a block as the write buffer destaged on a read-only drive.
  std::unordered_set<Lpn> no_room_;
  // take_free() with no block left: the write of a read-only drive's buffered page loses it.
  struct NoFreeBlock : std::runtime_error {
    using std::runtime_error::runtime_error;
  };
  // Whether the erase of `block` just issued failed, by the status the NAND's draw gives it;
  // if so, the block is retired.
  bool erase_failed(uint32_t die, uint32_t block);
  // Good blocks the die needs: a data block for each of its logical blocks, its log blocks and
  // one for a merge.
  uint64_t needed_blocks(uint32_t die) const;
  uint32_t retired_blocks(uint32_t die) const;
  void register_faults();
  // Copies the rest of the open update's old block and retires the old block.
  void finish_update();
  // A die that stops answering (flash.faults.dead_die, firmware/ftl/LogBlockDeadDie.cpp): at the
  // firmware's first read, write or trim at or after its time, the logical blocks on the die are
  // lost, those with data reported; the die is sent nothing more.
  void check_dead_die() {
    if (dead_.due(hal_->now())) die_died();
  }
  void die_died();
  // A write buffer's page for the dead die, lost.
  OpId lose_on_dead_die(Lpn lpn);
  // A trim of a page on the dead die: its map entry says no data any more (a read of it then
  // finds nothing, as never written), nothing sent to the die.
  void trim_lost(Lpn lpn);
  bool on_dead_die(Lpn lpn) const { return dead_.known() && die_of(lbn_of(lpn)) == dead_.die(); }
  // Whether a read of `lpn` on the dead die finds its data lost (else it was never written).
  bool lost(Lpn lpn) const { return has_data(lpn) || lost_later_.count(lpn) != 0; }
  DeadDie dead_;
  std::unordered_set<Lpn> lost_later_;  // the write buffer's pages lost once the die was gone
};

}  // namespace ssd::fw
