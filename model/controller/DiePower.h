#pragma once
// The dies' power under the "off_when_idle" NAND policy (flash.idle_policy): the controller
// powers the dies off once it holds no command (none queued, none in its firmware) and every
// flash operation it started has finished, and on again before its firmware next works (a host
// command, a background step). Read data may still be crossing the host link when they go off:
// that needs no NAND. The dies of every channel switch together, by a blocking power command
// to each channel. The controller's power manager (an SC_METHOD) runs on check().
#include <cstdint>

#include <systemc>
#include <tlm>

#include "config/FlashConfig.h"
#include "model/SsdExtensions.h"
#include "model/controller/ChannelSocket.h"

namespace ssd::model::controller {

class DiePower {
 public:
  DiePower(const config::FlashConfig& flash, ChannelSocket& channels);

  bool off() const { return off_; }
  // Before the firmware works: the dies on, if they are off.
  void wake() {
    if (off_) power(true);
  }
  // The controller holds nothing in flight: the power manager looks again at `horizon`, when
  // the latest work it started has ended.
  void look_at(const sc_core::sc_time& horizon);
  const sc_core::sc_event& check() const { return check_; }
  // From the power manager: off, if the controller is `idle` (see above) and they are on.
  void rest(bool idle) {
    if (!off_ && idle) power(false);
  }

 private:
  void power(bool on);

  bool off_when_idle_;
  bool off_;
  ChannelSocket& channels_;
  uint32_t channel_count_;
  tlm::tlm_generic_payload gp_;
  sc_core::sc_event check_;
};

}  // namespace ssd::model::controller
