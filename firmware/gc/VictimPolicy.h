#pragma once
// Garbage-collection victim choice for page-level FTLs (ftl.gc_policy). A policy picks, among
// a die's full blocks, the block to reclaim, and says how many candidates it examined: the
// FTL charges each one controller time and a DRAM access (its valid count), so a policy that
// looks further finds better victims but costs more (brief section 5).
//
//   greedy        fewest valid pages, from BlockManager's bucket index: 1 candidate examined.
//   cost_benefit  highest age x (1 - u) / 2u over all full blocks (u = valid fraction, age =
//                 time since the block's last invalidation or its closing).
//   random        a uniformly drawn full block (fixed-seed generator: runs are repeatable).
//   window        greedy over ceil(gc_window_fraction x candidates) full blocks starting at a
//                 position that rotates by the window after each choice.
// A block whose pages are all valid gains nothing: random and window look on past it (each
// extra block counts as examined); every policy returns nothing when the die has no full
// block with an invalid page.
//
// A victim must also fit: its valid pages are copied into blocks the die opens from its free
// pool, so on a die with no free block only a victim whose pages fit the room its open block
// has left can be reclaimed. The FTL checks the policy's choice and, when it does not fit,
// takes fewest_valid() among the blocks that do (PageLevelFtl::reclaim_one).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "config/DriveConfig.h"
#include "firmware/BlockManager.h"

namespace ssd::fw {

class VictimPolicy {
 public:
  struct Choice {
    std::optional<uint32_t> block;  // empty: nothing reclaimable on the die
    uint32_t examined = 0;          // candidates looked at
  };

  virtual ~VictimPolicy() = default;
  // `now`: the clock BlockManager's stamps are in (cost-benefit ages).
  virtual Choice choose(const BlockManager& blocks, uint32_t die, uint64_t now) = 0;
  virtual const char* name() const = 0;
  // What the policy carries from one choice to the next (a saved aged drive).
  virtual void state(StateArchive& /*a*/) {}
};

// The full block of the die with the fewest valid pages among those `fits` accepts, every
// full block examined; nothing if none is accepted or the best is fully valid.
VictimPolicy::Choice fewest_valid(const BlockManager& blocks, uint32_t die,
                                  const std::function<bool(uint32_t)>& fits);

// The policy named by ftl.gc_policy (validated by the config parser).
std::unique_ptr<VictimPolicy> make_victim_policy(const config::FtlConfig& cfg, uint32_t dies);

}  // namespace ssd::fw
