#include "model/flash/FlashChannel.h"

#include <algorithm>

#include "common/SimNow.h"
#include "config/DriveConfig.h"

namespace ssd::model {
namespace {
constexpr const char* kMsgId = "/ssdtlm/channel";

// Seconds of a duration (the time resolution is 1 ps; sc_time::to_seconds is slower).
double seconds(const sc_core::sc_time& t) { return double(t.value()) * 1e-12; }

FlashOp array_op(FlashOp kind) {
  return kind == FlashOp::Read      ? FlashOp::ArrayRead
         : kind == FlashOp::Program ? FlashOp::ArrayProgram
                                    : FlashOp::ArrayErase;
}
}  // namespace

FlashChannel::Params FlashChannel::params(const config::DriveConfig& drive) {
  return Params{drive.flash, drive.controller, drive.units_per_page(), drive.unit_bytes(),
                drive.reads_spare_areas()};
}

FlashChannel::FlashChannel(sc_core::sc_module_name name, uint32_t index, const Params& p,
                           EnergyMonitor& monitor, PowerBudget* budget)
    : sc_module(name),
      socket("socket"),
      die_socket("die_socket"),
      unit_transfer_(p.unit_bytes * p.flash.bus_ns_per_byte, sc_core::SC_NS),
      spare_transfer_(p.flash.oob_bytes * p.flash.bus_ns_per_byte, sc_core::SC_NS),
      cache_program_(p.flash.cache_program),
      in_order_(p.controller.issue_order == config::IssueOrder::InOrder),
      early_(!p.controller.suspend_for_reads),
      merge_reads_(p.units_per_page > 1),
      never_(sc_core::sc_max_time()),
      t_suspend_(p.flash.t_suspend_us, sc_core::SC_US),
      t_resume_(p.flash.t_resume_us, sc_core::SC_US),
      p_bus_w_(p.flash.i_bus_ma * 1e-3 * p.flash.bus_voltage_v),
      policy_(p.controller),
      multiplane_(p.flash),
      power_down_(p.flash.die_power_down, p.flash.ways_per_channel * p.flash.dies_per_way),
      budget_(budget),
      first_die_(index * p.flash.ways_per_channel * p.flash.dies_per_way),
      die_cmd_(*new FlashCommandExt),
      psm_(monitor, "ch" + std::to_string(index), "channel", p.flash.bus_voltage_v,
           {{PowerState::Idle, 0.0}, {PowerState::Transfer, p.flash.i_bus_ma}}, PowerState::Idle) {
  const config::FlashConfig& cfg = p.flash;
  socket.bind(*this);
  for (uint32_t way = 0; way < cfg.ways_per_channel; ++way) {
    for (uint32_t d = 0; d < cfg.dies_per_way; ++d) {
      const std::string leaf = "w" + std::to_string(way) + "d" + std::to_string(d);
      dies_.push_back(std::make_unique<NandDie>(leaf.c_str(), cfg, p.units_per_page, p.spare_reads,
                                                monitor,
                                                "ch" + std::to_string(index) + "." + leaf));
      die_socket.bind(dies_.back()->socket);
    }
  }
  state_.reserve(dies_.size());
  for (std::size_t i = 0; i < dies_.size(); ++i)
    state_.emplace_back(cfg.blocks_per_die(), cfg.pages_per_block,
                        p.controller.block_order == config::BlockOrder::Nand, multiplane_.waits());
  usage_.die_wait.assign(dies_.size(), sc_core::SC_ZERO_TIME);
  usage_.die_commands.assign(dies_.size(), 0);
  die_gp_.set_extension(&die_cmd_);  // the payload owns and frees it
  SC_METHOD(schedule);
  sensitive << wake_;
  dont_initialize();
  if (power_down_.on()) {
    SC_METHOD(power_down_dies);
    sensitive << power_down_timer_;
    dont_initialize();
    power_down_timer_.notify(power_down_.idle());
  }
}

unsigned int FlashChannel::transport_dbg(tlm::tlm_generic_payload& gp) {
  auto* cmd = gp.get_extension<FlashCommandExt>();
  if (!cmd) SC_REPORT_FATAL(kMsgId, "FlashChannel: transaction without a FlashCommandExt");
  if (cmd->die_in_channel >= dies_.size()) SC_REPORT_FATAL(kMsgId, "FlashChannel: no such die");
  const FlashOp requested = cmd->op;
  if (requested == FlashOp::Preset) return die_socket[cmd->die_in_channel]->transport_dbg(gp);
  if (requested != FlashOp::Read && requested != FlashOp::Program && requested != FlashOp::Erase)
    SC_REPORT_FATAL(kMsgId, "FlashChannel: no debug transport for this command");
  cmd->op = array_op(requested);
  const unsigned int n = die_socket[cmd->die_in_channel]->transport_dbg(gp);
  cmd->op = requested;
  return n;
}

void FlashChannel::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  auto* cmd = gp.get_extension<FlashCommandExt>();
  if (!cmd) SC_REPORT_FATAL(kMsgId, "FlashChannel: transaction without a FlashCommandExt");
  const FlashOp requested = cmd->op;
  if (requested != FlashOp::PowerOff && requested != FlashOp::PowerOn)
    SC_REPORT_FATAL(kMsgId, "FlashChannel: only power commands are blocking");
  // Broadcast: every die of the channel changes its rest state (the controller powers dies
  // off only while none has work).
  cmd->op = requested == FlashOp::PowerOff ? FlashOp::DiePowerOff : FlashOp::DiePowerOn;
  for (uint32_t i = 0; i < dies_.size(); ++i) {
    sc_core::sc_time d = delay;
    die_socket[i]->b_transport(gp, d);
  }
  cmd->op = requested;
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

tlm::tlm_sync_enum FlashChannel::nb_transport_fw(tlm::tlm_generic_payload& gp,
                                                 tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase == DATA_READY) {
    const auto* cmd = gp.get_extension<FlashCommandExt>();
    // Only a queued program can wait for its data: it cannot have started without it.
    if (!cmd || cmd->die_in_channel >= state_.size() ||
        !state_[cmd->die_in_channel].queue.holds(cmd->queue_node, &gp))
      SC_REPORT_FATAL(kMsgId, "FlashChannel: DATA_READY for a command not queued");
    state_[cmd->die_in_channel].queue.data_ready(cmd->queue_node, sim_now());
    wake_.notify(delay);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == PROMOTE) {
    const auto* cmd = gp.get_extension<FlashCommandExt>();
    if (!cmd || cmd->die_in_channel >= state_.size())
      SC_REPORT_FATAL(kMsgId, "FlashChannel: PROMOTE for no command of the channel");
    flash::DieQueue& q = state_[cmd->die_in_channel].queue;
    if (q.holds(cmd->queue_node, &gp)) {
      q.promote(cmd->queue_node);
      wake_.notify(delay);
    }
    return tlm::TLM_ACCEPTED;
  }
  if (phase != tlm::BEGIN_REQ) SC_REPORT_FATAL(kMsgId, "FlashChannel: unexpected phase");
  auto* cmd = gp.get_extension<FlashCommandExt>();
  if (!cmd) SC_REPORT_FATAL(kMsgId, "FlashChannel: transaction without a FlashCommandExt");
  // The contents change in issue order (see NandDie.h); a read learns its data here.
  transport_dbg(gp);
  if (gp.get_response_status() != tlm::TLM_OK_RESPONSE) return tlm::TLM_COMPLETED;
  cmd->energy_j = 0;
  cmd->gc_wait = sc_core::SC_ZERO_TIME;
  cmd->power_wait = sc_core::SC_ZERO_TIME;
  DieState& d = state_[cmd->die_in_channel];
  const sc_core::sc_time now = sim_now();
  const Cmd c{&gp, cmd, seq_++, now + delay};
  if (decides_at_once(d, c)) return start_at_once(cmd->die_in_channel, c, delay);
  d.queue.push(c, now);
  ++queued_;
  if (!waits_for_die(d) || d.cur.until <= now) {
    wake_.notify(delay);
  } else if (d.cur.stage == Stage::Array || d.cur.stage == Stage::DataOut) {
    // The command can start only when the die's settled operation ends.
    wake_.notify(std::max(d.cur.until - now, delay));
  }  // else the die waits for the bus or moves data: a wake is pending for that
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

bool FlashChannel::decides_at_once(const DieState& d, const Cmd& c) const {
  // Under oldest-ready, with nothing suspendable, staged or grouped, a command that finds its
  // die and (for a program) the bus free on arrival starts then, unless some other decision
  // could come first: a queued command anywhere on the channel, a die waiting for the bus or
  // about to (a read's array time). Later commands arrive no earlier and rank after it (a
  // multi-plane partner arriving at the same instant would not: no decision at once then).
  if (!early_ || cache_program_ || multiplane_.on() || policy_.ranks()) return false;
  if (budget_) return false;           // the budget decides in the scheduler
  if (power_down_.on()) return false;  // the die may be off, or go off before the arrival
  if (c.ext->data_ready_at > c.arrival || queued_ != 0) return false;
  // No die has a staged program (no cache program) or a parked one (no suspend).
  if (!d.cur.empty() && !(d.cur.settled && d.cur.until <= c.arrival)) return false;
  if (c.ext->op == FlashOp::Program && bus_.busy_at(c.arrival)) return false;
  for (const DieState& o : state_)
    if (&o != &d && !o.cur.empty() && !o.cur.settled) return false;
  return true;
}

tlm::tlm_sync_enum FlashChannel::start_at_once(uint32_t die, const Cmd& c,
                                               sc_core::sc_time& delay) {
  DieState& d = state_[die];
  const sc_core::sc_time& at = c.arrival;
  // What ends before it is settled: finishing it now changes no timing.
  finish_transfer(at);
  if (!d.cur.empty()) complete(die, d.cur, at);
  d.cur.cmds.assign(1, c);
  d.cur.planes = 1;
  d.cur.kind = c.ext->op;
  d.cur.settled = false;
  d.cur.started = at;
  c.ext->started = at;
  ++usage_.die_commands[die];
  if (d.cur.kind == FlashOp::Program) {
    d.cur.stage = Stage::NeedDataIn;
    d.cur.since = at;
    start_transfer(die, d.cur, false, at);
  } else {
    start_array(die, d.cur, at);
  }
  if (!d.cur.settled) {  // a read: its data-out is decided when its array time ends
    wake_.notify(d.cur.until - sim_now());
    return tlm::TLM_ACCEPTED;
  }
  // Settled: its answer is the only one queued.
  const Answer a = done_.back();
  done_.clear();
  c.gp->set_response_status(tlm::TLM_OK_RESPONSE);
  delay = a.end - sim_now();
  return tlm::TLM_COMPLETED;
}

bool FlashChannel::hold_for_partner(DieState& d, uint32_t node, const sc_core::sc_time& now) {
  const Cmd& first = d.queue.cmd(node);
  if (!multiplane_.waits() || first.ext->op != FlashOp::Program || d.held_seq == first.seq)
    return false;
  sc_core::sc_time until;
  if (!multiplane_.hold_for_partner(d.queue, node, now, until)) return false;
  d.held_seq = first.seq;
  d.hold_until = until;
  return true;
}

PowerBudget::Slot FlashChannel::admit(uint32_t die, const Cmd& c, const sc_core::sc_time& now,
                                      bool queue) {
  if (!budget_) return 0;
  return budget_->acquire(first_die_ + die, c.ext->op, multiplane_.on(), now, queue, wake_);
}

void FlashChannel::take(uint32_t die, int node, const sc_core::sc_time& now, Group& g) {
  DieState& d = state_[die];
  g.cmds.clear();
  g.cmds.push_back(d.queue.cmd(uint32_t(node)));
  g.kind = g.cmds.front().ext->op;
  g.stage = Stage::None;
  g.settled = false;
  taken_.assign(1, uint32_t(node));
  if (multiplane_.on()) {
    multiplane_.gather(d.queue, now, g, taken_);
    if (g.cmds.size() > 1) ++usage_.multiplane_groups;
  }
  g.planes = uint32_t(g.cmds.size());
  if (merge_reads_ && g.kind == FlashOp::Read) {
    // Other units of the same pages, queued right behind: one array read serves them.
    for (uint32_t p = 0; p < g.planes; ++p) d.queue.same_page_reads(taken_[p], now, taken_);
    for (std::size_t j = g.planes; j < taken_.size(); ++j) g.cmds.push_back(d.queue.cmd(taken_[j]));
    usage_.merged_reads += g.cmds.size() - g.planes;
  }
  for (const uint32_t j : taken_) d.queue.remove(j);
  queued_ -= uint32_t(taken_.size());
  g.started = now;
  for (const Cmd& c : g.cmds) {
    usage_.die_wait[die] += now - c.arrival;
    ++usage_.die_commands[die];
    c.ext->started = now;
  }
  // What held the commands back since they were ready: background work, power.
  for (flash::BackgroundTime* spans : {&d.background, &d.power}) {
    if (spans->empty()) continue;
    sc_core::sc_time FlashCommandExt::*wait =
        spans == &d.power ? &FlashCommandExt::power_wait : &FlashCommandExt::gc_wait;
    for (const Cmd& c : g.cmds)
      c.ext->*wait = spans->between(std::max(c.arrival, c.ext->data_ready_at), now);
    if (spans->crowded()) spans->forget_before(d.queue.oldest_arrival());
  }
}

sc_core::sc_time FlashChannel::die_phase(uint32_t die, FlashOp op, const Group* g,
                                         const sc_core::sc_time& now) {
  die_cmd_.op = op;
  die_cmd_.die_in_channel = die;
  if (g) {
    die_cmd_.ppa = g->cmds.front().ext->ppa;
    die_cmd_.slc = g->cmds.front().ext->slc;
    die_cmd_.spare = g->cmds.front().ext->spare;
    die_cmd_.planes = g->planes;
    die_cmd_.bus_time = transfer_time(*g);
    die_cmd_.resume_state = array_state(*g);
  }
  const sc_core::sc_time stamp = sim_now();
  sc_core::sc_time delay = now - stamp;
  die_socket[die]->b_transport(die_gp_, delay);
  if (power_down_.on()) {
    const bool rests =
        op == FlashOp::Rest || op == FlashOp::DataInProgram || op == FlashOp::DataOutRest;
    note_rest(die, rests ? stamp + delay : never_);
  }
  return stamp + delay;
}

void FlashChannel::note_rest(uint32_t die, const sc_core::sc_time& rest_at) {
  power_down_.note_rest(die, rest_at);
  if (rest_at != never_) power_down_timer_.notify(rest_at + power_down_.idle() - sim_now());
}

bool FlashChannel::die_resting(uint32_t die, const sc_core::sc_time& now) const {
  // A settled operation that has ended leaves the die at rest until the scheduler next runs.
  const DieState& d = state_[die];
  return d.staged.empty() && d.parked.empty() &&
         (d.cur.empty() || (d.cur.settled && d.cur.until <= now));
}

void FlashChannel::power_down_dies() {
  const sc_core::sc_time now = sim_now();
  const sc_core::sc_time next = power_down_.next_due(now);
  const auto resting = [&](uint32_t d) { return die_resting(d, now); };
  for (uint32_t die = 0; die < dies_.size(); ++die) {
    if (!power_down_.goes_off(die, now, resting)) continue;
    die_phase(die, FlashOp::DiePowerOff, nullptr, now);
    power_down_.set_off(die, true);
    ++usage_.die_power_downs;
  }
  if (next != never_) power_down_timer_.notify(next - now);
}

bool FlashChannel::wake_die(uint32_t die, const sc_core::sc_time& now) {
  if (!power_down_.on()) return false;
  // Due to go off now, its timer not yet run: it goes off and wakes in the same instant.
  if (!power_down_.off(die) &&
      !power_down_.goes_off(die, now, [&](uint32_t d) { return die_resting(d, now); }))
    return false;
  const bool all = power_down_.channel_scope();
  const uint32_t first = all ? 0 : die;
  const uint32_t last = all ? uint32_t(dies_.size()) : die + 1;
  for (uint32_t d = first; d < last; ++d) {
    if (!power_down_.off(d)) ++usage_.die_power_downs;
    power_down_.set_off(d, false);
    die_phase(d, FlashOp::DiePowerOff, nullptr, now);
    die_phase(d, FlashOp::DiePowerOn, nullptr, now);
    state_[d].hold_until = std::max(state_[d].hold_until, now + power_down_.t_wake());
    // A budget hold it went off in ends here; the wake is a power hold of its own.
    if (state_[d].budget_since < now) state_[d].power.add(state_[d].budget_since, now);
    state_[d].budget_since = never_;
    state_[d].power.add(now, now + power_down_.t_wake());
    note_rest(d, now + power_down_.t_wake());  // at rest once awake, until it starts its command
    ++usage_.die_wakes;
  }
  return true;
}

PowerState FlashChannel::array_state(const Group& g) {
  const bool multi = g.planes > 1;
  switch (g.kind) {
    case FlashOp::Read:
      if (g.cmds.front().ext->spare) return PowerState::SpareRead;  // never grouped
      return multi ? PowerState::ReadMultiplane : PowerState::Read;
    case FlashOp::Program:
      return multi ? PowerState::ProgramMultiplane : PowerState::Program;
    default:
      return multi ? PowerState::EraseMultiplane : PowerState::Erase;
  }
}

void FlashChannel::charge(Group& g, double joules) {
  const double share = joules / double(g.cmds.size());
  for (Cmd& c : g.cmds) c.ext->energy_j += share;
}

void FlashChannel::start_array(uint32_t die, Group& g, sc_core::sc_time at) {
  g.stage = Stage::Array;
  g.until = die_phase(die, array_op(g.kind), &g, at);
  charge(g, array_power_w(die, g) * seconds(g.until - at));
  if (early_ && g.kind != FlashOp::Read) settle(die, g);
}

bool FlashChannel::waits_for_die(const DieState& d) const {
  return early_ && !cache_program_ && !d.cur.empty();
}

void FlashChannel::settle(uint32_t die, Group& g) {
  answer(die, g, g.until);
  die_phase(die, FlashOp::Rest, nullptr, g.until);
  g.settled = true;
}

void FlashChannel::answer(uint32_t die, Group& g, const sc_core::sc_time& end) {
  if (g.background()) state_[die].background.add(g.started, end);
  if (budget_ && g.budget != PowerBudget::kNone) {
    budget_->release(g.budget, end);
    g.budget = PowerBudget::kNone;
  }
  for (Cmd& c : g.cmds) {
    if (c.answered) continue;
    c.answered = true;
    done_.push_back(Answer{c.gp, end});
  }
}

void FlashChannel::start_transfer(uint32_t die, Group& g, bool staged,
                                  const sc_core::sc_time& now) {
  const sc_core::sc_time length = transfer_time(g);
  const bool in = g.stage == Stage::NeedDataIn;
  usage_.bus_wait += now - g.since;
  g.stage = in ? Stage::DataIn : Stage::DataOut;
  g.until = now + length;
  bus_.grant(die, staged, g.until);
  psm_.occupy(PowerState::Transfer, now, g.until);
  double joules = p_bus_w_ * seconds(length);
  // A staged program's data moves into the cache register while the die keeps programming.
  if (staged) {
    charge(g, joules);
    return;
  }
  joules += transfer_power_w(die) * seconds(length);
  if (!early_) {
    die_phase(die, in ? FlashOp::DataIn : FlashOp::DataOut, &g, now);
    charge(g, joules);
    return;
  }
  // Nothing can come between this transfer and what follows it: the die runs the whole
  // sequence, back to rest, and the commands are answered with their end.
  if (in) {
    const sc_core::sc_time bus_end = g.until;
    g.stage = Stage::Array;
    g.until = die_phase(die, FlashOp::DataInProgram, &g, now);
    joules += array_power_w(die, g) * seconds(g.until - bus_end);
  } else {
    die_phase(die, FlashOp::DataOutRest, &g, now);
  }
  charge(g, joules);
  answer(die, g, g.until);
  g.settled = true;
}

void FlashChannel::complete(uint32_t die, Group& g, const sc_core::sc_time& now) {
  answer(die, g, now);
  g.cmds.clear();
  g.stage = Stage::None;
  if (!g.settled) die_phase(die, FlashOp::Rest, nullptr, now);
  g.settled = false;
}

void FlashChannel::finish_transfer(const sc_core::sc_time& now) {
  if (!bus_.held() || bus_.until() > now) return;
  const uint32_t die = bus_.holder();
  const bool staged = bus_.staged();
  DieState& d = state_[die];
  Group& g = staged ? d.staged : d.cur;
  bus_.release();
  if (g.stage == Stage::DataOut)
    complete(die, g, now);
  else if (g.stage == Stage::DataIn && staged)
    g.stage = Stage::Queued;
  else if (g.stage == Stage::DataIn)
    start_array(die, g, bus_.until());
}

void FlashChannel::finish_stages(const sc_core::sc_time& now) {
  finish_transfer(now);
  for (uint32_t die = 0; die < state_.size(); ++die) {
    DieState& d = state_[die];
    Group& cur = d.cur;
    if (cur.empty() || cur.until > now) continue;
    switch (cur.stage) {
      case Stage::Array:
        if (cur.kind == FlashOp::Read) {
          cur.stage = Stage::NeedDataOut;
          cur.since = now;
          // The page register holds the data: the array is idle until the bus takes it.
          die_phase(die, FlashOp::Rest, nullptr, now);
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
            die_phase(die, FlashOp::DataIn, &cur, now);
            charge(cur, transfer_power_w(die) * seconds(bus_.until() - now));
          }
        }
        break;
      case Stage::Suspending:
        start_array(die, cur, now);
        break;
      case Stage::Resuming:
        cur.stage = Stage::Array;
        die_phase(die, array_op(cur.kind), &cur, now);
        cur.until = now + cur.left;
        break;
      default:
        break;
    }
  }
}

