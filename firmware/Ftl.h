#pragma once
// The flash translation layer interface: one implementation per file in firmware/ftl/, chosen
// by config name (ftl.type). The firmware's command processor splits host commands into
// page operations and calls these; an FTL reaches hardware only through the Hal.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "config/DriveConfig.h"
#include "config/json/Problems.h"
#include "firmware/BlockManager.h"
#include "firmware/BlockModes.h"
#include "firmware/Hal.h"
#include "firmware/StateArchive.h"
#include "firmware/Statistics.h"
#include "firmware/Types.h"

namespace ssd::fw {

// Why the firmware lost logical units (Ftl::on_units_lost): a die stopped answering
// (flash.faults.dead_die), or no die had a block left for their data (blocks lost faster than GC
// frees them).
enum class UnitLoss : uint8_t { DeadDie, NoRoom };

// The counters of more than one FTL family (a family's own are its classes': LogBlockStats, or
// StatKeys in the .cpp that counts them). Each is reported only where an FTL registers it
// (statistics()).
struct FtlStats {
  uint64_t host_pages_written = 0;
  uint64_t pages_programmed = 0;      // host + GC + wear levelling + translation pages + merges
  uint64_t gc_runs = 0;               // times foreground GC was entered
  uint64_t gc_blocks_reclaimed = 0;   // victims, foreground and background
  uint64_t gc_background_blocks = 0;  // of which background GC's
  uint64_t gc_pages_copied = 0;
  uint64_t gc_candidates_examined = 0;  // blocks the victim policy looked at
  // ftl.gc_mode incremental: pages placed on a die below the soft watermark (each moving its
  // share of the victim), and below the hard watermark (each waiting for collection).
  uint64_t gc_incremental_steps = 0;
  uint64_t gc_hard_hits = 0;
  uint64_t blocks_erased = 0;
  uint64_t wl_blocks_moved = 0;  // cold blocks wear levelling emptied and erased
  uint64_t wl_pages_copied = 0;
  // SLC cache: host pages written to it, and blocks folded (valid pages copied to the main
  // region, block erased), of which in the foreground (slc_fold on_full).
  uint64_t slc_host_pages = 0;
  uint64_t slc_blocks_folded = 0;
  uint64_t slc_pages_folded = 0;
  uint64_t slc_foreground_folds = 0;
  // With an SLC cache (page-level FTLs): when the first and the last host page was placed (-1:
  // none yet), when the first found the cache with no room (-1: none yet) and the host units
  // (host_pages_written) placed before it: how much the drive writes at its cache's speed, and
  // how fast before and after.
  double host_first_placed_s = -1;
  double host_last_placed_s = -1;
  double slc_full_at_s = -1;
  uint64_t slc_units_before_full = 0;
  // Mapping units smaller than the page: unit slots programmed without data, to finish a page
  // a batch of host units or a GC victim's last copies did not fill.
  uint64_t units_padded = 0;
};

class Ftl {
 public:
  struct ReadResult {
    OpId op;  // the flash read (kNoOp when unmapped: the look-up answered it)
    bool mapped;
    bool lost = false;  // the unit was on a die that stopped answering (flash.faults.dead_die)
  };
  // Logical units lost together, in order: `first`, and `count` from it.
  struct LostRange {
    Lpn first;
    uint64_t count;
  };

