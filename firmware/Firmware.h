#pragma once
// The firmware's host command processing: splits a host command into page operations and
// runs them through the FTL. A "page" here is the mapping unit (ftl.mapping_unit_bytes: the
// flash page, or a part of it): logical page numbers, partial writes and trims, and the
// write buffer's entries are in units. Plain C++: the controller model calls it from its
// firmware thread, unit tests call it directly with their own Hal.
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "config/DriveConfig.h"
#include "firmware/FlashWindow.h"
#include "firmware/Ftl.h"
#include "firmware/WriteBuffer.h"
#include "firmware/lifetime/LifetimeManager.h"
#include "firmware/zns/ZonedCommands.h"

namespace ssd::fw {

// Append, ZoneManage and ZoneReport are commands of zoned namespaces (NVMe ZNS: Zone Append, Zone
// Management Send, Zone Management Receive with Report Zones); a conventional namespace refuses
// them with Invalid Command Opcode. PlacementUpdate is
// NVMe FDP's I/O Management Send with Reclaim Unit Handle Update, for one placement identifier
// (HostCommand::placement) of the namespace at offset_bytes (length 0).
enum class CommandOp : uint8_t {
  Read,
  Write,
  Trim,
  Flush,
  Append,
  ZoneManage,
  PlacementUpdate,
  ZoneReport
};

// The NVMe status a write fails with when its logical blocks were lost with a die that stopped
// answering (Media and Data Integrity Errors: Write Fault).
enum class MediaStatus : uint16_t { WriteFault = 0x0280 };

// The NVMe statuses a placement update fails with (Generic Command Status, from NVMe FDP).
enum class PlacementStatus : uint16_t {
  FdpDisabled = 0x29,                // the drive has no FDP, or the namespace is zoned
  InvalidPlacementHandleList = 0x2A  // the identifier names no handle of the namespace's list
};

struct HostCommand {
  CommandOp op = CommandOp::Read;
  uint64_t offset_bytes = 0;
  uint64_t length_bytes = 0;
  uint64_t version = 0;  // data version of a write (the scoreboard's token)
  bool fua = false;      // write: force unit access (on flash before it completes)
  // Write: its data's content fingerprint (page_content() of each page; 0: unknown) and the
  // share of its bytes a compressor removes, for the lifetime manager.
  uint64_t content = 0;
  uint8_t compressible_percent = 0;
  // Write: its placement identifier (NVMe FDP's DSPEC with the data placement directive; 0
  // without one), the reclaim unit handle its data goes to under ftl.fdp. PlacementUpdate: the
  // identifier whose handle moves to a new reclaim unit.
  uint16_t placement = 0;
  // Append: offset_bytes is the zone's first byte. ZoneManage: the action on the zone starting
  // at offset_bytes (length 0), or on every zone it applies to (`select_all`).
  zns::ZoneAction zone_action = zns::ZoneAction::Close;
  bool select_all = false;
  // ZoneReport: the zones from the one holding offset_bytes on, those `report_filter` selects,
  // as many as length_bytes (the host's buffer) holds after the header, 64 bytes each; with
  // `partial_report` the answer's Number of Zones counts only those listed.
  zns::ZoneReportFilter report_filter = zns::ZoneReportFilter::All;
  bool partial_report = false;
};

struct FirmwareStats {
  uint64_t commands = 0;
  uint64_t page_reads = 0;   // host page reads
  uint64_t page_writes = 0;  // host page writes
  uint64_t page_trims = 0;
  uint64_t rmw_reads = 0;       // partial-page writes that had to read the old page first
  uint64_t unmapped_reads = 0;  // host page reads of never-written or trimmed pages (no flash)
  // ftl.fdp: writes whose placement identifier named no handle (placed by handle 0); placement
  // updates done (refused ones fail with a PlacementStatus).
  uint64_t invalid_placement_ids = 0;
  uint64_t placement_updates = 0;
};

class Firmware {
 public:
  Firmware(const config::DriveConfig& cfg, Hal& hal);
  // statistics() points into the firmware: a copy would point into the original.
  Firmware(const Firmware&) = delete;
  Firmware& operator=(const Firmware&) = delete;

  // Runs the command from hal.now(): its firmware work on the core (done at hal.now() on
  // return) and the flash commands it starts. Returns what the host command waits for (read
  // data in the controller buffer; written pages in the write buffer, or programmed; a
  // flush's destages); the command is done on the drive's side when that and the firmware
  // work have ended. For reads, `read_data` receives one token per logical page covered.
  // The result is valid until the next call.
  const Completion& execute(const HostCommand& cmd, std::vector<PageToken>* read_data);
  // The command is queued: the FTL may fetch what its first pages' look-ups need.
  void prefetch(const HostCommand& cmd) const;