void FlashChannel::resume_or_read(uint32_t die, const sc_core::sc_time& now) {
  DieState& d = state_[die];
  const int k = policy_.pick(d.queue, now, Want{false, true, &d.parked});
  const PowerBudget::Slot slot =
      k >= 0 ? admit(die, d.queue.cmd(uint32_t(k)), now, false) : PowerBudget::kNone;
  if (slot != PowerBudget::kNone) {
    take(die, k, now, d.cur);
    d.cur.budget = slot;
    start_array(die, d.cur, now);
    return;
  }
  std::swap(d.cur, d.parked);
  d.cur.started = now;
  d.cur.stage = Stage::Resuming;
  d.cur.until = die_phase(die, FlashOp::Resume, &d.cur, now);
  charge(d.cur, array_power_w(die, d.cur) * seconds(t_resume_));
}

void FlashChannel::suspend_or_stage(uint32_t die, const sc_core::sc_time& now) {
  DieState& d = state_[die];
  if (policy_.suspend()) {
    const int k = policy_.pick(d.queue, now, Want{false, true, &d.cur});
    const PowerBudget::Slot slot =
        k >= 0 ? admit(die, d.queue.cmd(uint32_t(k)), now, false) : PowerBudget::kNone;
    if (slot != PowerBudget::kNone) {
      std::swap(d.parked, d.cur);
      d.parked.left = d.parked.until - now;
      if (d.parked.background()) d.background.add(d.parked.started, now);
      take(die, k, now, d.cur);
      d.cur.budget = slot;
      d.cur.stage = Stage::Suspending;
      d.cur.until = die_phase(die, FlashOp::Suspend, &d.parked, now);
      charge(d.parked, array_power_w(die, d.parked) * seconds(t_suspend_));
      ++usage_.suspensions;
      return;
    }
  }
  if (!cache_program_ || d.cur.kind != FlashOp::Program) return;
  // Under read_first a ready read goes next: no program is staged ahead of it.
  const int next = policy_.pick(d.queue, now, Want{});
  if (policy_.read_first() && next >= 0 && d.queue.cmd(uint32_t(next)).ext->op == FlashOp::Read)
    return;
  const int k = policy_.pick(d.queue, now, Want{true, false, nullptr});
  const PowerBudget::Slot slot =
      k >= 0 ? admit(die, d.queue.cmd(uint32_t(k)), now, false) : PowerBudget::kNone;
  if (slot == PowerBudget::kNone) return;
  take(die, k, now, d.staged);
  d.staged.budget = slot;
  d.staged.stage = Stage::NeedDataIn;
  d.staged.since = now;
  usage_.cache_programs += d.staged.cmds.size();
}

