#include "model/flash/DieStages.h"

#include <algorithm>
#include <string>

#include "common/SimNow.h"

namespace ssd::model::flash {
namespace {
// Seconds of a duration (the time resolution is 1 ps; sc_time::to_seconds is slower).
double seconds(const sc_core::sc_time& t) { return double(t.value()) * 1e-12; }
}  // namespace

DieStages::DieStages(const ChannelParams& p, uint32_t index, bool by_page, EnergyMonitor& monitor,
                     PowerBudget* budget, sc_core::sc_event& power_down_timer)
    : unit_transfer_(p.unit_bytes * p.flash.bus_ns_per_byte, sc_core::SC_NS),
      spare_transfer_(p.flash.oob_bytes * p.flash.bus_ns_per_byte, sc_core::SC_NS),
      // Several cores send commands that may arrive out of time order: one arriving before a
      // command decided ahead could have changed it.
      // Independent plane reads: a settled read's die may still sense on another plane, so
      // its rest cannot be reported ahead.
      early_(!p.controller.suspend_for_reads && p.controller.cores.size() <= 1 &&
             !p.flash.independent_plane_reads),
      plane_reads_(p.flash.independent_plane_reads),
      reads_max_(p.flash.independent_reads_max != 0 ? p.flash.independent_reads_max
                                                    : p.flash.planes_per_die),
      blocks_per_plane_(p.flash.blocks_per_plane),
      never_(sc_core::sc_max_time()),
      p_bus_w_(p.flash.i_bus_ma * 1e-3 * p.flash.bus_voltage_v),
      budget_(budget),
      power_down_(p.flash.die_power_down, p.flash.ways_per_channel * p.flash.dies_per_way),
      power_down_timer_(power_down_timer),
      psm_(monitor, "ch" + std::to_string(index), "channel", p.flash.bus_voltage_v,
           {{PowerState::Idle, 0.0}, {PowerState::Transfer, p.flash.i_bus_ma}}, PowerState::Idle),
      die_cmd_(*new FlashCommandExt) {
  die_gp_.set_extension(&die_cmd_);  // the payload owns and frees it
  const uint32_t dies = p.flash.ways_per_channel * p.flash.dies_per_way;
  state_.reserve(dies);
  for (uint32_t i = 0; i < dies; ++i) {
    state_.emplace_back(p.flash.blocks_per_die(), p.flash.pages_per_block,
                        p.controller.block_order == config::BlockOrder::Nand, by_page,
                        p.flash.program_pages());
    if (plane_reads_) state_.back().reads.resize(p.flash.planes_per_die);
  }
  if (p.flash.reliability.enabled) {
    ecc_ = p.shared_ecc;
    if (!ecc_) {
      own_ecc_ = std::make_unique<EccPool>(p.flash.reliability, p.controller.voltage_v, monitor,
                                           "ch" + std::to_string(index));
      ecc_ = own_ecc_.get();
    }
    usage_.reads_by_retries.assign(p.flash.reliability.steps(), 0);
  }
  usage_.die_wait.assign(dies, sc_core::SC_ZERO_TIME);
  usage_.die_commands.assign(dies, 0);
}

sc_core::sc_time DieStages::phase(uint32_t die, FlashOp op, const Group* g,
                                  const sc_core::sc_time& now, uint32_t planes) {
  die_cmd_.op = op;
  die_cmd_.die_in_channel = die;
  if (g) {
    die_cmd_.ppa = g->cmds.front().ext->ppa;
    die_cmd_.slc = g->cmds.front().ext->slc;
    die_cmd_.word_line = g->word_line;
    die_cmd_.spare = g->cmds.front().ext->spare;
    die_cmd_.planes = planes != 0 ? planes : g->planes;
    die_cmd_.bus_time = transfer_time(*g);
    die_cmd_.resume_state = array_state(*g);
    die_cmd_.step = g->step;
  }
  const sc_core::sc_time stamp = sim_now();
  sc_core::sc_time delay = now - stamp;
  targets_[die]->b_transport(die_gp_, delay);
  const sc_core::sc_time end = stamp + delay;
  if (power_down_.on()) {
    const bool rests =
        op == FlashOp::Rest || op == FlashOp::DataInProgram || op == FlashOp::DataOutRest;
    note_rest(die, rests ? end : never_);
  }
  return end;
}

void DieStages::note_rest(uint32_t die, const sc_core::sc_time& rest_at) {
  power_down_.note_rest(die, rest_at);
  if (rest_at != never_) power_down_timer_.notify(rest_at + power_down_.idle() - sim_now());
}

bool DieStages::resting(uint32_t die, const sc_core::sc_time& now) const {
  // A settled operation that has ended leaves the die at rest until the scheduler next runs.
  const DieState& d = state_[die];
  return d.staged.empty() && d.parked.empty() && d.read_planes == 0 &&
         (d.cur.empty() || (d.cur.settled && d.cur.until <= now));
}

sc_core::sc_time DieStages::power_down_dies(const sc_core::sc_time& now) {
  const sc_core::sc_time next = power_down_.next_due(now);
  const auto at_rest = [&](uint32_t d) { return resting(d, now); };
  for (uint32_t die = 0; die < size(); ++die) {
    if (!power_down_.goes_off(die, now, at_rest)) continue;
    phase(die, FlashOp::DiePowerOff, nullptr, now);
    power_down_.set_off(die, true);
    ++usage_.die_power_downs;
  }
  return next;
}

bool DieStages::wake(uint32_t die, const sc_core::sc_time& now) {
  if (!power_down_.on()) return false;
  // Due to go off now, its timer not yet run: it goes off and wakes in the same instant.
  if (!power_down_.off(die) &&
      !power_down_.goes_off(die, now, [&](uint32_t d) { return resting(d, now); }))
    return false;
  const bool all = power_down_.channel_scope();
  const uint32_t first = all ? 0 : die;
  const uint32_t last = all ? size() : die + 1;
  for (uint32_t d = first; d < last; ++d) {
    DieState& s = state_[d];
    if (!power_down_.off(d)) ++usage_.die_power_downs;
    power_down_.set_off(d, false);
    phase(d, FlashOp::DiePowerOff, nullptr, now);
    phase(d, FlashOp::DiePowerOn, nullptr, now);
    s.hold_until = std::max(s.hold_until, now + power_down_.t_wake());
    // A budget hold it went off in ends here; the wake is a power hold of its own.
    if (s.budget_since < now) s.power.add(s.budget_since, now);
    s.budget_since = never_;
    s.power.add(now, now + power_down_.t_wake());
    note_rest(d, now + power_down_.t_wake());  // at rest once awake, until it starts its command
    ++usage_.die_wakes;
  }
  return true;
}

void DieStages::charge(Group& g, double joules) {
  const double share = joules / double(g.cmds.size());
  for (Cmd& c : g.cmds) c.ext->energy_j += share;
}

void DieStages::charge_array(uint32_t die, Group& g, const sc_core::sc_time& length) {
  charge(g, power_w(die, array_state(g)) * seconds(length));
}

void DieStages::start_array(uint32_t die, Group& g, sc_core::sc_time at) {
  g.stage = Stage::Array;
  g.until = phase(die, array_op(g.kind), &g, at);
  charge_array(die, g, g.until - at);
  if (early_ && g.kind != FlashOp::Read) settle(die, g);
}

void DieStages::settle(uint32_t die, Group& g) {
  answer(die, g, g.until);
  phase(die, FlashOp::Rest, nullptr, g.until);
  g.settled = true;
}

void DieStages::answer(uint32_t die, Group& g, const sc_core::sc_time& end) {
  // A settled group was answered at its end already (complete() answers it again): its
  // background time is counted once.
  if (!g.settled) state_[die].background_until(g, end);
  if (budget_ && g.budget != PowerBudget::kNone) {
    budget_->release(g.budget, end);
    g.budget = PowerBudget::kNone;
  }
  const bool decoded = ecc_ && g.kind == FlashOp::Read && !g.cmds.front().ext->spare;
  const sc_core::sc_time cmd_end = decoded ? std::max(end, g.decode_end) : end;
  for (Cmd& c : g.cmds) {
    if (c.answered) continue;
    c.answered = true;
    if (decoded) {
      ++usage_.reads_by_retries[c.ext->retries];
      usage_.uncorrectable_reads += c.ext->uncorrectable;
      c.ext->ecc_time = g.ecc_time;
      c.ext->retry_time = g.retry_time;
    }
    done_.push_back(Answer{c.gp, cmd_end});
  }
}

void DieStages::decode(Group& g) {
  double joules = 0;
  // Each unit's data is decoded on its own as it arrives, the units one after another over the
  // bus: the last arrives as the transfer ends (g.until).
  sc_core::sc_time ready = g.until - transfer_time(g);
  g.decode_end = g.until;
  for (const Cmd& c : g.cmds)
    for (uint32_t u = 0; u < c.ext->units; ++u) {
      ready += unit_transfer_;
      g.decode_end = std::max(g.decode_end, ecc_->decode(g.step, ready, joules));
    }
  charge(g, joules);
  g.ecc_time += g.decode_end - g.until;
  if (g.step != 0) g.retry_time += g.until - g.step_start;
}

void DieStages::start_transfer(uint32_t die, uint32_t slot, const sc_core::sc_time& now) {
  Group& g = state_[die].group(slot);
  const sc_core::sc_time length = transfer_time(g);
  const bool in = g.stage == Stage::NeedDataIn;
  const bool plane_read = slot >= BusArbiter::kRead0;
  if (plane_read) account(die, now);  // up to now, without this transfer
  usage_.bus_wait += now - g.since;
  g.stage = in ? Stage::DataIn : Stage::DataOut;
  g.until = now + length;
  if (ecc_ && !in && !g.cmds.front().ext->spare) decode(g);
  bus_.grant(die, slot, g.until);
  psm_.occupy(PowerState::Transfer, now, g.until);
  double joules = p_bus_w_ * seconds(length);
  // A staged program's data moves into the cache register while the die keeps programming.
  if (slot == BusArbiter::kStaged) {
    charge(g, joules);
    return;
  }
  // An independent read's data-out: the die's own power is charged as its state changes
  // (account); while other planes sense, it is in their read state.
  if (plane_read) {
    if (state_[die].sensing == 0) phase(die, FlashOp::DataOut, &g, now);
    charge(g, joules);
    return;
  }
  joules += power_w(die, PowerState::Transfer) * seconds(length);
  // A read whose decode fails keeps its die for the retry step that follows.
  if (!early_ || retry_follows(g)) {
    phase(die, in ? FlashOp::DataIn : FlashOp::DataOut, &g, now);
    charge(g, joules);
    return;
  }
  // Nothing can come between this transfer and what follows it: the die runs the whole
  // sequence, back to rest, and the commands are answered with their end.
  if (in) {
    const sc_core::sc_time bus_end = g.until;
    g.stage = Stage::Array;
    g.until = phase(die, FlashOp::DataInProgram, &g, now);
    joules += power_w(die, array_state(g)) * seconds(g.until - bus_end);
  } else {
    phase(die, FlashOp::DataOutRest, &g, now);
  }
  charge(g, joules);
  answer(die, g, g.until);
  g.settled = true;
}

void DieStages::complete(uint32_t die, Group& g, const sc_core::sc_time& now) {
  answer(die, g, now);
  g.cmds.clear();
  g.stage = Stage::None;
  if (!g.settled) phase(die, FlashOp::Rest, nullptr, now);
  g.settled = false;
}

void DieStages::finish_transfer(const sc_core::sc_time& now) {
  if (!bus_.held() || bus_.until() > now) return;
  const uint32_t die = bus_.holder();
  const bool staged = bus_.staged();
  DieState& d = state_[die];
  if (bus_.slot() >= BusArbiter::kRead0) {
    Group& g = d.group(bus_.slot());
    account(die, now);  // the data-out's die power, up to its end
    bus_.release();
    if (retry_follows(g)) {
      // Its planes wait, their registers read out, for the decode that will fail: they keep
      // their slots for the retry step's array read.
      g.stage = Stage::Decoding;
      g.until = g.decode_end;
    } else {
      answer(die, g, now);
      d.read_planes &= ~planes_of(g);
      g.cmds.clear();
      g.stage = Stage::None;
    }
    if (d.sensing == 0) phase(die, FlashOp::Rest, nullptr, now);
    return;
  }
  Group& g = staged ? d.staged : d.cur;
  bus_.release();
  if (g.stage == Stage::DataOut && retry_follows(g)) {
    // The die waits, its page register read out, for the decode that will fail.
    g.stage = Stage::Decoding;
    g.until = g.decode_end;
    phase(die, FlashOp::Rest, nullptr, now);
  } else if (g.stage == Stage::DataOut) {
    complete(die, g, now);
  } else if (g.stage == Stage::DataIn && staged) {
    g.stage = Stage::Queued;
  } else if (g.stage == Stage::DataIn) {
    start_array(die, g, bus_.until());
  }
}

void DieStages::finish_stages(const sc_core::sc_time& now) {
  finish_transfer(now);
  for (uint32_t die = 0; die < size(); ++die) {
    DieState& d = state_[die];
    if (d.read_planes != 0) finish_plane_reads(die, now);
    Group& cur = d.cur;
    if (cur.empty() || cur.until > now) continue;
    switch (cur.stage) {
      case Stage::Array:
        if (cur.kind == FlashOp::Read) {
          cur.stage = Stage::NeedDataOut;
          cur.since = now;
          // The page register holds the data: the array is idle until the bus takes it.
          phase(die, FlashOp::Rest, nullptr, now);
          break;
        }
        complete(die, cur, now);
        if (!d.staged.empty()) {
          std::swap(cur, d.staged);
          cur.started = now;
          if (cur.stage == Stage::Queued) {
            start_array(die, cur, now);
          } else if (cur.stage == Stage::DataIn) {
            // Its transfer goes on, now into a die that is no longer programming.
            bus_.unstage();
            phase(die, FlashOp::DataIn, &cur, now);
            charge(cur, power_w(die, PowerState::Transfer) * seconds(bus_.until() - now));
          }
        }
        break;
      case Stage::Suspending:
        start_array(die, cur, now);
        break;
      case Stage::Decoding:  // failed: the next retry step's array read
        next_step(cur, now);
        start_array(die, cur, now);
        break;
      case Stage::Resuming:
        cur.stage = Stage::Array;
        phase(die, array_op(cur.kind), &cur, now);
        cur.until = now + cur.left;
        break;
      default:
        break;
    }
  }
}

void DieStages::next_step(Group& g, const sc_core::sc_time& now) {
  ++g.step;
  g.step_start = now;
  ++usage_.retry_reads;
}

void DieStages::start_plane_read(uint32_t die, uint32_t plane, const sc_core::sc_time& now) {
  DieState& d = state_[die];
  Group& g = d.reads[plane];
  account(die, now);
  g.stage = Stage::Array;
  d.read_planes |= planes_of(g);
  d.sensing += g.planes;
  // The die's state follows all its planes sensing: read, or the multi-plane read's from two.
  g.until = phase(die, FlashOp::ArrayRead, &g, now, d.sensing);
}

void DieStages::finish_plane_reads(uint32_t die, const sc_core::sc_time& now) {
  DieState& d = state_[die];
  bool ended = false;
  for (Group& g : d.reads) {
    if (g.stage != Stage::Array || g.until > now) continue;
    if (!ended) account(die, now);
    ended = true;
    g.stage = Stage::NeedDataOut;
    g.since = now;
    d.sensing -= g.planes;
  }
  if (ended) plane_state(die, now);
  // A failed decode: its planes' next retry step.
  for (uint32_t plane = 0; plane < d.reads.size(); ++plane) {
    Group& g = d.reads[plane];
    if (g.stage != Stage::Decoding || g.until > now) continue;
    next_step(g, now);
    start_plane_read(die, plane, now);
  }
}

void DieStages::plane_state(uint32_t die, const sc_core::sc_time& now) {
  const DieState& d = state_[die];
  if (d.sensing == 0 && !plane_transfer(die)) {
    phase(die, FlashOp::Rest, nullptr, now);
    return;
  }
  die_cmd_.resume_state = d.sensing > 1    ? PowerState::ReadMultiplane
                          : d.sensing == 1 ? PowerState::Read
                                           : PowerState::Transfer;
  phase(die, FlashOp::PlaneState, nullptr, now);
}

void DieStages::account(uint32_t die, const sc_core::sc_time& now) {
  DieState& d = state_[die];
  const sc_core::sc_time length = now - d.changed;
  d.changed = now;
  if (length == sc_core::SC_ZERO_TIME) return;
  if (d.sensing == 0) {
    if (plane_transfer(die))
      charge(d.group(bus_.slot()), power_w(die, PowerState::Transfer) * seconds(length));
    return;
  }
  // Shared per plane among the reads sensing: a multi-plane read takes a share per plane.
  const PowerState s = d.sensing > 1 ? PowerState::ReadMultiplane : PowerState::Read;
  const double per_plane = power_w(die, s) * seconds(length) / double(d.sensing);
  for (Group& g : d.reads)
    if (g.stage == Stage::Array) charge(g, per_plane * double(g.planes));
}

}  // namespace ssd::model::flash
