#pragma once
// Die power-down (flash.die_power_down; docs/energy-model.md#low-power-states): which dies
// of a channel rest, since when, and which are off. A die that has rested idle_us goes off;
// with scope "channel" the channel's dies go off together once every one has rested idle_us,
// and all power up when one is needed. The channel runs the timer and the die phases; this
// keeps the bookkeeping and the rule.
#include <cstdint>
#include <vector>
#include <systemc>

#include "config/FlashConfig.h"

namespace ssd::model::flash {

class DiePowerDown {
 public:
  DiePowerDown(const config::DiePowerDownConfig& cfg, uint32_t dies);

  bool on() const { return on_; }
  bool channel_scope() const { return channel_scope_; }
  const sc_core::sc_time& idle() const { return idle_; }
  const sc_core::sc_time& t_wake() const { return t_wake_; }
  uint32_t dies() const { return uint32_t(dies_.size()); }
  bool off(uint32_t die) const { return dies_[die].off; }

  // The die rests from `rest_at` (sc_max_time: it works).
  void note_rest(uint32_t die, const sc_core::sc_time& rest_at) { dies_[die].rest_at = rest_at; }
  void set_off(uint32_t die, bool off) { dies_[die].off = off; }
  // When die `die` goes off (sc_max_time: not while it works or while it is off).
  sc_core::sc_time off_due(uint32_t die) const;
  // The earliest time after `now` at which a die is due off (sc_max_time: none).
  sc_core::sc_time next_due(const sc_core::sc_time& now) const;
  // Whether die `die` is due off now and may go: `resting(d)` says whether die d is at rest
  // with nothing started (the channel's dies all, by scope).
  template <class Resting>
  bool goes_off(uint32_t die, const sc_core::sc_time& now, Resting resting) const {
    const sc_core::sc_time due = off_due(die);
    if (due == never_ || due > now) return false;
    if (!channel_scope_) return resting(die);
    for (uint32_t d = 0; d < dies_.size(); ++d)
      if (!dies_[d].off && !resting(d)) return false;
    return true;
  }

 private:
  struct Die {
    sc_core::sc_time rest_at;  // resting since (never_ while it works)
    bool off = false;
  };
  bool on_, channel_scope_;
  sc_core::sc_time idle_, t_wake_;
  std::vector<Die> dies_;
  sc_core::sc_time never_;
};

}  // namespace ssd::model::flash
