#include "model/controller/CriticalPath.h"

namespace ssd::model {
namespace {

// Waiting for data until `ready`, the last `held` of it held back by throttling.
void held_then(StageChain& chain, const sc_core::sc_time& held, const sc_core::sc_time& ready) {
  const sc_core::sc_time before = ready > chain.at() + held ? ready - held : chain.at();
  chain.until(Stage::DataWait, before);
  chain.until(Stage::Throttle, ready);
}

}  // namespace

void CommandPath::stages(LatencyBreakdown& b, const sc_core::sc_time& done) const {
  for (Stage s : {Stage::CoreQueue, Stage::Firmware, Stage::Messages, Stage::FtlQueue,
                  Stage::FtlFirmware, Stage::CoreWaitFlash, Stage::CoreWaitGc, Stage::DataWait,
                  Stage::Throttle, Stage::FlashWaitHost, Stage::FlashWaitGc, Stage::FlashWaitPower,
                  Stage::Flash, Stage::ReadRetry, Stage::EccDecode})
    b[s] = sc_core::SC_ZERO_TIME;
  StageChain chain(b, at_controller, done);
  chain.take(Stage::CoreWaitGc, queued.gc, core_start);
  chain.take(Stage::CoreWaitFlash, queued.flash, core_start);
  chain.until(Stage::CoreQueue, core_start);
  // The core's part ends where the critical flash command left it, or with its work.
  const bool flash_last = via_flash && flash.end > fw_end;
  const sc_core::sc_time core_end = flash_last ? flash.issued : fw_end;
  const CoreWaits& waits = flash_last ? flash.core : core;
  const Handover& h = waits.handover;
  if (h.on) {
    // On an FTL core: the host core's part, the message, the FTL core's queue and work, and
    // (done without flash) the answer back.
    chain.until(Stage::Firmware, h.handed);
    chain.until(Stage::Messages, h.arrived);
    chain.until(Stage::FtlQueue, h.started);
  }
  chain.take(Stage::CoreWaitGc, waits.gc, core_end);
  chain.take(Stage::CoreWaitFlash, waits.flash, core_end);
  if (h.on) {
    chain.until(Stage::FtlFirmware, flash_last ? core_end : h.ended);
    chain.until(Stage::Messages, core_end);
  } else {
    chain.until(Stage::Firmware, core_end);
  }
  if (!flash_last) {
    // Done after the core's work without flash: the firmware's own completion time (a
    // buffered write's data still arriving, its burst into DRAM, a throttled packing).
    held_then(chain, core.throttle, done);
    return;
  }
  held_then(chain, flash.throttle, flash.data_at);
  chain.take(Stage::FlashWaitGc, flash.gc_wait, flash.started);
  chain.take(Stage::FlashWaitPower, flash.power_wait, flash.started);
  chain.until(Stage::FlashWaitHost, flash.started);
  // Its first read, then its retry steps, then its decodes (each step's decode comes between,
  // but they are told apart by kind, not time order).
  const sc_core::sc_time aging = flash.retry + flash.ecc;
  chain.until(Stage::Flash, flash.end > flash.started + aging ? flash.end - aging : flash.started);
  chain.take(Stage::ReadRetry, flash.retry, flash.end);
  chain.take(Stage::EccDecode, flash.ecc, flash.end);
  chain.until(Stage::Flash, done);
}

}  // namespace ssd::model
