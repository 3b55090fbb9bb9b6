#pragma once
// The memory the model takes for a drive geometry (docs/config.md#model-memory), so a
// geometry this machine cannot hold is refused when the config is read, with the keys named,
// instead of ending in std::bad_alloc partway through building the model.
#include <cstdint>
#include <string>

#include "config/DriveConfig.h"
#include "config/json/Problems.h"

namespace ssd::config {

// Measured on the model (peak resident memory against geometry, before any page is written):
// each die's SystemC modules, power-state machine and queues, and each block's NAND and FTL
// state. A written page adds about kWrittenPageBytes (NAND token, the FTL's owner of the page,
// its mapping entry).
inline constexpr uint64_t kDieBytes = 15 * 1024;
inline constexpr uint64_t kBlockBytes = 105;
inline constexpr uint64_t kWrittenPageBytes = 19;

// The model's memory before any write.
uint64_t model_bytes_unwritten(const FlashConfig& f);
// The physical memory of this machine (0: unknown, nothing is refused).
uint64_t physical_memory_bytes();
// A problem naming the geometry keys if the unwritten model alone exceeds `memory_bytes` (0: no
// limit).
void check_model_fits(const DriveConfig& cfg, Problems& problems, uint64_t memory_bytes);

}  // namespace ssd::config
