#include "model/FlashChannel.h"

#include <algorithm>

#include "common/SimNow.h"

namespace ssd::model {
namespace {
constexpr const char* kMsgId = "/ssdtlm/channel";

double watts(double ma, double v) { return ma * 1e-3 * v; }

// Seconds of a duration (the time resolution is 1 ps; sc_time::to_seconds is slower).
double seconds(const sc_core::sc_time& t) { return double(t.value()) * 1e-12; }

FlashOp array_op(FlashOp kind) {
  return kind == FlashOp::Read ? FlashOp::ArrayRead
         : kind == FlashOp::Program ? FlashOp::ArrayProgram
                                    : FlashOp::ArrayErase;
}
}  // namespace

FlashChannel::FlashChannel(sc_core::sc_module_name name, uint32_t index,
                           const config::DriveConfig& drive, EnergyMonitor& monitor,
                           PowerBudget* budget)
    : sc_module(name),
      socket("socket"),
      die_socket("die_socket"),
      page_transfer_(drive.flash.page_bytes * drive.flash.bus_ns_per_byte, sc_core::SC_NS),
      blocks_per_plane_(drive.flash.blocks_per_plane),
      planes_(drive.flash.planes_per_die),
      multiplane_(drive.flash.multiplane),
      multiplane_same_block_(drive.flash.multiplane_same_block),
      cache_program_(drive.flash.cache_program),
      multiplane_wait_(drive.flash.multiplane ? drive.flash.multiplane_wait_us : 0.0,
                       sc_core::SC_US),
      read_first_(drive.controller.scheduler_policy == "read_first"),
      host_first_(drive.controller.host_first),
      suspend_(drive.controller.suspend_for_reads),
      early_(!suspend_),
      never_(sc_core::sc_max_time()),
      t_suspend_(drive.flash.t_suspend_us, sc_core::SC_US),
      t_resume_(drive.flash.t_resume_us, sc_core::SC_US),
      p_read_w_(watts(drive.flash.i_read_ma, drive.flash.voltage_v)),
      p_prog_w_(watts(drive.flash.i_prog_ma, drive.flash.voltage_v)),
      p_erase_w_(watts(drive.flash.i_erase_ma, drive.flash.voltage_v)),
      p_transfer_w_(watts(drive.flash.i_transfer_ma, drive.flash.voltage_v)),
      p_bus_w_(watts(drive.flash.i_bus_ma, drive.flash.bus_voltage_v)),
      p_read_mp_w_(watts(drive.flash.i_read_multiplane_ma, drive.flash.voltage_v)),
      p_prog_mp_w_(watts(drive.flash.i_prog_multiplane_ma, drive.flash.voltage_v)),
      p_erase_mp_w_(watts(drive.flash.i_erase_multiplane_ma, drive.flash.voltage_v)),
      budget_(budget),
      first_die_(index * drive.flash.ways_per_channel * drive.flash.dies_per_way),
      power_down_(drive.flash.die_power_down.enabled),
      power_down_channel_(drive.flash.die_power_down.scope == "channel"),
      down_idle_(drive.flash.die_power_down.idle_us, sc_core::SC_US),
      t_wake_(drive.flash.die_power_down.t_wake_us, sc_core::SC_US),
      die_cmd_(*new FlashCommandExt),
      psm_(monitor, "ch" + std::to_string(index), "channel", drive.flash.bus_voltage_v,
           {{PowerState::Idle, 0.0}, {PowerState::Transfer, drive.flash.i_bus_ma}},
           PowerState::Idle) {
  const config::FlashConfig& cfg = drive.flash;
  socket.bind(*this);
  for (uint32_t way = 0; way < cfg.ways_per_channel; ++way) {
    for (uint32_t d = 0; d < cfg.dies_per_way; ++d) {
      const std::string leaf = "w" + std::to_string(way) + "d" + std::to_string(d);
      dies_.push_back(std::make_unique<NandDie>(leaf.c_str(), cfg, monitor,
                                                "ch" + std::to_string(index) + "." + leaf));
      die_socket.bind(dies_.back()->socket);
    }
  }
  state_.resize(dies_.size());
  for (DieState& d : state_) {
    d.tail.assign(size_t(planes_) * blocks_per_plane_, -1);
    if (multiplane_wait_ > sc_core::SC_ZERO_TIME) d.programs_at_page.resize(cfg.pages_per_block);
  }
  usage_.die_wait.assign(dies_.size(), sc_core::SC_ZERO_TIME);
  usage_.die_commands.assign(dies_.size(), 0);
  die_gp_.set_extension(&die_cmd_);  // the payload owns and frees it
  SC_METHOD(schedule);
  sensitive << wake_;
  dont_initialize();
  if (power_down_) {
    die_power_.assign(dies_.size(), DiePower{sc_core::SC_ZERO_TIME, false});  // idle from 0
    SC_METHOD(power_down_dies);
    sensitive << power_down_timer_;
    dont_initialize();
    power_down_timer_.notify(down_idle_);
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
    if (!cmd || cmd->queue_node >= nodes_.size() || nodes_[cmd->queue_node].cmd.gp != &gp ||
        !nodes_[cmd->queue_node].live)
      SC_REPORT_FATAL(kMsgId, "FlashChannel: DATA_READY for a command not queued");
    add_timer(state_[cmd->die_in_channel], cmd->queue_node, cmd->data_ready_at, sim_now());
    wake_.notify(delay);
    return tlm::TLM_ACCEPTED;
  }
  if (phase != tlm::BEGIN_REQ) SC_REPORT_FATAL(kMsgId, "FlashChannel: unexpected phase");
  auto* cmd = gp.get_extension<FlashCommandExt>();
  if (!cmd) SC_REPORT_FATAL(kMsgId, "FlashChannel: transaction without a FlashCommandExt");
  // The contents change in issue order (see NandDie.h); a read learns its data here.
  transport_dbg(gp);
  if (gp.get_response_status() != tlm::TLM_OK_RESPONSE) return tlm::TLM_COMPLETED;
  cmd->energy_j = 0;
  DieState& d = state_[cmd->die_in_channel];
  const sc_core::sc_time now = sim_now();
  const Cmd c{&gp, cmd, seq_++, now + delay};
  if (decides_at_once(d, c)) return start_at_once(cmd->die_in_channel, c, delay);
  enqueue(d, c, now);
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
  if (!early_ || cache_program_ || multiplane_ || read_first_ || host_first_) return false;
  if (budget_) return false;  // the budget decides in the scheduler
  if (power_down_) return false;  // the die may be off, or go off before the arrival
  if (c.ext->data_ready_at > c.arrival) return false;
  // No die has a staged program (no cache program) or a parked one (no suspend): what is
  // left to look at is in each die's first cache line.
  if (!d.cur.empty() && !(d.cur.settled && d.cur.until <= c.arrival)) return false;
  if (c.ext->op == FlashOp::Program && bus_die_ >= 0 && bus_until_ > c.arrival) return false;
  for (const DieState& o : state_) {
    if (o.queued != 0) return false;
    if (&o != &d && !o.cur.empty() && !o.cur.settled) return false;
  }
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
  d.cur.kind = c.ext->op;
  d.cur.settled = false;
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

uint32_t FlashChannel::rank(const Cmd& c, bool read_like) const {
  return (host_first_ && c.ext->background ? 2 : 0) + (read_first_ && !read_like ? 1 : 0);
}

bool FlashChannel::touches(const Group& g, uint32_t block) {
  for (const Cmd& c : g.cmds)
    if (c.ext->ppa.block == block) return true;
  return false;
}

void FlashChannel::enqueue(DieState& d, const Cmd& c, const sc_core::sc_time& now) {
  uint32_t id;
  if (free_nodes_.empty()) {
    id = uint32_t(nodes_.size());
    nodes_.emplace_back();
  } else {
    id = free_nodes_.back();
    free_nodes_.pop_back();
  }
  nodes_[id] = Node{c, -1, true};
  c.ext->queue_node = id;
  int32_t& tail = d.tail[c.ext->ppa.block];
  if (tail < 0)
    d.heads.push_back(id);  // the newest command: last in issue order
  else
    nodes_[uint32_t(tail)].next = int32_t(id);
  tail = int32_t(id);
  if (!d.programs_at_page.empty() && c.ext->op == FlashOp::Program)
    d.programs_at_page[c.ext->ppa.page].push_back(id);
  ++d.queued;
  add_timer(d, id, c.arrival, now);
  add_timer(d, id, c.ext->data_ready_at, now);
}

void FlashChannel::dequeue(DieState& d, uint32_t node) {
  Node& n = nodes_[node];
  d.heads.erase(std::find(d.heads.begin(), d.heads.end(), node));
  if (n.next < 0) {
    d.tail[n.cmd.ext->ppa.block] = -1;
  } else {
    const uint64_t seq = nodes_[uint32_t(n.next)].cmd.seq;
    const auto at = std::upper_bound(d.heads.begin(), d.heads.end(), seq,
                                     [&](uint64_t s, uint32_t h) { return s < nodes_[h].cmd.seq; });
    d.heads.insert(at, uint32_t(n.next));
  }
  if (!d.programs_at_page.empty() && n.cmd.ext->op == FlashOp::Program) {
    std::vector<uint32_t>& at_page = d.programs_at_page[n.cmd.ext->ppa.page];
    at_page.erase(std::find(at_page.begin(), at_page.end(), node));
  }
  n.live = false;
  free_nodes_.push_back(node);
  --d.queued;
}

void FlashChannel::add_timer(DieState& d, uint32_t node, const sc_core::sc_time& at,
                             const sc_core::sc_time& now) {
  if (at <= now || at == never_) return;
  d.timers.push_back(Timer{at, node, nodes_[node].cmd.seq});
  std::push_heap(d.timers.begin(), d.timers.end(), std::greater<>());
}

sc_core::sc_time FlashChannel::next_ready(DieState& d, const sc_core::sc_time& now) {
  while (!d.timers.empty()) {
    const Timer& t = d.timers.front();
    const Node& n = nodes_[t.node];
    // A timer still counts while its command is queued and the time is still its own.
    if (t.at > now && n.live && n.cmd.seq == t.seq &&
        (t.at == n.cmd.arrival || t.at == n.cmd.ext->data_ready_at))
      return t.at;
    std::pop_heap(d.timers.begin(), d.timers.end(), std::greater<>());
    d.timers.pop_back();
  }
  return never_;
}

bool FlashChannel::ready(uint32_t node, const sc_core::sc_time& now) const {
  const Cmd& c = nodes_[node].cmd;
  return c.arrival <= now && c.ext->data_ready_at <= now;
}

int FlashChannel::pick(const DieState& d, const sc_core::sc_time& now, const Want& want) const {
  int best = -1;
  uint32_t best_rank = ~0u;
  for (const uint32_t id : d.heads) {
    if (!ready(id, now)) continue;
    const FlashCommandExt& c = *nodes_[id].cmd.ext;
    const FlashOp op = c.op;
    if (want.programs_only && op != FlashOp::Program) continue;
    if (want.host_reads_only && (op != FlashOp::Read || c.background)) continue;
    if (want.avoid && touches(*want.avoid, c.ppa.block)) continue;
    const uint32_t r = rank(nodes_[id].cmd, op == FlashOp::Read);
    if (r < best_rank) {
      best = int(id);
      best_rank = r;
      if (r == 0) break;
    }
  }
  return best;
}

bool FlashChannel::hold_for_partner(DieState& d, uint32_t node, const sc_core::sc_time& now) {
  const Cmd& first = nodes_[node].cmd;
  if (multiplane_wait_ == sc_core::SC_ZERO_TIME || first.ext->op != FlashOp::Program ||
      d.held_seq == first.seq)
    return false;
  // A program for another plane at the same page offset, already sent by the controller and
  // ready within the wait: the multi-plane command waits for it (once per first command).
  sc_core::sc_time until = never_;
  std::size_t partners = 1;
  for (const uint32_t j : d.programs_at_page[first.ext->ppa.page]) {
    const Cmd& c = nodes_[j].cmd;
    if (j == node || plane_of(c) == plane_of(first) || c.ext->background != first.ext->background ||
        c.ext->slc != first.ext->slc)
      continue;
    // Counted once sent, whether or not an earlier command to its block is still queued.
    const sc_core::sc_time at = std::max(c.arrival, c.ext->data_ready_at);
    if (at <= now) ++partners;
    else if (at <= now + multiplane_wait_) until = std::min(until, at);
  }
  if (partners >= planes_ || until == never_) return false;
  d.held_seq = first.seq;
  d.hold_until = until;
  return true;
}

PowerBudget::Slot FlashChannel::admit(uint32_t die, const Cmd& c, const sc_core::sc_time& now,
                                      bool queue) {
  if (!budget_) return 0;
  return budget_->acquire(first_die_ + die, c.ext->op, multiplane_, now, queue, wake_);
}

void FlashChannel::take(uint32_t die, int node, const sc_core::sc_time& now, Group& g) {
  DieState& d = state_[die];
  g.cmds.clear();
  g.cmds.push_back(nodes_[uint32_t(node)].cmd);
  const FlashCommandExt& first = *g.cmds.front().ext;
  g.kind = first.op;
  g.stage = Stage::None;
  g.settled = false;
  // Multi-plane: ready commands of the same kind for other planes at the same page offset.
  taken_.assign(1, uint32_t(node));
  if (multiplane_) {
    // Only chain heads can be ready; they are in issue order.
    for (const uint32_t j : d.heads) {
      if (g.cmds.size() >= planes_) break;
      if (j == uint32_t(node)) continue;
      const Cmd& c = nodes_[j].cmd;
      // One mode for all planes: SLC-mode and native blocks do not join.
      if (c.ext->op != g.kind || c.ext->background != first.background || c.ext->slc != first.slc)
        continue;
      if (g.kind != FlashOp::Erase && c.ext->ppa.page != first.ppa.page) continue;
      if (multiplane_same_block_ &&
          c.ext->ppa.block % blocks_per_plane_ != first.ppa.block % blocks_per_plane_)
        continue;
      const uint32_t plane = plane_of(c);
      if (std::any_of(g.cmds.begin(), g.cmds.end(),
                      [&](const Cmd& m) { return plane_of(m) == plane; }))
        continue;
      if (!ready(j, now)) continue;
      g.cmds.push_back(c);
      taken_.push_back(j);
    }
    if (g.cmds.size() > 1) ++usage_.multiplane_groups;
  }
  for (const uint32_t j : taken_) dequeue(d, j);
  for (const Cmd& c : g.cmds) {
    usage_.die_wait[die] += now - c.arrival;
    ++usage_.die_commands[die];
  }
}

sc_core::sc_time FlashChannel::die_phase(uint32_t die, FlashOp op, const Group* g,
                                         const sc_core::sc_time& now) {
  die_cmd_.op = op;
  die_cmd_.die_in_channel = die;
  if (g) {
    die_cmd_.ppa = g->cmds.front().ext->ppa;
    die_cmd_.slc = g->cmds.front().ext->slc;
    die_cmd_.planes = uint32_t(g->cmds.size());
    die_cmd_.bus_time = page_transfer_ * double(g->cmds.size());
    die_cmd_.resume_state = array_state(*g);
  }
  const sc_core::sc_time stamp = sim_now();
  sc_core::sc_time delay = now - stamp;
  die_socket[die]->b_transport(die_gp_, delay);
  if (power_down_) {
    const bool rests = op == FlashOp::Rest || op == FlashOp::DataInProgram ||
                       op == FlashOp::DataOutRest;
    note_rest(die, rests ? stamp + delay : never_);
  }
  return stamp + delay;
}

void FlashChannel::note_rest(uint32_t die, const sc_core::sc_time& rest_at) {
  die_power_[die].rest_at = rest_at;
  if (rest_at != never_) power_down_timer_.notify(rest_at + down_idle_ - sim_now());
}

bool FlashChannel::die_resting(const DieState& d, const sc_core::sc_time& now) const {
  // A settled operation that has ended leaves the die at rest until the scheduler next runs.
  return d.staged.empty() && d.parked.empty() &&
         (d.cur.empty() || (d.cur.settled && d.cur.until <= now));
}

sc_core::sc_time FlashChannel::off_due(uint32_t die) const {
  const DiePower& p = die_power_[die];
  if (p.off || p.rest_at == never_) return never_;
  if (!power_down_channel_) return p.rest_at + down_idle_;
  // The channel's dies go off when the last of them has rested idle_us.
  sc_core::sc_time last = sc_core::SC_ZERO_TIME;
  for (const DiePower& q : die_power_) {
    if (q.rest_at == never_ && !q.off) return never_;
    if (!q.off) last = std::max(last, q.rest_at);
  }
  return last + down_idle_;
}

bool FlashChannel::goes_off(uint32_t die, const sc_core::sc_time& now) const {
  const sc_core::sc_time due = off_due(die);
  if (due == never_ || due > now) return false;
  if (!power_down_channel_) return die_resting(state_[die], now);
  for (uint32_t d = 0; d < dies_.size(); ++d)
    if (!die_power_[d].off && !die_resting(state_[d], now)) return false;
  return true;
}

void FlashChannel::power_down_dies() {
  const sc_core::sc_time now = sim_now();
  sc_core::sc_time next = never_;
  for (uint32_t die = 0; die < dies_.size(); ++die) {
    const sc_core::sc_time due = off_due(die);
    if (due != never_ && due > now) next = std::min(next, due);
  }
  for (uint32_t die = 0; die < dies_.size(); ++die) {
    if (!goes_off(die, now)) continue;
    die_phase(die, FlashOp::DiePowerOff, nullptr, now);
    die_power_[die].off = true;
    ++usage_.die_power_downs;
  }
  if (next != never_) power_down_timer_.notify(next - now);
}

bool FlashChannel::wake_die(uint32_t die, const sc_core::sc_time& now) {
  if (!power_down_) return false;
  // Due to go off now, its timer not yet run: it goes off and wakes in the same instant.
  if (!die_power_[die].off && !goes_off(die, now)) return false;
  const uint32_t first = power_down_channel_ ? 0 : die;
  const uint32_t last = power_down_channel_ ? uint32_t(dies_.size()) : die + 1;
  for (uint32_t d = first; d < last; ++d) {
    DiePower& p = die_power_[d];
    if (!p.off) ++usage_.die_power_downs;
    p.off = false;
    die_phase(d, FlashOp::DiePowerOff, nullptr, now);
    die_phase(d, FlashOp::DiePowerOn, nullptr, now);
    state_[d].hold_until = std::max(state_[d].hold_until, now + t_wake_);
    note_rest(d, now + t_wake_);  // at rest once awake, until it starts its command
    ++usage_.die_wakes;
  }
  return true;
}

PowerState FlashChannel::array_state(const Group& g) {
  const bool multi = g.cmds.size() > 1;
  switch (g.kind) {
    case FlashOp::Read: return multi ? PowerState::ReadMultiplane : PowerState::Read;
    case FlashOp::Program: return multi ? PowerState::ProgramMultiplane : PowerState::Program;
    default: return multi ? PowerState::EraseMultiplane : PowerState::Erase;
  }
}

double FlashChannel::array_power_w(const Group& g) const {
  const bool multi = g.cmds.size() > 1;
  switch (g.kind) {
    case FlashOp::Read: return multi ? p_read_mp_w_ : p_read_w_;
    case FlashOp::Program: return multi ? p_prog_mp_w_ : p_prog_w_;
    default: return multi ? p_erase_mp_w_ : p_erase_w_;
  }
}

void FlashChannel::charge(Group& g, double joules) {
  const double share = joules / double(g.cmds.size());
  for (Cmd& c : g.cmds) c.ext->energy_j += share;
}

void FlashChannel::start_array(uint32_t die, Group& g, sc_core::sc_time at) {
  g.stage = Stage::Array;
  g.until = die_phase(die, array_op(g.kind), &g, at);
  charge(g, array_power_w(g) * seconds(g.until - at));
  if (early_ && g.kind != FlashOp::Read) settle(die, g);
}

bool FlashChannel::waits_for_die(const DieState& d) const {
  return early_ && !cache_program_ && !d.cur.empty();
}

void FlashChannel::settle(uint32_t die, Group& g) {
  answer(g, g.until);
  die_phase(die, FlashOp::Rest, nullptr, g.until);
  g.settled = true;
}

void FlashChannel::answer(Group& g, const sc_core::sc_time& end) {
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
  const sc_core::sc_time length = page_transfer_ * double(g.cmds.size());
  const bool in = g.stage == Stage::NeedDataIn;
  usage_.bus_wait += now - g.since;
  g.stage = in ? Stage::DataIn : Stage::DataOut;
  g.until = now + length;
  bus_die_ = int(die);
  bus_staged_ = staged;
  bus_until_ = g.until;
  usage_.bus_busy += length;
  psm_.occupy(PowerState::Transfer, now, bus_until_);
  double joules = p_bus_w_ * seconds(length);
  // A staged program's data moves into the cache register while the die keeps programming.
  if (staged) {
    charge(g, joules);
    return;
  }
  joules += p_transfer_w_ * seconds(length);
  if (!early_) {
    die_phase(die, in ? FlashOp::DataIn : FlashOp::DataOut, &g, now);
    charge(g, joules);
    return;
  }
  // Nothing can come between this transfer and what follows it: the die runs the whole
  // sequence, back to rest, and the commands are answered with their end.
  if (in) {
    g.stage = Stage::Array;
    g.until = die_phase(die, FlashOp::DataInProgram, &g, now);
    joules += array_power_w(g) * seconds(g.until - bus_until_);
  } else {
    die_phase(die, FlashOp::DataOutRest, &g, now);
  }
  charge(g, joules);
  answer(g, g.until);
  g.settled = true;
}

void FlashChannel::complete(uint32_t die, Group& g, const sc_core::sc_time& now) {
  answer(g, now);
  g.cmds.clear();
  g.stage = Stage::None;
  if (!g.settled) die_phase(die, FlashOp::Rest, nullptr, now);
  g.settled = false;
}

void FlashChannel::finish_transfer(const sc_core::sc_time& now) {
  if (bus_die_ < 0 || bus_until_ > now) return;
  const uint32_t die = uint32_t(bus_die_);
  DieState& d = state_[die];
  Group& g = bus_staged_ ? d.staged : d.cur;
  bus_die_ = -1;
  if (g.stage == Stage::DataOut)
    complete(die, g, now);
  else if (g.stage == Stage::DataIn && bus_staged_)
    g.stage = Stage::Queued;
  else if (g.stage == Stage::DataIn)
    start_array(die, g, bus_until_);
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
          if (cur.stage == Stage::Queued) {
            start_array(die, cur, now);
          } else if (cur.stage == Stage::DataIn) {
            // Its transfer goes on, now into a die that is no longer programming.
            bus_staged_ = false;
            die_phase(die, FlashOp::DataIn, &cur, now);
            charge(cur, p_transfer_w_ * seconds(bus_until_ - now));
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

void FlashChannel::start_dies(const sc_core::sc_time& now) {
  for (uint32_t die = 0; die < state_.size(); ++die) {
    DieState& d = state_[die];
    if (d.cur.empty()) {
      if (!d.parked.empty()) {
        // A suspended operation: further host reads first, then it resumes.
        const int k = pick(d, now, Want{false, true, &d.parked});
        const PowerBudget::Slot slot =
            k >= 0 ? admit(die, nodes_[uint32_t(k)].cmd, now, false) : PowerBudget::kNone;
        if (slot != PowerBudget::kNone) {
          take(die, k, now, d.cur);
          d.cur.budget = slot;
          start_array(die, d.cur, now);
        } else {
          std::swap(d.cur, d.parked);
          d.cur.stage = Stage::Resuming;
          d.cur.until = die_phase(die, FlashOp::Resume, &d.cur, now);
          charge(d.cur, array_power_w(d.cur) * seconds(t_resume_));
        }
        continue;
      }
      if (d.hold_until > now) continue;  // waiting for a multi-plane partner
      const int k = pick(d, now, Want{});
      if (k < 0) continue;
      if (wake_die(die, now)) continue;
      if (hold_for_partner(d, uint32_t(k), now)) continue;
      const PowerBudget::Slot slot = admit(die, nodes_[uint32_t(k)].cmd, now, true);
      if (slot == PowerBudget::kNone) continue;  // the budget wakes the channel
      take(die, k, now, d.cur);
      d.cur.budget = slot;
      if (d.cur.kind == FlashOp::Program) {
        d.cur.stage = Stage::NeedDataIn;
        d.cur.since = now;
      } else
        start_array(die, d.cur, now);
    } else if (d.cur.stage == Stage::Array && d.cur.kind != FlashOp::Read && d.parked.empty() &&
               d.staged.empty()) {
      if (suspend_) {
        const int k = pick(d, now, Want{false, true, &d.cur});
        const PowerBudget::Slot slot =
            k >= 0 ? admit(die, nodes_[uint32_t(k)].cmd, now, false) : PowerBudget::kNone;
        if (slot != PowerBudget::kNone) {
          std::swap(d.parked, d.cur);
          d.parked.left = d.parked.until - now;
          take(die, k, now, d.cur);
          d.cur.budget = slot;
          d.cur.stage = Stage::Suspending;
          d.cur.until = die_phase(die, FlashOp::Suspend, &d.parked, now);
          charge(d.parked, array_power_w(d.parked) * seconds(t_suspend_));
          ++usage_.suspensions;
          continue;
        }
      }
      if (cache_program_ && d.cur.kind == FlashOp::Program) {
        // Under read_first a ready read goes next: no program is staged ahead of it.
        const int next = pick(d, now, Want{});
        if (read_first_ && next >= 0 && nodes_[uint32_t(next)].cmd.ext->op == FlashOp::Read)
          continue;
        const int k = pick(d, now, Want{true, false, nullptr});
        const PowerBudget::Slot slot =
            k >= 0 ? admit(die, nodes_[uint32_t(k)].cmd, now, false) : PowerBudget::kNone;
        if (slot != PowerBudget::kNone) {
          take(die, k, now, d.staged);
          d.staged.budget = slot;
          d.staged.stage = Stage::NeedDataIn;
          d.staged.since = now;
          usage_.cache_programs += d.staged.cmds.size();
        }
      }
    }
  }
}

bool FlashChannel::grant_bus(const sc_core::sc_time& now) {
  if (bus_die_ >= 0) return false;
  int best_die = -1;
  bool best_staged = false;
  uint32_t best_rank = ~0u;
  uint64_t best_seq = ~uint64_t{0};
  const auto consider = [&](uint32_t die, const Group& g, bool staged) {
    if (g.empty()) return;
    const bool out = g.stage == Stage::NeedDataOut;
    if (!out && g.stage != Stage::NeedDataIn) return;
    const uint32_t r = rank(g.cmds.front(), out);
    const uint64_t seq = g.cmds.front().seq;
    if (r < best_rank || (r == best_rank && seq < best_seq)) {
      best_die = int(die);
      best_staged = staged;
      best_rank = r;
      best_seq = seq;
    }
  };
  for (uint32_t die = 0; die < state_.size(); ++die) {
    consider(die, state_[die].cur, false);
    consider(die, state_[die].staged, true);
  }
  if (best_die < 0) return false;
  DieState& d = state_[uint32_t(best_die)];
  start_transfer(uint32_t(best_die), best_staged ? d.staged : d.cur, best_staged, now);
  return true;
}

void FlashChannel::wake_at_next_event(const sc_core::sc_time& now) {
  sc_core::sc_time next = never_;
  bool bus_wanted = false;
  for (DieState& d : state_) {
    const bool more = d.queued != 0 || !d.staged.empty() || !d.parked.empty();
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
    if (!waits_for_die(d)) next = std::min(next, next_ready(d, now));
  }
  if (bus_wanted && bus_die_ >= 0) next = std::min(next, bus_until_);
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
}

}  // namespace ssd::model
