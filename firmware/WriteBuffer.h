#pragma once
// The DRAM write buffer (write-back data cache, dram.write_buffer_mb): a host page write
// completes once its data is in DRAM; the page reaches flash later, when the firmware
// destages it through the FTL. Destaging takes the oldest dirty pages, a stripe (a program on
// every die: a page each, or a die's multi-plane set under ftl.allocation plane_first) at a
// time, a die's set together (Ftl::pages_on_die), so a stripe ends at a die even after an odd
// page: when a write finds the buffer full (see below), when the drive is idle (background
// step), on a host flush, and for FUA writes (that page at once). A page stays
// in DRAM until its program has ended; a read of a buffered page is served from DRAM, and a
// rewrite of a page not yet destaged replaces it there (absorbed: one program for both).
//
// Costs: every page moved between the controller buffer and the DRAM is a DRAM data burst
// (Hal::dram_burst); a destage is a burst out of DRAM, then the FTL's program of that page.
// A write that finds the buffer full first puts the oldest dirty pages on their way to flash
// until two stripes are (so the dies stay busy while it waits), then waits for the oldest
// program (Hal::wait_for): that is the buffer-full stall.
//
// Mapping units smaller than the page (ftl.mapping_unit_bytes, docs/ftl.md#mapping-units):
// entries are units; destaging hands the FTL a page's worth at a time (Ftl::write_units),
// and the last page of a flush, a FUA write or an idle destage that has fewer units is
// padded. Without a DRAM buffer the same class packs units in the controller's SRAM
// (`in_sram`): no DRAM bursts, and a page goes to flash as soon as it has its units.
//
// Flexible data placement (ftl.fdp): each entry keeps its write's handle, and the dirty entries
// queue by handle; a destage takes a die's set from the handle whose oldest entry is the oldest
// (Ftl::place_by), so no page holds two handles' units, and SRAM packing sends a handle's page
// once it has its units.

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include <systemc>

#include "common/PageMap.h"
#include "firmware/Ftl.h"
#include "firmware/Hal.h"
#include "firmware/StateArchive.h"
#include "firmware/Statistics.h"
#include "firmware/Types.h"

namespace ssd::fw {

struct WriteBufferStats {
  uint64_t pages_written = 0;  // host pages written into the buffer
  uint64_t read_hits = 0;      // host page reads served from it
  uint64_t absorbed = 0;       // rewrites of a page not yet destaged
  uint64_t destaged = 0;       // pages programmed out of it
  uint64_t full_stalls = 0;    // writes that waited for a program to free a slot
  double stall_s = 0;          // the core's time in those waits
  uint64_t flushes = 0;        // host flushes
  uint64_t peak_pages = 0;     // most pages held at once
};

class WriteBuffer {
 public:
  // capacity_pages 0: no buffer (every call but enabled() is then unused). Pages are mapping
  // units of `page_bytes`, `units_per_page` of them to a flash page, below `logical_units`;
  // `in_sram`: the packing buffer (see above); `handles`: flexible data placement's (1: none).
  WriteBuffer(uint64_t capacity_pages, uint32_t page_bytes, uint32_t stripe_pages,
              uint32_t units_per_page, uint64_t logical_units, bool in_sram, Hal& hal, Ftl& ftl,
              uint32_t handles = 1);
  // statistics() points into the buffer: a copy would point into the original.
  WriteBuffer(const WriteBuffer&) = delete;
  WriteBuffer& operator=(const WriteBuffer&) = delete;

