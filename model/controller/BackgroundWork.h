#pragma once
// Background work: the write buffer's destaging (dram.write_buffer_mb, or the units packed in
// SRAM without one, docs/ftl.md#mapping-units), background GC (ftl.background_gc), read refresh
// (ftl.read_refresh, idle like background GC) and SLC cache folding. Once the core has had no
// command for the idle time (the shortest of write_buffer_idle_us, bg_gc_idle_us and
// slc_fold_idle_us of those enabled), the firmware thread runs it one step at a time (a stripe, a
// victim), each like a command's work on the core's timeline, and stops when a command is sent to
// it (checked between steps). This part keeps whether and when it is due; the controller runs the
// steps.
//
// Plain C++: tb/tests/ControllerPartsTest.cpp.
#include <systemc>

#include "config/DriveConfig.h"
#include "firmware/Hal.h"

namespace ssd::model::controller {

class BackgroundWork {
 public:
  explicit BackgroundWork(const config::DriveConfig& cfg);

  // A host command was served: there may be work again once the core has idled.
  void host_served() { armed_ = enabled_; }
  // None left until the host is served again.
  void ran_dry() { armed_ = false; }
  bool armed() const { return armed_; }
  // When it is due if no command comes first: the idle time after the core's work ended.
  sc_core::sc_time due(const sc_core::sc_time& core_free) const { return core_free + idle_; }
  // A step asked the next one to wait for `op` (fw::Hal::pace_background); taken once.
  void pace(fw::OpId op) { after_ = op; }
  fw::OpId take_pace() {
    const fw::OpId op = after_;
    after_ = fw::kNoOp;
    return op;
  }

 private:
  bool enabled_;
  sc_core::sc_time idle_;
  bool armed_ = false;
  fw::OpId after_ = fw::kNoOp;
};

}  // namespace ssd::model::controller
