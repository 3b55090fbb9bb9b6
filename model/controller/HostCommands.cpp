#include "model/controller/HostCommands.h"

namespace ssd::model::controller {

HostCommand& HostCommands::open(uint32_t& index) {
  if (free_.empty()) {
    index = uint32_t(commands_.size());
    return commands_.emplace_back();
  }
  index = free_.back();
  free_.pop_back();
  return commands_[index];
}

tlm::tlm_generic_payload& HostCommands::close(uint32_t index, const sc_core::sc_time& now,
                                              sc_core::sc_time& delay) {
  HostCommand& c = commands_[index];
  c.gp->set_response_status(tlm::TLM_OK_RESPONSE);
  c.ext->gc_wait = c.gc_wait;
  c.ext->refresh_wait = c.refresh_wait;
  const bool read = c.ext->cmd.op == fw::CommandOp::Read;
  c.ext->ok = !c.refused && !(c.uncorrectable && read);
  // A zoned namespace's refusal carries its status: not a unit lost.
  c.ext->lost = c.refused && read && c.status == 0;
  c.ext->status = c.status;
  c.ext->appended_lba = c.appended_lba;
  delay = std::max({c.fw_end, c.flash_end, now}) - now;
  c.ext->breakdown.done = now + delay;
  c.path.stages(c.ext->breakdown, now + delay);
  tlm::tlm_generic_payload& gp = *c.gp;
  c.gp = nullptr;
  free_.push_back(index);
  return gp;
}

}  // namespace ssd::model::controller
