#pragma once
// A host command's way through the controller, kept for its latency breakdown
// (model/LatencyBreakdown.h): when it reached the controller and the core took it up, what the
// core waited for on its behalf, and the flash command on its critical path (the one that ended
// last, if after the firmware work).
#include <systemc>

#include "model/LatencyBreakdown.h"

namespace ssd::model {

// Several cores: the host core handed a command's FTL work over at `handed`; it reached the
// FTL core a message later, at `arrived`, which took it up at `started` and was done with it at
// `ended`.
struct Handover {
  bool on = false;
  sc_core::sc_time handed, arrived, started, ended;
};

// What held a host command back while the core worked on it.
struct CoreWaits {
  sc_core::sc_time flash, gc;  // the core blocked on flash; on flash for garbage collection
  sc_core::sc_time throttle;   // the longest lifetime throttling held one of its programs
  Handover handover;           // when the core is an FTL core the host core handed it to
};

// A flash command's part of a path.
struct FlashPath {
  sc_core::sc_time issued;   // sent to its channel
  sc_core::sc_time data_at;  // its data was there (a program's; else its issue)
  sc_core::sc_time started;  // started at its die
  sc_core::sc_time end;
  sc_core::sc_time gc_wait, power_wait;  // shares of its wait between data_at and started
  sc_core::sc_time throttle;             // the part before data_at that throttling held it
  // Aging NAND: the read's retry steps and decodes, shares of its time at the die (to its end).
  sc_core::sc_time retry, ecc;
  CoreWaits core;  // the core's waits for the host command that issued it, up to its issue
};

struct CommandPath {
  sc_core::sc_time at_controller, core_start, fw_end;
  CoreWaits queued;  // while it waited for the core: the core blocked on flash (earlier commands)
  CoreWaits core;    // up to fw_end
  bool via_flash = false;
  FlashPath flash;  // when via_flash

  // The path through the controller's core, taken up at `core_start` and done with it at
  // `fw_end`; no flash command on it yet.
  void start(const sc_core::sc_time& arrived, const sc_core::sc_time& core_begin,
             const sc_core::sc_time& core_done, const CoreWaits& waits, const CoreWaits& queue) {
    at_controller = arrived;
    core_start = core_begin;
    fw_end = core_done;
    core = waits;
    queued = queue;
    via_flash = false;
  }
  // A flash command the host command waits for ended after all those before it (and after
  // the firmware's own completion): it is on the critical path.
  void flash_last(const FlashPath& f) {
    via_flash = true;
    flash = f;
  }
  // The drive's stages (core queue to flash) of the command done at `done`, which add up to
  // done - at_controller.
  void stages(LatencyBreakdown& b, const sc_core::sc_time& done) const;
};

}  // namespace ssd::model
