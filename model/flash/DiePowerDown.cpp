#include "model/flash/DiePowerDown.h"

#include <algorithm>

namespace ssd::model::flash {

DiePowerDown::DiePowerDown(const config::DiePowerDownConfig& cfg, uint32_t dies)
    : on_(cfg.enabled),
      channel_scope_(cfg.scope == config::PowerDownScope::Channel),
      idle_(cfg.idle_us, sc_core::SC_US),
      t_wake_(cfg.t_wake_us, sc_core::SC_US),
      dies_(cfg.enabled ? dies : 0, Die{sc_core::SC_ZERO_TIME, false}),  // idle from 0
      never_(sc_core::sc_max_time()) {}

sc_core::sc_time DiePowerDown::off_due(uint32_t die) const {
  const Die& p = dies_[die];
  if (p.off || p.rest_at == never_) return never_;
  if (!channel_scope_) return p.rest_at + idle_;
  // The channel's dies go off when the last of them has rested idle_us.
  sc_core::sc_time last = sc_core::SC_ZERO_TIME;
  for (const Die& q : dies_) {
    if (q.rest_at == never_ && !q.off) return never_;
    if (!q.off) last = std::max(last, q.rest_at);
  }
  return last + idle_;
}

sc_core::sc_time DiePowerDown::next_due(const sc_core::sc_time& now) const {
  sc_core::sc_time next = never_;
  for (uint32_t die = 0; die < dies_.size(); ++die) {
    const sc_core::sc_time due = off_due(die);
    if (due != never_ && due > now) next = std::min(next, due);
  }
  return next;
}

}  // namespace ssd::model::flash
