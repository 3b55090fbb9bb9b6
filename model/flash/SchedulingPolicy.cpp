#include "model/flash/SchedulingPolicy.h"

namespace ssd::model::flash {

int SchedulingPolicy::pick(const DieQueue& q, const sc_core::sc_time& now, const Want& want) const {
  int best = -1;
  uint32_t best_rank = ~0u;
  for (const uint32_t id : q.eligible()) {
    if (!q.ready(id, now)) continue;
    const Cmd& c = q.cmd(id);
    const FlashOp op = c.ext->op;
    if (want.programs_only && op != FlashOp::Program) continue;
    if (want.host_reads_only && (op != FlashOp::Read || c.ext->background)) continue;
    if (want.avoid && want.avoid->touches(c.ext->ppa.block)) continue;
    const uint32_t r = rank(c, op == FlashOp::Read);
    if (r < best_rank) {
      best = int(id);
      best_rank = r;
      if (r == 0) break;
    }
  }
  return best;
}

}  // namespace ssd::model::flash
