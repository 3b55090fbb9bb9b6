#include "model/flash/ChannelScheduler.h"

#include <algorithm>

namespace ssd::model::flash {

ChannelScheduler::ChannelScheduler(const ChannelParams& p, uint32_t index, EnergyMonitor& monitor,
                                   PowerBudget* budget, sc_core::sc_event& wake,
                                   sc_core::sc_event& power_down_timer)
    : policy_(p.controller),
      multiplane_(p.flash),
      dies_(p, index, multiplane_.waits(), monitor, budget, power_down_timer),
      cache_program_(p.flash.cache_program),
      merge_reads_(p.units_per_page > 1),
      never_(sc_core::sc_max_time()),
      t_suspend_(p.flash.t_suspend_us, sc_core::SC_US),
      t_resume_(p.flash.t_resume_us, sc_core::SC_US),
      budget_(budget),
      wake_(wake),
      first_die_(index * p.flash.ways_per_channel * p.flash.dies_per_way),
      blocks_per_plane_(p.flash.blocks_per_plane) {}

ChannelScheduler::Arrival ChannelScheduler::arrive(tlm::tlm_generic_payload& gp,
                                                   FlashCommandExt& ext,
                                                   const sc_core::sc_time& now,
                                                   const sc_core::sc_time& arrival) {
  ext.energy_j = 0;
  ext.gc_wait = ext.refresh_wait = sc_core::SC_ZERO_TIME;
  ext.power_wait = sc_core::SC_ZERO_TIME;
  const uint32_t die = ext.die_in_channel;
  DieState& d = dies_.die(die);
  const Cmd c{&gp, &ext, seq_++, arrival};
  if (decides_at_once(d, c)) {
    sc_core::sc_time at;
    const bool answered = start_at_once(die, c, at);
    return Arrival{answered ? Arrival::kAnswered : Arrival::kStarted, at};
  }
  d.queue.push(c, now);
  ++queued_;
  if (!waits_for_die(d) || d.cur.until <= now) return Arrival{Arrival::kQueued, arrival};
  // The command can start only when the die's settled operation ends.
  if (d.cur.stage == Stage::Array || d.cur.stage == Stage::DataOut)
    return Arrival{Arrival::kQueued, std::max(d.cur.until, arrival)};
  // The die waits for the bus or moves data: a wake is pending for that.
  return Arrival{Arrival::kQueued, never_};
}

bool ChannelScheduler::decides_at_once(const DieState& d, const Cmd& c) const {
  // Under oldest-ready, with nothing suspendable, staged or grouped, a command that finds its
  // die and (for a program) the bus free on arrival starts then, unless some other decision
  // could come first: a queued command anywhere on the channel, a die waiting for the bus or
  // about to (a read's array time). Later commands arrive no earlier and rank after it (a
  // multi-plane partner arriving at the same instant would not: no decision at once then).
  if (!dies_.early() || cache_program_ || multiplane_.on() || policy_.ranks()) return false;
  if (budget_) return false;                  // the budget decides in the scheduler
  if (dies_.power_down().on()) return false;  // the die may be off, or go off before the arrival
  if (c.ext->data_ready_at > c.arrival || queued_ != 0) return false;
  if (dies_.die(0).queue.one_shot(c)) return false;  // it waits for its word line
  // No die has a staged program (no cache program) or a parked one (no suspend).
  if (!d.cur.empty() && !(d.cur.settled && d.cur.until <= c.arrival)) return false;
  if (c.ext->op == FlashOp::Program && dies_.bus().busy_at(c.arrival)) return false;
  for (const DieState& o : dies_)
    if (&o != &d && !o.cur.empty() && !o.cur.settled) return false;
  return true;
}

bool ChannelScheduler::start_at_once(uint32_t die, const Cmd& c, sc_core::sc_time& end) {
  DieState& d = dies_.die(die);
  const sc_core::sc_time& at = c.arrival;
  // What ends before it is settled: finishing it now changes no timing.
  dies_.finish_transfer(at);
  if (!d.cur.empty()) dies_.complete(die, d.cur, at);
  d.cur.cmds.assign(1, c);
  d.cur.planes = 1;
  d.cur.kind = c.ext->op;
  d.cur.settled = false;
  d.cur.begin_steps();
  d.cur.started = at;
  c.ext->started = at;
  ++dies_.usage().die_commands[die];
  if (d.cur.kind == FlashOp::Program) {
    d.cur.stage = Stage::NeedDataIn;
    d.cur.since = at;
    dies_.start_transfer(die, BusArbiter::kCur, at);
  } else {
    dies_.start_array(die, d.cur, at);
  }
  if (!d.cur.settled) {  // a read: its data-out is decided when its array time ends
    end = d.cur.until;
    return false;
  }
  end = dies_.take_answer();  // settled: its answer is the only one owed
  return true;
}

bool ChannelScheduler::hold_for_partner(DieState& d, uint32_t node, const sc_core::sc_time& now) {
  const Cmd& first = d.queue.cmd(node);
  if (!multiplane_.waits() || first.ext->op != FlashOp::Program || d.held_seq == first.seq)
    return false;
  sc_core::sc_time until;
  if (!multiplane_.hold_for_partner(d.queue, node, now, until)) return false;
  d.held_seq = first.seq;
  d.partner_until = until;
  return true;
}

PowerBudget::Slot ChannelScheduler::admit(uint32_t die, const Cmd& c, const sc_core::sc_time& now,
                                          bool queue) {
  if (!budget_) return 0;
  return budget_->acquire(first_die_ + die, c.ext->op, multiplane_.on(), now, queue, wake_);
}

void ChannelScheduler::take(uint32_t die, int node, const sc_core::sc_time& now, Group& g,
                            uint64_t busy, uint32_t limit) {
  DieState& d = dies_.die(die);
  ChannelUsage& usage = dies_.usage();
  g.cmds.clear();
  g.cmds.push_back(d.queue.cmd(uint32_t(node)));
  g.kind = g.cmds.front().ext->op;
  g.stage = Stage::None;
  g.settled = false;
  taken_.assign(1, uint32_t(node));
  if (multiplane_.on()) {
    multiplane_.gather(d.queue, now, g, taken_, busy, limit);
    if (g.cmds.size() > 1) ++usage.multiplane_groups;
  }
  g.planes = uint32_t(g.cmds.size());
  g.word_line = d.queue.one_shot(g.cmds.front());
  if (g.word_line) {
    // One-shot programming: each plane's program takes the rest of its word line along.
    for (uint32_t p = 0; p < g.planes; ++p) d.queue.word_line(taken_[p], now, &taken_);
    for (std::size_t j = g.planes; j < taken_.size(); ++j) g.cmds.push_back(d.queue.cmd(taken_[j]));
    usage.word_line_programs += g.planes;
  }
  if (merge_reads_ && g.kind == FlashOp::Read) {
    // Other units of the same pages, queued right behind: one array read serves them.
    for (uint32_t p = 0; p < g.planes; ++p) d.queue.same_page_reads(taken_[p], now, taken_);
    for (std::size_t j = g.planes; j < taken_.size(); ++j) g.cmds.push_back(d.queue.cmd(taken_[j]));
    usage.merged_reads += g.cmds.size() - g.planes;
  }
  g.begin_steps();
  for (const uint32_t j : taken_) d.queue.remove(j);
  queued_ -= uint32_t(taken_.size());
  g.started = now;
  for (const Cmd& c : g.cmds) {
    usage.die_wait[die] += now - c.arrival;
    ++usage.die_commands[die];
    c.ext->started = now;
  }
  // What held the commands back since they were ready: background work (of it, read
  // refresh's), power.
  using Held = std::pair<BackgroundTime*, sc_core::sc_time FlashCommandExt::*>;
  for (const auto& [spans, wait] : {Held{&d.background, &FlashCommandExt::gc_wait},
                                    Held{&d.refresh, &FlashCommandExt::refresh_wait},
                                    Held{&d.power, &FlashCommandExt::power_wait}}) {
    if (spans->empty()) continue;
    for (const Cmd& c : g.cmds)
      c.ext->*wait = spans->between(std::max(c.arrival, c.ext->data_ready_at), now);
    if (spans->crowded()) spans->forget_before(d.queue.oldest_arrival());
  }
}

void ChannelScheduler::resume_or_read(uint32_t die, const sc_core::sc_time& now) {
  DieState& d = dies_.die(die);
  const int k = policy_.pick(d.queue, now, Want{false, true, &d.parked});
  const PowerBudget::Slot slot =
      k >= 0 ? admit(die, d.queue.cmd(uint32_t(k)), now, false) : PowerBudget::kNone;
  if (slot != PowerBudget::kNone) {
    take(die, k, now, d.cur);
    d.cur.budget = slot;
    dies_.start_array(die, d.cur, now);
    return;
  }
  std::swap(d.cur, d.parked);
  d.cur.started = now;
  d.cur.stage = Stage::Resuming;
  d.cur.until = dies_.phase(die, FlashOp::Resume, &d.cur, now);
  dies_.charge_array(die, d.cur, t_resume_);
}

void ChannelScheduler::suspend_or_stage(uint32_t die, const sc_core::sc_time& now) {
  DieState& d = dies_.die(die);
  if (policy_.suspend()) {
    const int k = policy_.pick(d.queue, now, Want{false, true, &d.cur});
    const PowerBudget::Slot slot =
        k >= 0 ? admit(die, d.queue.cmd(uint32_t(k)), now, false) : PowerBudget::kNone;
    if (slot != PowerBudget::kNone) {
      std::swap(d.parked, d.cur);
      d.parked.left = d.parked.until - now;
      d.background_until(d.parked, now);
      take(die, k, now, d.cur);
      d.cur.budget = slot;
      d.cur.stage = Stage::Suspending;
      d.cur.until = dies_.phase(die, FlashOp::Suspend, &d.parked, now);
      dies_.charge_array(die, d.parked, t_suspend_);
      ++dies_.usage().suspensions;
      return;
    }
  }
  if (!cache_program_ || d.cur.kind != FlashOp::Program) return;
  // Under read_first a ready read goes next: no program is staged ahead of it.
  const int next = policy_.pick(d.queue, now, Want{});
  if (policy_.read_first() && next >= 0 && d.queue.cmd(uint32_t(next)).ext->op == FlashOp::Read)
    return;
  const int k = policy_.pick(d.queue, now, Want{true, false, nullptr});
  if (k < 0) return;
  // A partner on another plane about to be ready joins it there too: the die is busy anyway.
  if (multiplane_.waits() && d.queue.cmd(uint32_t(k)).ext->op == FlashOp::Program &&
      multiplane_.hold_for_partner(d.queue, uint32_t(k), now, d.partner_until))
    return;
  const PowerBudget::Slot slot = admit(die, d.queue.cmd(uint32_t(k)), now, false);
  if (slot == PowerBudget::kNone) return;
  take(die, k, now, d.staged);
  d.staged.budget = slot;
  d.staged.stage = Stage::NeedDataIn;
  d.staged.since = now;
  dies_.usage().cache_programs += d.staged.cmds.size();
}

void ChannelScheduler::start_dies(const sc_core::sc_time& now) {
  for (uint32_t die = 0; die < dies_.size(); ++die) {
    DieState& d = dies_.die(die);
    if (!d.cur.empty()) {
      if (d.cur.stage == Stage::Array && d.cur.kind != FlashOp::Read && d.parked.empty() &&
          d.staged.empty())
        suspend_or_stage(die, now);
      continue;
    }
    if (!d.parked.empty()) {
      resume_or_read(die, now);  // a suspended operation: further host reads first
      continue;
    }
    if (d.hold_until > now) continue;  // waking from power-down
    if (dies_.plane_reads() && start_plane_reads(die, now)) continue;
    const int k = policy_.pick(d.queue, now, Want{});
    if (k < 0) continue;
    // The hold is the program's: a read the policy puts ahead of it starts now.
    if (d.partner_until > now && d.queue.cmd(uint32_t(k)).ext->op != FlashOp::Read) continue;
    // A die woken now holds until its wake ends (t_wake_us 0: it starts at once).
    if (dies_.wake(die, now) && d.hold_until > now) continue;
    if (hold_for_partner(d, uint32_t(k), now)) continue;
    const PowerBudget::Slot slot = admit(die, d.queue.cmd(uint32_t(k)), now, true);
    if (slot == PowerBudget::kNone) {  // the budget wakes the channel
      d.budget_since = std::min(d.budget_since, now);
      continue;
    }
    if (d.budget_since < now) d.power.add(d.budget_since, now);
    d.budget_since = never_;
    take(die, k, now, d.cur);
    d.cur.budget = slot;
    if (d.cur.kind == FlashOp::Program) {
      d.cur.stage = Stage::NeedDataIn;
      d.cur.since = now;
    } else {
      dies_.start_array(die, d.cur, now);
    }
  }
}

bool ChannelScheduler::start_plane_reads(uint32_t die, const sc_core::sc_time& now) {
  DieState& d = dies_.die(die);
  Want want;
  want.blocks_per_plane = blocks_per_plane_;
  for (;;) {
    const uint32_t used = uint32_t(__builtin_popcountll(d.read_planes));
    if (used >= dies_.reads_max()) return true;
    want.busy_planes = d.read_planes;
    const int k = policy_.pick(d.queue, now, want);
    if (k < 0) return true;
    const Cmd& c = d.queue.cmd(uint32_t(k));
    // A program, erase or spare read takes the whole die: the die drains for it.
    if (c.ext->op != FlashOp::Read || c.ext->spare) return used != 0;
    // A die reading nothing may be off (or due off): it wakes first.
    if (used == 0 && dies_.wake(die, now) && d.hold_until > now) return true;
    const PowerBudget::Slot slot = admit(die, c, now, true);
    if (slot == PowerBudget::kNone) {  // the budget wakes the channel
      d.budget_since = std::min(d.budget_since, now);
      return true;
    }
    if (d.budget_since < now) d.power.add(d.budget_since, now);
    d.budget_since = never_;
    const uint32_t plane = multiplane_.plane_of(c);
    take(die, k, now, d.reads[plane], d.read_planes, dies_.reads_max() - used);
    d.reads[plane].budget = slot;
    dies_.start_plane_read(die, plane, now);
  }
}

bool ChannelScheduler::grant_bus(const sc_core::sc_time& now) {
  if (dies_.bus().held()) return false;
  BusArbiter::Choice best;
  const auto consider = [&](uint32_t die, const Group& g, uint32_t slot) {
    if (g.empty()) return;
    const bool out = g.stage == Stage::NeedDataOut;
    if (!out && g.stage != Stage::NeedDataIn) return;
    best.offer(die, slot, policy_.rank(g.cmds.front(), out), g.cmds.front().seq);
  };
  for (uint32_t die = 0; die < dies_.size(); ++die) {
    const DieState& d = dies_.die(die);
    consider(die, d.cur, BusArbiter::kCur);
    consider(die, d.staged, BusArbiter::kStaged);
    if (d.read_planes == 0) continue;
    for (uint32_t p = 0; p < d.reads.size(); ++p) consider(die, d.reads[p], BusArbiter::kRead0 + p);
  }
  if (!best.any()) return false;
  dies_.start_transfer(best.die(), best.slot(), now);
  return true;
}

sc_core::sc_time ChannelScheduler::next_event(const sc_core::sc_time& now) {
  sc_core::sc_time next = never_;
  bool bus_wanted = false;
  for (DieState& d : dies_) {
    const bool more = d.queue.size() != 0 || !d.staged.empty() || !d.parked.empty();
    if (!d.cur.empty()) {
      switch (d.cur.stage) {
        case Stage::NeedDataIn:
        case Stage::NeedDataOut:
          bus_wanted = true;
          break;
        // An answered end needs a wake only if the die has more to do.
        case Stage::Array:
          if (!dies_.early() || d.cur.kind == FlashOp::Read || more)
            next = std::min(next, d.cur.until);
          break;
        case Stage::DataOut:  // settled: answered, the die's rest reported
          if (!d.cur.settled || more) next = std::min(next, d.cur.until);
          break;
        default:
          next = std::min(next, d.cur.until);
      }
    }
    if (d.read_planes != 0) {
      for (const Group& g : d.reads) {
        if (g.stage == Stage::NeedDataOut) bus_wanted = true;
        if (g.stage == Stage::Array || g.stage == Stage::DataOut || g.stage == Stage::Decoding)
          next = std::min(next, g.until);
      }
    }
    if (d.staged.stage == Stage::NeedDataIn) bus_wanted = true;
    if (d.staged.stage == Stage::DataIn) next = std::min(next, d.staged.until);
    if (d.hold_until > now) next = std::min(next, d.hold_until);
    if (d.partner_until > now) next = std::min(next, d.partner_until);
    if (!waits_for_die(d)) next = std::min(next, d.queue.next_ready(now));
  }
  if (bus_wanted && dies_.bus().held()) next = std::min(next, dies_.bus().until());
  return next;
}

bool ChannelScheduler::waits_for_bus(const sc_core::sc_time& now) const {
  for (const DieState& d : dies_) {
    if (d.cur.stage == Stage::NeedDataIn || d.cur.stage == Stage::NeedDataOut ||
        d.staged.stage == Stage::NeedDataIn)
      return true;
    if (d.read_planes != 0)
      for (const Group& g : d.reads)
        if (g.stage == Stage::NeedDataOut) return true;
    // A command queued at a die that is free (or frees now) is about to take its turn; one
    // behind a busy die waits for the die, not the bus.
    if (d.queue.size() != 0 && (d.cur.empty() || (d.cur.settled && d.cur.until <= now)))
      return true;
  }
  return false;
}

}  // namespace ssd::model::flash
