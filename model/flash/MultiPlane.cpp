#include "model/flash/MultiPlane.h"

#include <algorithm>

namespace ssd::model::flash {

MultiPlane::MultiPlane(const config::FlashConfig& cfg)
    : on_(cfg.multiplane),
      same_block_(cfg.multiplane_same_block),
      planes_(cfg.planes_per_die),
      blocks_per_plane_(cfg.blocks_per_plane),
      wait_(cfg.multiplane ? cfg.multiplane_wait_us : 0.0, sc_core::SC_US),
      never_(sc_core::sc_max_time()) {}

void MultiPlane::gather(const DieQueue& q, const sc_core::sc_time& now, Group& g,
                        std::vector<uint32_t>& nodes, uint64_t busy, uint32_t limit) const {
  limit = std::min(limit, planes_);
  const FlashCommandExt& first = *g.cmds.front().ext;
  if (first.spare) return;  // a spare read runs alone: its own time and bytes
  // Only eligible commands can be ready; they are in issue order.
  for (const uint32_t j : q.eligible()) {
    if (g.cmds.size() >= limit) break;
    if (j == nodes.front()) continue;
    const Cmd& c = q.cmd(j);
    if (c.ext->op != g.kind || c.ext->spare || c.ext->background != first.background ||
        c.ext->slc != first.slc)
      continue;
    if (g.kind != FlashOp::Erase && c.ext->ppa.page != first.ppa.page) continue;
    if (same_block_ && c.ext->ppa.block % blocks_per_plane_ != first.ppa.block % blocks_per_plane_)
      continue;
    const uint32_t plane = plane_of(c);
    if (busy >> plane & 1) continue;
    if (std::any_of(g.cmds.begin(), g.cmds.end(),
                    [&](const Cmd& m) { return plane_of(m) == plane; }))
      continue;
    if (!q.ready(j, now)) continue;
    g.cmds.push_back(c);
    nodes.push_back(j);
  }
}

bool MultiPlane::hold_for_partner(const DieQueue& q, uint32_t node, const sc_core::sc_time& now,
                                  sc_core::sc_time& until) const {
  const Cmd& first = q.cmd(node);
  sc_core::sc_time soonest = never_;
  std::size_t partners = 1;
  for (const uint32_t j : q.programs_at_page(first.ext->ppa.page)) {
    const Cmd& c = q.cmd(j);
    if (j == node || plane_of(c) == plane_of(first) || c.ext->background != first.ext->background ||
        c.ext->slc != first.ext->slc)
      continue;
    // Counted once sent, whether or not an earlier command to its block is still queued.
    const sc_core::sc_time at = std::max(c.arrival, c.ext->data_ready_at);
    if (at <= now)
      ++partners;
    else if (at <= now + wait_)
      soonest = std::min(soonest, at);
  }
  if (partners >= planes_ || soonest == never_) return false;
  until = soonest;
  return true;
}

}  // namespace ssd::model::flash
