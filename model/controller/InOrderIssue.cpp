#include "model/controller/InOrderIssue.h"

#include "common/SimNow.h"

namespace ssd::model::controller {

void InOrderIssue::await(uint32_t channel, Core& core, bool gc) const {
  if (channel >= gates_.size())
    SC_REPORT_FATAL("/ssdtlm/controller", "in-order issue without the channels' gates");
  const flash::IssueGate& gate = *gates_[channel];
  // The channel's state is known up to the simulation time: the core's timeline, which may
  // run ahead, waits for it (busy, as it is until then).
  if (core.now() > sim_now()) sc_core::wait(core.now() - sim_now());
  if (gate.takes_command(sim_now())) return;
  core.end_work();  // blocked on the bus: idle, as while it waits for a flash command
  const sc_core::sc_time from = core.now();
  do {
    const sc_core::sc_time now = sim_now();
    const sc_core::sc_time free = gate.free_at(now);
    if (free != sc_core::sc_max_time())
      sc_core::wait(free - now);
    else
      sc_core::wait(gate.progress());
  } while (!gate.takes_command(sim_now()));
  core.reach(sim_now());
  core.blocked(from, gc);
  core.begin_work();
}

}  // namespace ssd::model::controller
