#include "firmware/ftl/InjectedFaults.h"

#include <algorithm>

namespace ssd::fw {

InjectedFaults::InjectedFaults(const config::FaultConfig& cfg, uint32_t dies)
    : dead(cfg), cfg_(cfg), failed_(dies) {}

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

}  // namespace ssd::fw