  // One step of background work while the drive is idle: a stripe of the write buffer
  // first, then read refresh and background GC (ftl.background_gc), then (one-shot programming) the
  // open word lines padded; returns whether more remains.
  bool background_step() {
    if (buffer_.destage_stripe()) return true;
    return ftl_->background_step() || ftl_->seal_word_lines(true);
  }
  // Destages the whole write buffer and settles the FTL (folds the SLC cache), with no
  // waiting: the end of preconditioning.
  void settle() {
    completion_.ops.clear();
    buffer_.flush(completion_.ops);
    ftl_->settle();
    ftl_->seal_word_lines(true);
  }
  // The supply failed (power.hold_up): the write buffer's pages go to flash and the open word
  // lines of every stream are padded; the controller waits for all its flash commands.
  void hold_up() {
    ftl_->power_lost();
    completion_.ops.clear();
    if (buffer_.enabled()) buffer_.flush(completion_.ops);
    ftl_->seal_word_lines(true);
  }
  // Preconditioning in bulk on a fresh drive (Ftl::precondition_bulk; the write buffer stays
  // empty); false if the FTL cannot, or if a namespace's writes go to a placement handle other
  // than 0 (the bulk state is of one host stream: simulated, each namespace's pages go to its
  // handle's blocks).
  bool precondition_bulk(uint64_t written, uint64_t random_writes) {
    for (const PlacementList& l : placement_lists_)
      if (l.handles.front() != 0) return false;
    return ftl_->precondition_bulk(written, random_writes);
  }
  // Zeroes the firmware's and the FTL's counters (after preconditioning).
  void reset_stats() {
    stats_ = FirmwareStats{};
    ftl_->reset_stats();
    buffer_.reset_stats();
    zoned_.reset_stats();
    if (lifetime_) lifetime_->reset_stats();
  }
  const WriteBuffer& write_buffer() const { return buffer_; }
  // Saves or loads the FTL's tables and the write buffer (a saved aged drive,
  // docs/state.md); not with the lifetime manager, whose state is not kept.
  void state(StateArchive& a);
  // After a loaded state, before the run: the FTL's restart (Ftl::restart).
  void restart() { ftl_->restart(); }

  uint64_t page_bytes() const { return page_bytes_; }         // the mapping unit's
  const zns::ZonedCommands& zoned() const { return zoned_; }  // empty without zoned namespaces
  const FirmwareStats& stats() const { return stats_; }
  // The figures of the firmware, its FTL and its write buffer, in that order: report.json's
  // objects walk them (docs/report.md).
  std::vector<const Statistics*> statistics() const {
    if (!zoned_.empty())
      return {&statistics_, &ftl_->statistics(), &buffer_.statistics(), &zoned_.statistics()};
    return {&statistics_, &ftl_->statistics(), &buffer_.statistics()};
  }
  const Ftl& ftl() const { return *ftl_; }
  // The FTL's number of a block of the flash (the zoned namespaces take the last blocks of every
  // plane: FlashWindow), FlashWindow::kNotFtl for theirs.
  uint32_t ftl_block(uint32_t block) const { return window_ ? window_->to_ftl(block) : block; }
  // Ftl::on_units_lost.
  void on_units_lost(std::function<void(const std::vector<Lpn>&, UnitLoss)> hook) {
    ftl_->on_units_lost(std::move(hook));
  }
  // The lifetime manager (lifetime.mode), null when off.
  const lifetime::LifetimeManager* lifetime() const { return lifetime_.get(); }

 private:
  // The reclaim unit handle a write's placement identifier names in its namespace's list.
  uint8_t placement_handle(const HostCommand& cmd);
  // The placement handle list of the namespace holding the byte.
  const std::vector<uint8_t>& placement_list(uint64_t offset_bytes) const;
  // A Reclaim Unit Handle Update: the write buffer destaged (the handle's data written before
  // it fill its old reclaim unit), then the handle moved on; refused without FDP or with an
  // identifier past the namespace's list.
  void update_placement(const HostCommand& cmd, Completion& done);
  // A page of a host write through the lifetime manager.
  void write_managed(const HostCommand& cmd, Lpn lpn, Lpn first, bool whole, uint64_t end);

  Hal& hal_;
  // The FTL's Hal: the drive's, or with zoned namespaces a window onto the FTL's blocks.
  std::unique_ptr<FlashWindow> window_;
  uint64_t page_bytes_;
  sc_core::sc_time t_cmd_;
  sc_core::sc_time t_page_;
  std::unique_ptr<Ftl> ftl_;
  WriteBuffer buffer_;
  std::unique_ptr<lifetime::LifetimeManager> lifetime_;
  zns::ZonedCommands zoned_;
  bool maintains_;    // the FTL has upkeep to do between commands (Ftl::maintain)
  bool read_engine_;  // controller.hw_read_path: reads do not run on the core
  uint32_t handles_;  // ftl.fdp's reclaim unit handles (0: no FDP)
  // With FDP, each conventional namespace's end (a byte of the drive's space) and its placement
  // handle list (config::NamespaceRange::placement_handles), in address order; then the bytes
  // past them, with every handle.
  struct PlacementList {
    uint64_t end_byte;
    std::vector<uint8_t> handles;
  };
  std::vector<PlacementList> placement_lists_;
  FirmwareStats stats_;
  Statistics statistics_;
  // execute()'s result, reused; reads have their own: a read engine (controller.hw_read_path)
  // may run one while the core's command waits inside execute().
  Completion completion_, read_completion_;
};

}  // namespace ssd::fw
