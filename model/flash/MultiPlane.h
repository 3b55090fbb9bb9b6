#pragma once
// Multi-plane grouping (flash.multiplane): a die starting a command takes with it the ready
// commands of the same kind for its other planes at the same page offset (and block offset,
// with multiplane_same_block); they share one array time and one bus grant. SLC-mode and
// native blocks do not join (one mode for all planes), nor host and background work. A
// program whose partner on another plane is already sent but not yet ready waits for it up to
// flash.multiplane_wait_us, as a controller sends a multi-plane command as one sequence: on a
// free die before it starts, on a busy one before it is staged behind the die's program (cache
// program).
#include <cstdint>
#include <vector>
#include <systemc>

#include "config/FlashConfig.h"
#include "model/flash/DieOperation.h"
#include "model/flash/DieQueue.h"

namespace ssd::model::flash {

class MultiPlane {
 public:
  explicit MultiPlane(const config::FlashConfig& cfg);

  bool on() const { return on_; }
  // Whether programs wait for partners (the die queue then lists programs by page offset).
  bool waits() const { return wait_ > sc_core::SC_ZERO_TIME; }
  uint32_t plane_of(const Cmd& c) const { return c.ext->ppa.block / blocks_per_plane_; }

  // Adds to `g` (holding the command at `nodes[0]`) the ready eligible commands of `q` that
  // join it, and their nodes to `nodes`: on planes not in `busy` (bit p: plane p; independent
  // plane reads), `g` holding at most `limit` commands.
  void gather(const DieQueue& q, const sc_core::sc_time& now, Group& g,
              std::vector<uint32_t>& nodes, uint64_t busy = 0, uint32_t limit = ~0u) const;
  // Whether the die should hold the program at `node` for a partner on another plane that
  // becomes ready within the wait; sets `until` (the partner's time) if so.
  bool hold_for_partner(const DieQueue& q, uint32_t node, const sc_core::sc_time& now,
                        sc_core::sc_time& until) const;

 private:
  bool on_, same_block_;
  uint32_t planes_, blocks_per_plane_;
  sc_core::sc_time wait_;
  sc_core::sc_time never_;  // sc_max_time(), kept: the kernel computes it on every call
};

}  // namespace ssd::model::flash
