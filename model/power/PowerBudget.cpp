#include "model/power/PowerBudget.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/Format.h"

namespace ssd::model {
namespace {

std::size_t index(PowerState s) { return static_cast<std::size_t>(s); }

std::string watts(int64_t nw) { return format_double(double(nw) / 1e9) + " W"; }

}  // namespace

PowerBudget::PowerBudget(Limits limits, std::string cap_key)
    : base_(limits), limits_(limits), cap_key_(std::move(cap_key)) {}

PowerBudget::Limits PowerBudget::configured(const config::DriveConfig& cfg) {
  const config::PowerBudgetConfig& b = cfg.power_budget;
  Limits l;
  if (!b.enabled) return l;
  // The monitor's nanowatts: 1 mA x 1 V = 1e6 nW.
  l.power_nw = b.max_power_w > 0
                   ? std::llround(b.max_power_w * 1e9)
                   : std::llround(b.max_current_ma * cfg.power.drive_voltage_v() * 1e6);
  return l;
}

std::string PowerBudget::cap_key(const config::DriveConfig& cfg) {
  return cfg.power_budget.max_power_w > 0 ? "power_budget.max_power_w"
                                          : "power_budget.max_current_ma";
}

void PowerBudget::prepare(const EnergyMonitor& monitor, config::Problems& problems) {
  floor_nw_ = 0;
  std::array<int64_t, kPowerStateCount> die{};
  die.fill(-1);
  int64_t die_rest = 0;
  for (const auto& c : monitor.component_powers()) {
    if (c.group != "nand") {
      floor_nw_ += *std::max_element(c.power_nw.begin(), c.power_nw.end());
      continue;
    }
    // Every die has the same states; it rests idle or off.
    die = c.power_nw;
    die_rest = std::max(die[index(PowerState::Idle)], die[index(PowerState::Off)]);
    floor_nw_ += die_rest;
  }
  const auto above_rest = [&](std::initializer_list<PowerState> states) {
    int64_t most = 0;
    for (PowerState s : states) most = std::max(most, die[index(s)] - die_rest);
    return most;
  };
  // A read or program also moves its data (transfer); suspend and resume draw the array
  // state of the operation suspended.
  need_nw_[0] = {above_rest({PowerState::Read, PowerState::SpareRead, PowerState::Transfer}),
                 above_rest({PowerState::Read, PowerState::ReadMultiplane, PowerState::Transfer})};
  need_nw_[1] = {
      above_rest({PowerState::Program, PowerState::ProgramWordLine, PowerState::Transfer}),
      above_rest({PowerState::Program, PowerState::ProgramMultiplane, PowerState::ProgramWordLine,
                  PowerState::ProgramWordLineMultiplane, PowerState::Transfer})};
  need_nw_[2] = {above_rest({PowerState::Erase}),
                 above_rest({PowerState::Erase, PowerState::EraseMultiplane})};
  check(base_, cap_key_, problems);
  limits_ = base_;
}

void PowerBudget::check(const Limits& limits, const std::string& key,
                        config::Problems& problems) const {
  int64_t largest = 0;
  for (const auto& kind : need_nw_) largest = std::max({largest, kind[0], kind[1]});
  if (limits.power_nw == INT64_MAX || floor_nw_ + largest <= limits.power_nw) return;
  problems.add(key, "a cap of " + watts(limits.power_nw) +
                        " leaves no room for the largest die operation: the drive's worst case "
                        "without flash operations is " +
                        watts(floor_nw_) + " and one operation adds " + watts(largest) + " (" +
                        watts(floor_nw_ + largest) + " in all)");
}

int64_t PowerBudget::need_nw(FlashOp kind, bool multiplane) const {
  const std::size_t k = kind == FlashOp::Read ? 0 : kind == FlashOp::Program ? 1 : 2;
  return need_nw_[k][multiplane ? 1 : 0];
}

void PowerBudget::expire(const sc_core::sc_time& now) {
  while (!ending_.empty() && ending_.top().first <= now.value()) {
    used_nw_ -= ending_.top().second;
    --running_;
    ending_.pop();
  }
}

void PowerBudget::wake_all(const sc_core::sc_time& at) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  for (const Ticket& t : tickets_) t.wake->notify(at - now);
}

PowerBudget::Slot PowerBudget::acquire(uint32_t die, FlashOp kind, bool multiplane,
                                       const sc_core::sc_time& now, bool queue,
                                       sc_core::sc_event& wake) {
  expire(now);
  const int64_t need = need_nw(kind, multiplane);
  auto mine = std::find_if(tickets_.begin(), tickets_.end(),
                           [die](const Ticket& t) { return t.die == die; });
  // First come, first served: a die waiting longer goes first.
  const bool first = mine == tickets_.begin() || tickets_.empty();
  const bool fits =
      floor_nw_ + used_nw_ + need <= limits_.power_nw && running_ < limits_.operations;
  if (!fits || !first) {
    if (!queue) return kNone;
    if (mine == tickets_.end()) tickets_.push_back(Ticket{die, now, &wake});
    if (!ending_.empty()) wake.notify(sc_core::sc_time::from_value(ending_.top().first) - now);
    return kNone;
  }
  ++stats_.operations;
  if (mine != tickets_.end()) {
    const sc_core::sc_time waited = now - mine->since;
    ++stats_.waited;
    stats_.wait += waited;
    stats_.max_wait = std::max(stats_.max_wait, waited);
    if (limits_.power_nw != base_.power_nw || limits_.operations != base_.operations)
      stats_.wait_throttled += waited;
    tickets_.erase(mine);
    wake_all(now);  // the next in line may fit too
  }
  used_nw_ += need;
  ++running_;
  Slot s;
  if (!free_.empty()) {
    s = free_.back();
    free_.pop_back();
    slots_[s] = need;
  } else {
    s = Slot(slots_.size());
    slots_.push_back(need);
  }
  return s;
}

void PowerBudget::release(Slot s, const sc_core::sc_time& end) {
  ending_.emplace(end.value(), slots_[s]);
  slots_[s] = -1;
  free_.push_back(s);
  wake_all(end);
}

void PowerBudget::set_limits(const Limits& limits, const sc_core::sc_time& now) {
  limits_ = limits;
  wake_all(now);
}

}  // namespace ssd::model