void FlashChannel::start_dies(const sc_core::sc_time& now) {
  for (uint32_t die = 0; die < state_.size(); ++die) {
    DieState& d = state_[die];
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
    if (d.hold_until > now) continue;  // waiting for a multi-plane partner
    const int k = policy_.pick(d.queue, now, Want{});
    if (k < 0) continue;
    // A die woken now holds until its wake ends (t_wake_us 0: it starts at once).
    if (wake_die(die, now) && d.hold_until > now) continue;
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
      start_array(die, d.cur, now);
    }
  }
}

bool FlashChannel::grant_bus(const sc_core::sc_time& now) {
  if (bus_.held()) return false;
  flash::BusArbiter::Choice best;
  const auto consider = [&](uint32_t die, const Group& g, bool staged) {
    if (g.empty()) return;
    const bool out = g.stage == Stage::NeedDataOut;
    if (!out && g.stage != Stage::NeedDataIn) return;
    best.offer(die, staged, policy_.rank(g.cmds.front(), out), g.cmds.front().seq);
  };
  for (uint32_t die = 0; die < state_.size(); ++die) {
    consider(die, state_[die].cur, false);
    consider(die, state_[die].staged, true);
  }
  if (!best.any()) return false;
  DieState& d = state_[best.die()];
  start_transfer(best.die(), best.staged() ? d.staged : d.cur, best.staged(), now);
  return true;
}

