#include "firmware/ftl/InjectedFaults.h"

#include <algorithm>

namespace ssd::fw {

InjectedFaults::InjectedFaults(const config::FaultConfig& cfg, uint32_t dies)
    : cfg_(cfg),
      failed_(dies),
      dead_die_pending_(cfg.dead_die_at_ms > 0),
      dead_at_(cfg.dead_die_at_ms > 0 ? sc_core::sc_time(cfg.dead_die_at_ms, sc_core::SC_MS)
                                      : sc_core::SC_ZERO_TIME) {}

bool InjectedFaults::erase_failed(uint32_t die, uint32_t block, uint32_t erases) {
  // The firmware reads the status the NAND's draw gives the erase (model/flash/NandDie.cpp).
  if (!cfg_.any() || !config::erase_fails(cfg_, die, block, erases)) return false;
  ++erase_failures;
  return true;
}

bool InjectedFaults::program_failed(uint32_t die, uint32_t block, uint32_t page, uint32_t erases) {
  // The firmware reads the status the NAND's draw gives the program (model/flash/NandDie.cpp).
  if (!config::program_fails(cfg_, die, block, page, erases)) return false;
  ++program_failures;
  return true;
}

bool InjectedFaults::add_failed(uint32_t die, uint32_t block) {
  auto& failed = failed_[die];
  if (std::find(failed.begin(), failed.end(), block) != failed.end()) return false;
  failed.push_back(block);
  return true;
}

bool InjectedFaults::remove_failed(uint32_t die, uint32_t block) {
  auto& failed = failed_[die];
  const auto it = std::find(failed.begin(), failed.end(), block);
  if (it == failed.end()) return false;
  failed.erase(it);
  return true;
}

uint64_t InjectedFaults::failed_blocks() const {
  uint64_t n = 0;
  for (const auto& f : failed_) n += f.size();
  return n;
}

void InjectedFaults::lost_with_die(std::vector<Lpn>& lost) {
  units_lost_ = lost.size();
  std::sort(lost.begin(), lost.end());
  for (const Lpn lpn : lost) {
    if (!lost_ranges_.empty() && lost_ranges_.back().first + lost_ranges_.back().count == lpn)
      ++lost_ranges_.back().count;
    else
      lost_ranges_.push_back(Ftl::LostRange{lpn, 1});
  }
}

void InjectedFaults::register_dead_die(Statistics& statistics) {
  statistics.group("faults")
      .derived("dead_die", StatUnit::None, "The die that stops answering (flash.faults.dead_die).",
               [die = cfg_.dead_die] { return double(die); })
      .derived(
          "dead_die_at_s", StatUnit::Seconds,
          "When the firmware learned that die flash.faults.dead_die had stopped answering (its "
          "first step from flash.faults.dead_die_at_ms on); null: it did not in the run.",
          [this] { return died_at_s_; })
      .counter("units_lost", StatUnit::Units,
               "Logical units (ftl.mapping_unit_bytes) the dead die held: their data is lost until "
               "the host writes them again.",
               units_lost_)
      .derived("lost_ranges", StatUnit::None,
               "Runs of consecutive logical units among them (the stripe over the dies scatters "
               "a die's data over the logical space).",
               [this] { return double(lost_ranges_.size()); })
      .counter("reads_lost", StatUnit::Units,
               "Unit reads that found their unit lost with the die: a host read's, failing its "
               "command with an unrecovered read error, or a partial write's old data (the write "
               "goes on and heals the unit).",
               reads_lost);
}

}  // namespace ssd::fw