  Ftl();  // registers the figures every FTL reports
  // statistics() points into the FTL: a copy would point into the original.
  Ftl(const Ftl&) = delete;
  Ftl& operator=(const Ftl&) = delete;
  virtual ~Ftl() = default;
  virtual ReadResult read(Lpn lpn, PageToken& out) = 0;
  // Returns the host page's program. `data_from`: the read its data waits for, or kNoOp.
  virtual OpId write(Lpn lpn, const PageToken& data, OpId data_from) = 0;
  // One logical unit's write of a batch (write_units).
  struct UnitWrite {
    Lpn lpn;
    PageToken data;
    OpId data_from;  // the read its data waits for (partial unit), or kNoOp
  };
  // Writes the units of `batch` in order; `programs[i]` receives the program of batch[i]. With
  // mapping units smaller than the page (ftl.mapping_unit_bytes) the units are packed a page
  // at a time, and a last page the batch does not fill is padded (docs/ftl.md#mapping-units);
  // otherwise each unit is a write().
  virtual void write_units(const UnitWrite* batch, std::size_t n, OpId* programs) {
    for (std::size_t i = 0; i < n; ++i)
      programs[i] = write(batch[i].lpn, batch[i].data, batch[i].data_from);
  }
  virtual void trim(Lpn lpn) = 0;
  // Host pages the allocation gives a die in a row (a die's multi-plane set: ftl.allocation
  // plane_first; else 1), and of them those the die next in the rotation still takes: the
  // write buffer's stripe is a program on every die, it destages a die's set together and ends
  // a stripe at a die, so an odd page (an idle destage, a flush) leaves no die programming its
  // planes apart from then on.
  virtual uint32_t die_set_pages() const { return 1; }
  virtual uint32_t pages_on_die() const { return 1; }
  // A command for `lpn` is queued: bring its mapping entry towards the cache, so the look-up
  // when the command runs does not wait for memory (a simulator cost, not a modelled one).
  virtual void prefetch(Lpn /*lpn*/) const {}
  // Bracket the page writes of one host write command (Firmware::execute without a write
  // buffer), so an FTL can treat them together: block-mapped firmware copies a block once per
  // request that updates it, not once per page. Writes outside a bracket stand alone.
  virtual void begin_request() {}
  virtual void end_request() {}
  // Flexible data placement (ftl.fdp): the host units written from now on are of this reclaim
  // unit handle (a valid one: Firmware maps the others to 0). FTLs without it place by none.
  virtual void place_by(uint8_t /*handle*/) {}
  // Flexible data placement: NVMe's Reclaim Unit Handle Update of a valid handle; the handle's
  // next host units go to a new reclaim unit. Only FTLs that place by handle are asked.
  virtual void update_handle(uint8_t /*handle*/) {}
  const FtlStats& stats() const { return stats_; }
  // The figures this FTL reports, by report object (docs/report.md): each class of the
  // hierarchy registers those it adds, in its constructor.
  const Statistics& statistics() const { return statistics_; }
  // Measurement starts afresh (after preconditioning).
  void reset_stats() {
    stats_ = FtlStats{};
    statistics_.reset();
    reset_own_figures();
  }
  // One victim of background GC (ftl.background_gc), called while the drive is idle. Returns
  // whether there may be more to do. FTLs without background GC have nothing to do.
  virtual bool background_step() { return false; }
  // Upkeep before a host command's FTL work (read refresh: a block due rewritten); the firmware
  // calls it only where the FTL has some (ftl.read_refresh).
  virtual void maintain() {}
  // Preconditioning in bulk (docs/ftl.md#preconditioning), on a fresh drive: sets the
  // mapping, the block state and (by Hal::flash_preset) the flash contents that writing the
  // logical pages below `written` once in order and then `random_writes` of them at random
  // (PreconditionStream) would leave, with version 0 data, settled. False if this FTL cannot
  // (nothing changed): the caller writes the pages instead.
  virtual bool precondition_bulk(uint64_t /*written*/, uint64_t /*random_writes*/) { return false; }
  // Does at once, with no idle time, the background work that leaves data where it rests (the
  // SLC cache folded): the end of preconditioning.
  virtual void settle() {}
  // One-shot programming (flash.program_unit word_line): programs pages without data into the
  // open word lines of the host streams (`all`: of every stream), so the programs of the pages
  // written into them run and end. Returns whether it programmed any. The write buffer calls it
  // before it waits for its programs (a flush, a FUA write, a full buffer, the last of an idle
  // destage); the firmware once idle work is done.
  virtual bool seal_word_lines(bool /*all*/) { return false; }
  // The supply failed (power.hold_up): what is written from now on is the flush of what the
  // host was told is written, on the hold-up energy. An FTL that can puts it into the blocks it
  // keeps free for garbage collection rather than collect (or fold its SLC cache) first.
  virtual void power_lost() {}
  // The drive has run out of spare blocks (flash.faults): it fails writes and trims.
  virtual bool read_only() const { return false; }
  // Whether a write of pages [first, last] fails though the drive is not read-only: an FTL that
  // keeps each logical block on its die fails those reaching a die that stopped answering
  // (flash.faults.dead_die).
  virtual bool refuses(Lpn /*first*/, Lpn /*last*/) { return false; }
  // The logical units a die that stopped answering took with it (flash.faults.dead_die), in
  // order; empty if none did.
  virtual const std::vector<LostRange>& lost_ranges() const {
    static const std::vector<LostRange> kNone;
    return kNone;
  }
  // Called with the units a die that stopped answering took, or whose data no die had room for
  // (the testbench's scoreboard counts those that held what the host was told it wrote).
  void on_units_lost(std::function<void(const std::vector<Lpn>&, UnitLoss)> hook) {
    on_lost_ = std::move(hook);
  }
  // Per-block erase counts as the firmware keeps them; empty if the FTL keeps none.
  virtual std::optional<BlockManager::EraseSummary> erase_summary() const { return std::nullopt; }
  virtual std::string name() const = 0;
  // The mode of every block, which the flash commands to it carry; null if every block is
  // written natively (an FTL without an SLC cache).
  virtual const BlockModes* block_modes() const { return nullptr; }
  // Blocks in the dies' free pools now, all dies (the SLC cache's apart): what GC refills.
  virtual uint64_t free_blocks() const = 0;
  // Saves or loads the FTL's tables (a saved aged drive, docs/state.md); its counters are not
  // part of it (they start from zero after preconditioning).
  virtual void state(StateArchive& a) = 0;
  // The drive powers on with a loaded state (a restart): rebuilds what the firmware keeps in
  // volatile memory other than the DRAM's tables, from the flash (functionally, before the run).
  virtual void restart() {}
  // DRAM the FTL's tables need: it must fit dram.size_mb.
  virtual uint64_t mapping_table_bytes() const = 0;

 protected:
  // Figures an FTL keeps outside statistics() (lists: flexible data placement's handles).
  virtual void reset_own_figures() {}

  FtlStats stats_;
  Statistics statistics_;
  std::function<void(const std::vector<Lpn>&, UnitLoss)> on_lost_;
};

// The drive's rules for the FTL of cfg.ftl.type, each broken one a problem: the FTL's own
// (its blocks, its numbering) and its mapping table with the write buffer within
// dram.size_mb (unless ftl.size_dram_from_table sizes the DRAM to fit).
void check_ftl(const config::DriveConfig& cfg, config::Problems& problems);
// DRAM the tables of the FTL of cfg.ftl.type need (its mapping_table_bytes()).
uint64_t mapping_table_bytes(const config::DriveConfig& cfg);
// Builds the FTL named by cfg.ftl.type; throws ssd::ConfigError with every problem
// check_ftl() finds.
std::unique_ptr<Ftl> make_ftl(const config::DriveConfig& cfg, Hal& hal);

}  // namespace ssd::fw