void FlashChannel::wake_at_next_event(const sc_core::sc_time& now) {
  sc_core::sc_time next = never_;
  bool bus_wanted = false;
  for (DieState& d : state_) {
    const bool more = d.queue.size() != 0 || !d.staged.empty() || !d.parked.empty();
    if (!d.cur.empty()) {
      switch (d.cur.stage) {
        case Stage::NeedDataIn:
        case Stage::NeedDataOut:
          bus_wanted = true;
          break;
        // An answered end needs a wake only if the die has more to do.
        case Stage::Array:
          if (!early_ || d.cur.kind == FlashOp::Read || more) next = std::min(next, d.cur.until);
          break;
        case Stage::DataOut:
          if (!early_ || more) next = std::min(next, d.cur.until);
          break;
        default:
          next = std::min(next, d.cur.until);
      }
    }
    if (d.staged.stage == Stage::NeedDataIn) bus_wanted = true;
    if (d.staged.stage == Stage::DataIn) next = std::min(next, d.staged.until);
    if (d.hold_until > now) next = std::min(next, d.hold_until);
    if (!waits_for_die(d)) next = std::min(next, d.queue.next_ready(now));
  }
  if (bus_wanted && bus_.held()) next = std::min(next, bus_.until());
  if (next != never_) wake_.notify(next - now);
}

