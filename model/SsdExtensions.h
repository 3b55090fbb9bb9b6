#pragma once
// TLM-2.0 extensions carrying the SSD-specific fields of a generic payload.
#include <array>
#include <cstdint>
#include <vector>

#include <tlm>

#include "config/DriveConfig.h"
#include "firmware/Firmware.h"
#include "firmware/Types.h"
#include "model/LatencyBreakdown.h"
#include "model/power/PowerState.h"

namespace ssd::model {

// A host block command, from the host through the HostInterface to the Controller. The
// generic payload's command/address/length mirror it (address = byte offset).
struct HostCommandExt : tlm::tlm_extension<HostCommandExt> {
  fw::HostCommand cmd;
  std::vector<fw::PageToken> read_data;  // filled by the controller for reads
  // When it completes: the longest any of its flash commands waited for garbage collection
  // (docs/report.md#garbage-collection), and behind read refresh (a share of such waits).
  sc_core::sc_time gc_wait, refresh_wait;
  // Write: its data crosses the host link over [data_start, data_end), at an even rate.
  sc_core::sc_time data_start, data_end;
  // Where its time went, stamped on its way (model/LatencyBreakdown.h).
  LatencyBreakdown breakdown;
  // The submission queue it goes to (host.queues); set by the host.
  uint16_t queue = 0;
  // Its namespace (namespaces, in config order): the host sends cmd.offset_bytes within it, the
  // host interface turns it into the drive's logical byte offset.
  uint32_t ns = 0;
  // False: an unrecovered read error (aging NAND: no ECC step corrected it, or `lost`: a unit it
  // covers was lost with a die that stopped answering, flash.faults.dead_die), or a write or trim
  // a read-only drive refused.
  bool ok = true;
  bool lost = false;
  // The NVMe status a zoned namespace gave (fw::Completion::status; 0: success, or a failure
  // above), and a zone append's location: the namespace's logical block its data went to.
  uint16_t status = 0;
  uint64_t appended_lba = 0;
  // Report Zones (fw::CommandOp::ZoneReport): the answer's Number of Zones and the descriptors
  // it lists, which cross the link to the host after a 64-byte header.
  uint64_t zones_reported = 0;
  std::vector<fw::zns::ZoneDescriptor> zones;

