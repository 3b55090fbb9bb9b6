#pragma once
// What the firmware sees of the hardware. The controller model implements it with TLM
// transactions on its sockets, so every call costs simulated time and energy; unit tests
// implement it with plain arithmetic.
//
// The firmware runs on one controller core with its own timeline (now()): compute and DRAM
// accesses advance it; flash commands leave the controller one after another, each costing
// the channel switch delay. The flash back end schedules them out of order (per-die queues,
// bus arbitration), so when a command ends is known only when it ends: a flash call returns
// an OpId, by which the firmware makes a program wait for the read that fetches its data,
// makes the core wait for a result it needs (wait_for), and tells the controller which commands
// a host command waits for.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <systemc>

#include "firmware/Types.h"
#include "firmware/zns/Zones.h"

namespace ssd::fw {

// What the firmware is doing when it touches the hardware. The controller attributes the
// energy of each operation to it, so mapping-table work and GC show apart from data work.
// SlcFold: moving the SLC cache's data into the main region; Refresh: rewriting blocks whose
// bit errors grew (ftl.read_refresh).
enum class Work : uint8_t { HostData, Mapping, Gc, WearLeveling, Merge, SlcFold, Refresh };
inline constexpr std::size_t kWorkCount = 7;
inline const char* to_string(Work w) {
  static constexpr const char* kNames[kWorkCount] = {
      "host_data", "mapping", "gc", "wear_leveling", "merge", "slc_fold", "refresh"};
  return kNames[static_cast<std::size_t>(w)];
}

// The units the core drives: the lifetime manager's (docs/lifetime.md) deduplication hash unit
// and compression unit (which also decompresses), and the SRAM in which the block FTL keeps its
// replacement blocks' page offsets (ftl.block_read_lookup sram, docs/ftl.md#read-look-up).
enum class Unit : uint8_t { Hash, Compression, Sram };

// A flash command the firmware started. kNoOp stands for "nothing to wait for". Ids are not
// reused while the command is in flight; once it has ended, an id only means "done".
using OpId = uint64_t;
inline constexpr OpId kNoOp = 0;

// What a host command waits for on the drive's side: flash commands, and a time (data bursts
// into or out of the write buffer).
struct Completion {
  std::vector<OpId> ops;
  sc_core::sc_time at;
  // Refused: a write or trim of a read-only drive (Ftl::read_only); failed: a read of a unit lost
  // with a die that stopped answering (flash.faults.dead_die), an unrecovered read error.
  bool failed = false;
  // The NVMe status of a command a zoned namespace served or refused, or of a zone command sent to
  // a conventional one ((status code type << 8) | status code; 0: success), and where a zone
  // append's data went (the namespace's logical block).
  uint16_t status = 0;
  uint64_t appended_lba = 0;
  // A Report Zones answer: its Number of Zones, and the descriptors of the zones it lists.
  uint64_t zones_reported = 0;
  std::vector<zns::ZoneDescriptor> zones;
};

class Hal {
 public:
  // Marks the calls made while it lives as `w` (nests: the outer kind returns after).
  class Scope {
   public:
    Scope(Hal& hal, Work w) : hal_(hal), outer_(hal.work_) { hal.work_ = w; }
    ~Scope() { hal_.work_ = outer_; }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    Hal& hal_;
    Work outer_;
  };

  // Marks the calls made while it lives as urgent: background work (GC) that the host must
  // wait for, which the flash back end then ranks as host work, not after it.
  class Urgent {
   public:
    explicit Urgent(Hal& hal) : hal_(hal), outer_(hal.urgent_) { hal.urgent_ = true; }
    ~Urgent() { hal_.urgent_ = outer_; }
    Urgent(const Urgent&) = delete;
    Urgent& operator=(const Urgent&) = delete;

   private:
    Hal& hal_;
    bool outer_;
  };

