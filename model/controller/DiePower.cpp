#include "model/controller/DiePower.h"

#include <algorithm>

#include "common/SimNow.h"
#include "model/controller/Controller.h"

namespace ssd::model::controller {

DiePower::DiePower(const config::FlashConfig& flash, ChannelSocket& channels)
    : off_when_idle_(flash.idle_policy == config::NandIdlePolicy::OffWhenIdle),
      off_(off_when_idle_),
      channels_(channels),
      channel_count_(flash.channels) {
  gp_.set_extension(new FlashCommandExt);  // the payload owns and frees it
}

void DiePower::look_at(const sc_core::sc_time& horizon) {
  if (!off_when_idle_) return;
  const sc_core::sc_time now = sim_now();
  check_.cancel();
  check_.notify(std::max(horizon, now) - now);
}

void DiePower::power(bool on) {
  gp_.get_extension<FlashCommandExt>()->op = on ? FlashOp::PowerOn : FlashOp::PowerOff;
  for (uint32_t ch = 0; ch < channel_count_; ++ch) {
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    channels_[ch]->b_transport(gp_, delay);
  }
  off_ = !on;
}

}  // namespace ssd::model::controller
