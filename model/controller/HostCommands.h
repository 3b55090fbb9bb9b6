#pragma once
// The host commands the controller has taken up and not yet answered. A host command is done
// when its firmware work and the flash commands it waits for have ended; the one that ended
// last, if after the firmware work, is on its critical path (its latency breakdown).
//
// Plain C++: tb/tests/ControllerPartsTest.cpp.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>

#include "model/SsdExtensions.h"
#include "model/controller/CriticalPath.h"

namespace ssd::model::controller {

struct HostCommand {
  tlm::tlm_generic_payload* gp = nullptr;
  HostCommandExt* ext = nullptr;  // gp's
  uint32_t pending = 0;           // flash commands it still waits for
  sc_core::sc_time fw_end;        // end of its firmware work
  sc_core::sc_time flash_end;     // latest end of the flash commands answered so far
  sc_core::sc_time gc_wait;       // the longest any of its flash commands waited for GC
  sc_core::sc_time refresh_wait;  // ... behind read refresh
  // A flash read it waited for no ECC step corrected (aging NAND): a host read fails, not a
  // write that waited for GC's. Refused: a write or trim of a read-only drive, or a read of a
  // unit lost with a die that stopped answering (flash.faults).
  bool uncorrectable = false;
  bool refused = false;
  uint16_t status = 0;  // the firmware's (fw::Completion)
  uint64_t appended_lba = 0;
  CommandPath path;  // for its latency breakdown

  // One of its flash commands ended at `end`, having waited `gc` for garbage collection (of it
  // `refresh` behind read refresh; and its data `uncorrectable`); `flash_path()` gives that
  // command's part of the path, asked only if it ended last so far.
  template <class FlashPathOf>
  void flash_ended(const sc_core::sc_time& end, const sc_core::sc_time& gc,
                   const sc_core::sc_time& refresh, bool uncorrectable, FlashPathOf flash_path) {
    this->uncorrectable |= uncorrectable;
    if (end > flash_end) path.flash_last(flash_path());
    flash_end = std::max(flash_end, end);
    gc_wait = std::max(gc_wait, gc);
    refresh_wait = std::max(refresh_wait, refresh);
  }
};

class HostCommands {
 public:
  // A free entry for a command taken up, its index in `index`.
  HostCommand& open(uint32_t& index);
  HostCommand& at(uint32_t index) { return commands_[index]; }
  // Answers the command at `index` at `now`: its status (failed: an unrecovered read error), its
  // GC wait and its latency breakdown
  // are set and its entry freed; returns its payload, `delay` its completion from now.
  tlm::tlm_generic_payload& close(uint32_t index, const sc_core::sc_time& now,
                                  sc_core::sc_time& delay);

 private:
  std::vector<HostCommand> commands_;
  std::vector<uint32_t> free_;
};

}  // namespace ssd::model::controller
