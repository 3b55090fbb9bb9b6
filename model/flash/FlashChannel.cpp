#include "model/flash/FlashChannel.h"

#include <string>

#include "common/SimNow.h"
#include "config/DriveConfig.h"

namespace ssd::model {
namespace {
constexpr const char* kMsgId = "/ssdtlm/channel";
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
      in_order_(p.controller.issue_order == config::IssueOrder::InOrder),
      never_(sc_core::sc_max_time()),
      scheduler_(p, index, monitor, budget, wake_, power_down_timer_) {
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
  SC_METHOD(schedule);
  sensitive << wake_;
  dont_initialize();
  if (scheduler_.dies().power_down().on()) {
    SC_METHOD(power_down_dies);
    sensitive << power_down_timer_;
    dont_initialize();
    power_down_timer_.notify(scheduler_.dies().power_down().idle());
  }
}

unsigned int FlashChannel::transport_dbg(tlm::tlm_generic_payload& gp) {
  auto* cmd = gp.get_extension<FlashCommandExt>();
  if (!cmd) SC_REPORT_FATAL(kMsgId, "FlashChannel: transaction without a FlashCommandExt");
  if (cmd->die_in_channel >= dies_.size()) SC_REPORT_FATAL(kMsgId, "FlashChannel: no such die");
  const FlashOp requested = cmd->op;
  if (requested == FlashOp::Preset || requested == FlashOp::Contents)
    return die_socket[cmd->die_in_channel]->transport_dbg(gp);
  if (requested != FlashOp::Read && requested != FlashOp::Program && requested != FlashOp::Erase)
    SC_REPORT_FATAL(kMsgId, "FlashChannel: no debug transport for this command");
  cmd->op = flash::array_op(requested);
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
    if (!cmd || cmd->die_in_channel >= dies_.size() ||
        !queue(cmd->die_in_channel).holds(cmd->queue_node, &gp))
      SC_REPORT_FATAL(kMsgId, "FlashChannel: DATA_READY for a command not queued");
    queue(cmd->die_in_channel).data_ready(cmd->queue_node, sim_now());
    wake_.notify(delay);
    return tlm::TLM_ACCEPTED;
  }
  if (phase == PROMOTE) {
    const auto* cmd = gp.get_extension<FlashCommandExt>();
    if (!cmd || cmd->die_in_channel >= dies_.size())
      SC_REPORT_FATAL(kMsgId, "FlashChannel: PROMOTE for no command of the channel");
    flash::DieQueue& q = queue(cmd->die_in_channel);
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
  const sc_core::sc_time now = sim_now();
  const flash::ChannelScheduler::Arrival a = scheduler_.arrive(gp, *cmd, now, now + delay);
  if (a.kind == flash::ChannelScheduler::Arrival::kAnswered) {
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    delay = a.at - now;
    return tlm::TLM_COMPLETED;
  }
  if (a.at != never_) wake_.notify(a.at - now);
  if (a.kind == flash::ChannelScheduler::Arrival::kStarted) return tlm::TLM_ACCEPTED;
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void FlashChannel::end_of_elaboration() {
  for (uint32_t i = 0; i < dies_.size(); ++i)
    scheduler_.dies().attach(*die_socket[i], dies_[i]->powers_w());
}

void FlashChannel::power_down_dies() {
  const sc_core::sc_time now = sim_now();
  const sc_core::sc_time next = scheduler_.dies().power_down_dies(now);
  if (next != never_) power_down_timer_.notify(next - now);
}

void FlashChannel::schedule() {
  const sc_core::sc_time now = sim_now();
  scheduler_.pass(now);
  // Answer after the pass: the controller may send commands from its handler (they wake
  // this method again).
  scheduler_.dies().take_answers(answering_);
  for (const flash::Answer& a : answering_) {
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = a.end - now;
    a.gp->set_response_status(tlm::TLM_OK_RESPONSE);
    socket->nb_transport_bw(*a.gp, phase, delay);
  }
  answering_.clear();
  const sc_core::sc_time next = scheduler_.next_event(now);
  if (next != never_) wake_.notify(next - now);
  if (in_order_) progress_.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace ssd::model
