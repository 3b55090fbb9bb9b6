#pragma once
// The page-level FTL's injected faults (flash.faults, docs/reliability.md#injected-faults): what
// failures took (erases and programs that failed, the blocks of failed programs whose data has
// yet to move), the spare they leave (SpareReserve), and a die that stops answering (DeadDie).
// PageLevelFtl acts on them (firmware/ftl/PageLevelFaults.cpp,
// firmware/ftl/PageLevelDeadDie.cpp); this class keeps their state.
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "config/FaultConfig.h"
#include "firmware/Ftl.h"
#include "firmware/Statistics.h"
#include "firmware/ftl/DeadDie.h"
#include "firmware/ftl/SpareReserve.h"

namespace ssd::fw {

class InjectedFaults {
 public:
  InjectedFaults(const config::FaultConfig& cfg, uint32_t dies);

  const config::FaultConfig& config() const { return cfg_; }
  // With faults (PageLevelFtl::register_faults): the dies out of room and the read-only state.
  std::optional<SpareReserve>& spare() { return spare_; }
  const std::optional<SpareReserve>& spare() const { return spare_; }
  bool read_only() const { return spare_ && spare_->read_only(); }
  // Whether the die stopped answering (and the firmware knows it).
  bool gone(uint32_t die) const { return spare_ && spare_->dead(die); }

  // Whether the erase of `block` after `erases` earlier ones failed (the NAND's draw), counted.
  bool erase_failed(uint32_t die, uint32_t block, uint32_t erases);
  // Whether the program of `page` of `block` after `erases` erases failed, counted.
  bool program_failed(uint32_t die, uint32_t block, uint32_t page, uint32_t erases);
  // Per die: the blocks whose program failed, their valid data still to move before they are
  // retired. add_failed: whether the block is new there; remove_failed: whether it was one;
  // forget_failed: the die's are not moved (it stopped answering).
  const std::vector<uint32_t>& failed(uint32_t die) const { return failed_[die]; }
  // One-shot programming: the data of an open word line's pages programmed so far (its last
  // page's status is the word line's), which the controller keeps until the word line programs.
  // hold: a page's `units` tokens, in page order; release: the word line's, handed back.
  void hold(uint32_t die, uint32_t block, const PageToken* data, uint32_t units) {
    std::vector<PageToken>& held = word_lines_[uint64_t(die) << 32 | block];
    held.insert(held.end(), data, data + units);
  }
  std::vector<PageToken> release(uint32_t die, uint32_t block) {
    const auto it = word_lines_.find(uint64_t(die) << 32 | block);
    if (it == word_lines_.end()) return {};
    std::vector<PageToken> held = std::move(it->second);
    word_lines_.erase(it);
    return held;
  }
  bool add_failed(uint32_t die, uint32_t block);
  bool remove_failed(uint32_t die, uint32_t block);
  void forget_failed(uint32_t die) { failed_[die].clear(); }
  uint64_t failed_blocks() const;  // over the dies

  uint64_t erase_failures = 0;  // blocks retired
  uint64_t program_failures = 0;
  uint32_t failed_die = 0;          // where PageLevelFtl::relocate_failed() looks first
  uint64_t units_lost_no_room = 0;  // PageLevelFtl::lose_for_no_room
  DeadDie dead;                     // flash.faults.dead_die

 private:
  config::FaultConfig cfg_;
  std::vector<std::vector<uint32_t>> failed_;
  std::unordered_map<uint64_t, std::vector<PageToken>> word_lines_;  // by die and block
  std::optional<SpareReserve> spare_;
};

}  // namespace ssd::fw