void FlashChannel::schedule() {
  const sc_core::sc_time now = sim_now();
  // One pass settles everything due now: ends free dies and the bus, free dies start, the
  // bus goes to a waiting die; a die whose program just started may stage the next one.
  finish_stages(now);
  start_dies(now);
  if (grant_bus(now) && cache_program_) start_dies(now);
  // Answer after the pass: the controller may send commands from its handler (they wake
  // this method again).
  std::swap(done_, answering_);
  for (const Answer& a : answering_) {
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = a.end - now;
    a.gp->set_response_status(tlm::TLM_OK_RESPONSE);
    socket->nb_transport_bw(*a.gp, phase, delay);
  }
  answering_.clear();
  wake_at_next_event(now);
  if (in_order_) progress_.notify(sc_core::SC_ZERO_TIME);
}

bool FlashChannel::waits_for_bus(const sc_core::sc_time& now) const {
  for (const DieState& d : state_) {
    if (d.cur.stage == Stage::NeedDataIn || d.cur.stage == Stage::NeedDataOut ||
        d.staged.stage == Stage::NeedDataIn)
      return true;
    // A command queued at a die that is free (or frees now) is about to take its turn; one
    // behind a busy die waits for the die, not the bus.
    if (d.queue.size() != 0 && (d.cur.empty() || (d.cur.settled && d.cur.until <= now)))
      return true;
  }
  return false;
}

bool FlashChannel::takes_command(const sc_core::sc_time& now) const {
  return !bus_.busy_at(now) && !waits_for_bus(now);
}

sc_core::sc_time FlashChannel::free_at(const sc_core::sc_time& now) const {
  if (waits_for_bus(now)) return never_;
  return bus_.busy_at(now) ? bus_.until() : now;
}

}  // namespace ssd::model
