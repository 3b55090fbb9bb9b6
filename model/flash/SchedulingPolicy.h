#pragma once
// The channel sequencer's choice among ready commands (controller.scheduler_policy,
// host_first, suspend_for_reads): a command's rank puts background work (GC, wear levelling,
// merges) after host work with host_first, and reads before programs and erases with
// read_first; issue order breaks ties (oldest_ready alone ranks everything equal). The bus
// goes by the same rank, a data-out counting as a read.
#include <cstdint>
#include <systemc>

#include "config/ControllerConfig.h"
#include "model/flash/DieOperation.h"
#include "model/flash/DieQueue.h"

namespace ssd::model::flash {

class SchedulingPolicy {
 public:
  explicit SchedulingPolicy(const config::ControllerConfig& cfg)
      : read_first_(cfg.scheduler_policy == config::SchedulerPolicy::ReadFirst),
        host_first_(cfg.host_first),
        suspend_(cfg.suspend_for_reads) {}

  bool read_first() const { return read_first_; }
  bool host_first() const { return host_first_; }
  // A ready host read may suspend a die's program or erase.
  bool suspend() const { return suspend_; }
  // Whether rank can tell commands apart (else issue order alone decides).
  bool ranks() const { return read_first_ || host_first_; }

  // Rank of a command or transfer: smaller goes first.
  uint32_t rank(const Cmd& c, bool read_like) const {
    return (host_first_ && c.ext->background ? 2 : 0) + (read_first_ && !read_like ? 1 : 0);
  }

  // What a die may start: which kinds, and blocks it must leave alone.
  struct Want {
    bool programs_only = false;
    bool host_reads_only = false;
    const Group* avoid = nullptr;  // blocks of an operation in progress or suspended
    // Independent plane reads: planes whose reads are busy (bit p: plane p), and the plane of a
    // block (blocks_per_plane; 0: no such reads). A read for a busy plane cannot start.
    uint64_t busy_planes = 0;
    uint32_t blocks_per_plane = 0;
  };
  // The node of the best ready command of `q` that `want` admits, or -1.
  int pick(const DieQueue& q, const sc_core::sc_time& now, const Want& want) const {
    int best = -1;
    uint32_t best_rank = ~0u;
    for (const uint32_t id : q.eligible()) {
      if (!q.ready(id, now)) continue;
      const Cmd& c = q.cmd(id);
      const FlashOp op = c.ext->op;
      if (want.programs_only && op != FlashOp::Program) continue;
      if (want.host_reads_only && (op != FlashOp::Read || c.ext->background)) continue;
      if (want.avoid && want.avoid->touches(c.ext->ppa.block)) continue;
      if (want.busy_planes != 0 && op == FlashOp::Read && !c.ext->spare &&
          (want.busy_planes >> (c.ext->ppa.block / want.blocks_per_plane) & 1))
        continue;
      const uint32_t r = rank(c, op == FlashOp::Read);
      if (r < best_rank) {
        best = int(id);
        best_rank = r;
        if (r == 0) break;
      }
    }
    return best;
  }

 private:
  bool read_first_, host_first_, suspend_;
};

}  // namespace ssd::model::flash