  bool enabled() const { return capacity_ > 0; }
  uint64_t capacity() const { return capacity_; }
  bool in_sram() const { return in_sram_; }
  bool contains(Lpn lpn) const { return index_.get(lpn) != kNoSlot; }
  // A host page: its data reaches the controller at `data_at`, then DRAM. `old_from`: the
  // flash read of the rest of a partial page (its destage waits for it), or kNoOp. Returns
  // when the data is in DRAM. `handle`: its placement handle (ftl.fdp).
  sc_core::sc_time write(Lpn lpn, const PageToken& data, const sc_core::sc_time& data_at,
                         OpId old_from, uint8_t handle = 0);
  // A buffered page: its data leaves DRAM for the controller buffer; returns when it is
  // there. Nothing if the page is not buffered.
  std::optional<sc_core::sc_time> read(Lpn lpn, PageToken& out);
  // Drops a page not yet destaged (a destage already under way runs to its end).
  void trim(Lpn lpn);
  // Destages every dirty page (host flush); appends the programs to wait for.
  void flush(std::vector<OpId>& ops);
  // Destages `lpn` now if it is dirty (FUA); appends its program.
  void write_through(Lpn lpn, std::vector<OpId>& ops);
  // Background: destages one stripe; returns whether anything was dirty.
  bool destage_stripe();
  uint64_t dirty_pages() const { return dirty_count_; }
  const WriteBufferStats& stats() const { return stats_; }
  const Statistics& statistics() const { return statistics_; }  // the object "write_buffer"
  void reset_stats() { stats_ = WriteBufferStats{}; }
  // Saves or loads the buffered pages and their order (a saved aged drive).
  void state(StateArchive& a);

 private:
  struct Entry {
    Lpn lpn = 0;
    PageToken data;
    OpId old_from = kNoOp;       // RMW read its destage waits for
    OpId program = kNoOp;        // its destage, once started
    sc_core::sc_time in_buffer;  // when its data was in DRAM (or the SRAM)
    bool used = false;
    bool dirty = false;    // in DRAM only
    bool indexed = false;  // the newest copy of its page
    uint64_t seq = 0;      // when it became dirty (FIFO order)
    uint8_t handle = 0;    // its placement handle (ftl.fdp)
  };

  uint32_t take_slot();
  // Frees the slots whose programs have ended (oldest first).
  void reclaim();
  void destage(uint32_t slot, std::vector<OpId>* ops);
  // Units smaller than the page: the slots (oldest first) go to the FTL a page at a time.
  void destage_units(const uint32_t* slots, std::size_t n, std::vector<OpId>* ops);
  // The oldest dirty slots, up to `n`, into `out`: of one handle, the one whose oldest dirty
  // slot is the oldest (or `handle`).
  void oldest_dirty(std::size_t n, std::vector<uint32_t>& out, int handle = -1);
  // The entry becomes dirty (queued under its handle), or stops being dirty.
  void dirtied(uint32_t slot);
  void cleaned(Entry& e);
  void drop(uint32_t slot);
  // A burst of `bytes` in or out of DRAM (none in SRAM: the data is where it is at `from`).
  sc_core::sc_time burst(bool write, const sc_core::sc_time& from) {
    return in_sram_ ? from : hal_.dram_burst(page_bytes_, write, from);
  }

  uint64_t capacity_;
  uint64_t logical_units_;
  uint32_t page_bytes_;
  uint32_t stripe_;
  uint32_t units_;
  bool in_sram_;
  std::vector<uint32_t> batch_;  // scratch for destage_units
  Hal& hal_;
  Ftl& ftl_;
  std::vector<Entry> slots_;
  std::vector<uint32_t> free_;
  static constexpr uint64_t kNoSlot = ~uint64_t{0};
  // The slot of each buffered page's newest copy: every host read looks here first, and on a
  // large drive nearly all of them miss (open addressing: one cache line for a miss).
  PageMap index_;
  // Per handle: (slot, seq), stale when seq differs; and its dirty entries.
  std::vector<std::deque<std::pair<uint32_t, uint64_t>>> dirty_fifos_;
  std::vector<uint64_t> dirty_of_;
  std::deque<uint32_t> destaging_;  // in destage order
  uint64_t dirty_count_ = 0;
  uint64_t used_ = 0;
  uint64_t seq_ = 0;
  WriteBufferStats stats_;
  Statistics statistics_;
};

}  // namespace ssd::fw