  virtual ~Hal() = default;
  Work work() const { return work_; }
  bool urgent() const { return urgent_; }
  virtual sc_core::sc_time now() const = 0;
  // Before the run (preconditioning, a restart after a loaded state): the hardware costs nothing
  // and no time passes; what the firmware records of the run (read refresh) waits for it.
  virtual bool functional() const { return false; }
  // Aging NAND whose data ages at its die's temperature (flash.reliability.run_temperature "die"):
  // what the die's time in the run has aged data by, in seconds at the reference temperature, as
  // its temperature sensor integrates it (the thermal model's retention meter, up to the present).
  virtual double die_retention_s(uint32_t die) = 0;
  virtual void compute(const sc_core::sc_time& duration) = 0;
  // A data unit works for `duration`, driven by the core: both are busy for it.
  virtual void unit_work(Unit unit, const sc_core::sc_time& duration) = 0;
  // `entries` mapping-table entries read or written back to back; the controller waits.
  virtual void dram_access(uint32_t entries, bool write) = 0;
  // Ends when the data of unit `unit` of the page (ftl.mapping_unit_bytes; 0 when the unit is
  // the page) is in the controller buffer: tR, then that unit over the bus. `out` is its
  // content as the read will find it (the back end applies commands in issue order).
  virtual OpId flash_read(const Ppa& ppa, PageToken& out, uint32_t unit = 0) = 0;
  // Ends when the page's spare (out-of-band) area is in the controller buffer: the array sense
  // (flash.t_oob_read_us), then flash.oob_bytes over the bus. The spare area records the
  // logical page the page holds (written with the page): `out` is its token.
  virtual OpId flash_read_spare(const Ppa& ppa, PageToken& out) = 0;
  // The data comes from `data_from` (a read still in flight, or kNoOp if it is in the
  // buffer); the program's data transfer waits for it, and for `after` (kNoOp: nothing; a
  // host page held until garbage collection has freed room). Ends when the page is programmed.
  virtual OpId flash_program(const Ppa& ppa, const PageToken& data, OpId data_from,
                             OpId after = kNoOp) = 0;
  // A page of `units` mapping units (ftl.mapping_unit_bytes smaller than the page), all of
  // them: `data[u]` and what brings it, `data_from[u]`; as flash_program otherwise.
  virtual OpId flash_program_units(const Ppa& ppa, const PageToken* data, const OpId* data_from,
                                   uint32_t units, OpId after) = 0;
  // Ends when the block is erased.
  virtual OpId flash_erase(uint32_t die, uint32_t block) = 0;
  // Bulk preconditioning only (no time, no energy): the block's NAND state as if it had been
  // erased `erases` times and then programmed with `pages` in page order (in the block's mode,
  // which the block manager holds already): every unit of every page, a page's units in a row.
  virtual void flash_preset(uint32_t die, uint32_t block, uint32_t erases,
                            const std::vector<PageToken>& pages) = 0;
  // The core waits until `op` has ended (a firmware step that needs its result).
  virtual void wait_for(OpId op) = 0;
  // When the current host command's first `bytes` bytes of write data have crossed the host
  // link into the controller buffer (pipelined host data).
  virtual sc_core::sc_time host_data_at(uint64_t bytes) = 0;
  // The programs issued from now on find their data in the buffer at `t` (until changed;
  // reset for every host command and background step).
  virtual void program_data_at(const sc_core::sc_time& t) = 0;
  // Of that, the programs' data was ready `length` earlier: the firmware's own pacing held
  // them back (lifetime throttling). Told with every program_data_at; only the latency
  // breakdown uses it.
  virtual void program_held(const sc_core::sc_time& length) { (void)length; }
  // Moves `bytes` of page data between the buffer and the DRAM (the write buffer), starting
  // no earlier than `not_before`, by DMA: the core does not wait. Returns when it is done.
  virtual sc_core::sc_time dram_burst(uint64_t bytes, bool write,
                                      const sc_core::sc_time& not_before) = 0;
  // Whether `op` has ended by now() (its end is known and not later).
  virtual bool ended_by_now(OpId op) = 0;
  // The host command's FTL work turns to its logical unit `lpn` (for a flush, to the write
  // buffer: kAllUnits). A controller with FTL cores of their own moves the work to the core
  // that does it (model/controller/Cores.h); the costs from here on are that core's.
  static constexpr Lpn kAllUnits = ~Lpn{0};
  virtual void ftl_work(Lpn lpn) { (void)lpn; }
  // From a background step: the next one waits until `op` has ended (a host command still
  // comes first), so background work keeps pace with the flash instead of queueing ahead.
  virtual void pace_background(OpId op) = 0;

 private:
  Work work_ = Work::HostData;
  bool urgent_ = false;
};

}  // namespace ssd::fw
