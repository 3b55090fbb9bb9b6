#include "model/FlashChannel.h"

#include <algorithm>

namespace ssd::model {
namespace {
constexpr const char* kMsgId = "/ssdtlm/channel";
}

FlashChannel::FlashChannel(sc_core::sc_module_name name, uint32_t index,
                           const config::FlashConfig& cfg, EnergyMonitor& monitor)
    : sc_module(name),
      socket("socket"),
      die_socket("die_socket"),
      page_transfer_(cfg.page_bytes * cfg.bus_ns_per_byte, sc_core::SC_NS),
      psm_(monitor, "ch" + std::to_string(index), "channel", cfg.bus_voltage_v,
           {{PowerState::Idle, 0.0}, {PowerState::Transfer, cfg.i_bus_ma}}, PowerState::Idle) {
  socket.register_b_transport(this, &FlashChannel::b_transport);
  socket.register_transport_dbg(this, &FlashChannel::transport_dbg);
  for (uint32_t way = 0; way < cfg.ways_per_channel; ++way) {
    for (uint32_t d = 0; d < cfg.dies_per_way; ++d) {
      const std::string leaf = "w" + std::to_string(way) + "d" + std::to_string(d);
      dies_.push_back(std::make_unique<NandDie>(leaf.c_str(), cfg, monitor,
                                                "ch" + std::to_string(index) + "." + leaf));
      die_socket.bind(dies_.back()->socket);
    }
  }
}

sc_core::sc_time FlashChannel::to_die(tlm::tlm_generic_payload& gp, FlashCommandExt& cmd,
                                      FlashOp op, const sc_core::sc_time& at) {
  cmd.op = op;
  sc_core::sc_time delay = at - sc_core::sc_time_stamp();
  die_socket[cmd.die_in_channel]->b_transport(gp, delay);
  return sc_core::sc_time_stamp() + delay;
}

sc_core::sc_time FlashChannel::transfer(tlm::tlm_generic_payload& gp, FlashCommandExt& cmd,
                                        FlashOp op, const sc_core::sc_time& at) {
  cmd.bus_time = page_transfer_;
  const sc_core::sc_time end = to_die(gp, cmd, op, std::max(at, bus_free_));
  psm_.occupy(PowerState::Transfer, end - page_transfer_, end);
  bus_free_ = end;
  return end;
}

unsigned int FlashChannel::transport_dbg(tlm::tlm_generic_payload& gp) {
  auto* cmd = gp.get_extension<FlashCommandExt>();
  if (!cmd) SC_REPORT_FATAL(kMsgId, "FlashChannel: transaction without a FlashCommandExt");
  if (cmd->die_in_channel >= dies_.size()) SC_REPORT_FATAL(kMsgId, "FlashChannel: no such die");
  const FlashOp requested = cmd->op;
  switch (requested) {
    case FlashOp::Read: cmd->op = FlashOp::ArrayRead; break;
    case FlashOp::Program: cmd->op = FlashOp::ArrayProgram; break;
    case FlashOp::Erase: cmd->op = FlashOp::ArrayErase; break;
    default: SC_REPORT_FATAL(kMsgId, "FlashChannel: no debug transport for this command");
  }
  const unsigned int n = die_socket[cmd->die_in_channel]->transport_dbg(gp);
  cmd->op = requested;
  return n;
}

void FlashChannel::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  auto* cmd = gp.get_extension<FlashCommandExt>();
  if (!cmd) SC_REPORT_FATAL(kMsgId, "FlashChannel: transaction without a FlashCommandExt");
  if (cmd->die_in_channel >= dies_.size()) SC_REPORT_FATAL(kMsgId, "FlashChannel: no such die");
  const FlashOp requested = cmd->op;
  const sc_core::sc_time at = sc_core::sc_time_stamp() + delay;
  sc_core::sc_time end;
  switch (requested) {
    case FlashOp::Read:
      end = transfer(gp, *cmd, FlashOp::DataOut, to_die(gp, *cmd, FlashOp::ArrayRead, at));
      break;
    case FlashOp::Program:
      end = to_die(gp, *cmd, FlashOp::ArrayProgram, transfer(gp, *cmd, FlashOp::DataIn, at));
      break;
    case FlashOp::Erase:
      end = to_die(gp, *cmd, FlashOp::ArrayErase, at);
      break;
    case FlashOp::PowerOff:
    case FlashOp::PowerOn:
      // Broadcast: every die of the channel changes its rest state.
      end = at;
      for (uint32_t i = 0; i < dies_.size(); ++i) {
        cmd->die_in_channel = i;
        end = std::max(end, to_die(gp, *cmd,
                                   requested == FlashOp::PowerOff ? FlashOp::DiePowerOff
                                                                  : FlashOp::DiePowerOn,
                                   at));
      }
      break;
    default:
      SC_REPORT_FATAL(kMsgId, "FlashChannel: not a channel command");
  }
  cmd->op = requested;
  delay = end - sc_core::sc_time_stamp();
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace ssd::model
