#include "config/ModelMemory.h"

#include <unistd.h>

#include <cstdio>

namespace ssd::config {
namespace {

std::string gib(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", double(bytes) / double(1ull << 30));
  return text;
}

}  // namespace

uint64_t model_bytes_unwritten(const FlashConfig& f) {
  const uint64_t dies = f.dies();
  return dies * kDieBytes + dies * f.blocks_per_die() * kBlockBytes;
}

uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
}

void check_model_fits(const DriveConfig& cfg, Problems& problems, uint64_t memory_bytes) {
  const FlashConfig& f = cfg.flash;
  const uint64_t need = model_bytes_unwritten(f);
  if (memory_bytes == 0 || need <= memory_bytes) return;
  problems.add(
      "flash",
      "the model of " + std::to_string(f.dies()) +
          " dies (flash.channels x flash.ways_per_channel x flash.dies_per_way) of " +
          std::to_string(f.blocks_per_die()) +
          " blocks (flash.planes_per_die x flash.blocks_per_plane) needs " + gib(need) +
          " before any page is written (about 15 KiB a die and 105 bytes a block); this machine "
          "has " +
          gib(memory_bytes));
}

}  // namespace ssd::config