  tlm::tlm_extension_base* clone() const override { return new HostCommandExt(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const HostCommandExt&>(other);
  }
};

// Marks a DRAM transaction as a burst of page data (write buffer), moved at
// dram.burst_mb_per_s, rather than mapping-table accesses. `not_before`: it starts no earlier.
struct DramBurstExt : tlm::tlm_extension<DramBurstExt> {
  sc_core::sc_time not_before;
  tlm::tlm_extension_base* clone() const override { return new DramBurstExt(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const DramBurstExt&>(other);
  }
};

// The DRAM port a transaction comes through (model/dram/Dram.h): one per initiator, each
// served in the order it asks. Without it: port 0.
struct DramPortExt : tlm::tlm_extension<DramPortExt> {
  uint32_t port = 0;
  tlm::tlm_extension_base* clone() const override { return new DramPortExt(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const DramPortExt&>(other);
  }
};

// A flash command from the Controller to a FlashChannel, and the die operations the channel
// issues to a NandDie.
enum class FlashOp : uint8_t {
  // Controller -> channel (Read, Program, Erase: non-blocking, answered with BEGIN_RESP when
  // they end; PowerOff, PowerOn: blocking, at once).
  Read,
  Program,
  Erase,
  PowerOff,
  PowerOn,
  // Channel -> die, each starting now and returning its duration: the array operations, the
  // data phases that hold the bus, suspend/resume, the return to rest, power.
  ArrayRead,
  DataOut,
  DataIn,
  ArrayProgram,
  ArrayErase,
  Suspend,
  Resume,
  Rest,
  DiePowerOff,
  DiePowerOn,
  // Phases whose sequence is already fixed, in one call: data in, array program, rest; data
  // out, rest.
  DataInProgram,
  DataOutRest,
  // Independent plane reads: the die enters `resume_state` now (its planes sensing changed),
  // no time.
  PlaneState,
  // Controller -> channel -> die, debug transport only (bulk preconditioning): the block's
  // whole state at once, erase count `erases` and its programmed pages' tokens from the
  // payload's data (an array of fw::PageToken, every unit of every page), in the mode `slc`
  // names.
  Preset,
  // Controller -> channel -> die, debug transport only: the tokens of the block's programmed
  // units (pages since its erase, those whose program failed or that were skipped left out)
  // into the payload's data, an array of fw::PageToken with room for every unit of the block;
  // the data length is set to what they take.
  Contents
};

// Controller -> channel, for a program accepted before its data's time was known: the data is
// in the controller buffer at data_ready_at (the annotated delay).
DECLARE_EXTENDED_PHASE(DATA_READY);
// Controller -> channel, for a queued background read whose data a host read now waits for
// (controller.block_order nand: served from the controller buffer): it ranks as host work.
// A command already started is left as it is.
DECLARE_EXTENDED_PHASE(PROMOTE);

struct FlashCommandExt : tlm::tlm_extension<FlashCommandExt> {
  FlashOp op = FlashOp::Read;
  uint32_t die_in_channel = 0;  // way * dies_per_way + die_in_way
  fw::Ppa ppa;                  // ppa.die is the drive-wide die number (for messages)
  fw::PageToken data;           // program of a one-unit page: in; read: out (when accepted)
  // Mapping units (ftl.mapping_unit_bytes): what the command moves over the bus, in units (a
  // program its whole page's, a read one); a read's unit of the page; a program's units' data
  // when the page holds more than one.
  uint8_t units = 1;
  uint8_t unit = 0;
  bool spare = false;  // read: of the page's spare area only (flash.t_oob_read_us, oob_bytes)
  std::array<fw::PageToken, config::kMaxUnitsPerPage> unit_data{};
  // Program: when its data is in the controller buffer (sc_max_time: not known yet).
  sc_core::sc_time data_ready_at = sc_core::SC_ZERO_TIME;
  bool background = false;    // GC, wear levelling or merge work (controller.host_first)
  bool refresh = false;       // ... of read refresh (its own figure of the host's waits)
  bool slc = false;           // the block is operated in SLC mode (the firmware's choice)
  bool word_line = false;     // die array programs: a word line at once (one-shot programming)
  uint32_t planes = 1;        // die array operations: planes working together
  sc_core::sc_time bus_time;  // DataIn/DataOut: how long the transfer holds the bus
  PowerState resume_state = PowerState::Program;  // Suspend/Resume: the suspended operation;
                                                  // PlaneState: the state
  double energy_j = 0;  // active energy of the command (die and bus), when it ends
  // Time it waited at its die, once ready, while the die worked on background operations
  // (GC, wear levelling, merges, folding; of that, read refresh's), and while the die woke from
  // power-down or the power budget held it back; and when it started at the die. Set when it
  // starts.
  sc_core::sc_time gc_wait, refresh_wait, power_wait, started;
  uint32_t tag = 0;         // the initiator's own reference
  uint32_t queue_node = 0;  // the channel's own: where it queued the command
  uint32_t erases = 0;      // Preset: the block's erase count
  // Aging NAND (flash.reliability): a read's retry steps past its first read, drawn from its
  // bit errors when the die accepts it, and whether even the last step failed; a die array
  // read's step (0: the first read); and, when it ends, the time its decodes took (queue at the
  // ECC engine included) and its retry steps' array reads and transfers.
  uint8_t retries = 0;
  bool uncorrectable = false;
  uint8_t step = 0;
  // Before the run (preconditioning, a restart): reads draw no errors and do not count as the
  // block's reads, so a drive preconditioned in the run and one loaded from its saved state
  // (which keeps no reads) start alike.
  bool functional = false;
  sc_core::sc_time ecc_time, retry_time;

  tlm::tlm_extension_base* clone() const override { return new FlashCommandExt(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const FlashCommandExt&>(other);
  }
};

}  // namespace ssd::model
