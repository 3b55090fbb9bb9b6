#include "firmware/ftl/LogBlockLayout.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "firmware/ftl/LogIndex.h"

namespace ssd::fw {
namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

uint64_t data_blocks_per_die(const config::DriveConfig& cfg) {
  return ceil_div(LogBlockLayout::logical_blocks(cfg), cfg.flash.dies());
}

// Log blocks per die from ftl.log_block_fraction: ceil(fraction x data blocks per die), at
// least `minimum`.
uint32_t scaled_log_blocks(const config::DriveConfig& cfg, uint32_t minimum) {
  // The small epsilon keeps an exact product (0.05 x 100) from rounding up past it.
  const double n = std::ceil(cfg.ftl.log_block_fraction * double(data_blocks_per_die(cfg)) - 1e-9);
  return std::max(minimum, uint32_t(std::max(0.0, n)));
}

}  // namespace

uint64_t LogBlockLayout::logical_blocks(const config::DriveConfig& cfg) {
  return ceil_div(cfg.logical_pages(), cfg.flash.pages_per_block);
}

uint64_t LogBlockLayout::log_pages(const config::DriveConfig& cfg) const {
  return uint64_t(log_slots) * cfg.flash.dies() * cfg.flash.pages_per_block;
}

LogBlockLayout LogBlockLayout::of(const config::DriveConfig& cfg) {
  switch (cfg.ftl.type) {
    case config::FtlType::Block: {
      const bool replacement = cfg.ftl.block_update == config::BlockUpdate::Replacement;
      return {replacement ? scaled_log_blocks(cfg, 1) : 0, replacement};
    }
    case config::FtlType::Bast:
    case config::FtlType::BastStar:
      return {scaled_log_blocks(cfg, 1), false};
    case config::FtlType::Fast:  // one sequential log block, the rest random
      return {1 + scaled_log_blocks(cfg, 1), false};
    case config::FtlType::Last:
      return {cfg.ftl.last_seq_log_blocks + scaled_log_blocks(cfg, 2), false};
    case config::FtlType::Page:
    case config::FtlType::Dftl:
      break;
  }
  throw std::invalid_argument("not a log-block FTL");
}

void LogBlockLayout::check(const config::DriveConfig& cfg, config::Problems& problems) {
  const LogBlockLayout l = of(cfg);
  const std::string name = to_string(cfg.ftl.type);
  const uint64_t data = data_blocks_per_die(cfg);
  const uint64_t blocks = cfg.flash.blocks_per_die();
  // Under injected faults a die needs a block to lose: with none beyond its data and log blocks
  // and a merge's, its first failed erase or program (whose block is replaced at once) stops it.
  const config::FaultConfig& f = cfg.flash.faults;
  const uint64_t to_lose = f.erase_fail_probability > 0 || f.program_fail_probability > 0;
  if (data + l.log_slots + 1 + to_lose > blocks)
    problems.add("ftl.overprovisioning",
                 "the " + name + " FTL needs " + std::to_string(data + l.log_slots + 1 + to_lose) +
                     " blocks per die (" + std::to_string(data) + " data blocks, " +
                     std::to_string(l.log_slots) +
                     (to_lose ? " log blocks, 1 spare for merges and 1 to lose to flash.faults"
                              : " log blocks and 1 spare for merges") +
                     "), the die has " + std::to_string(blocks));
  if (logical_blocks(cfg) >= kNone)
    problems.add("flash", "the " + name + " FTL numbers logical blocks in 32 bits: the drive has " +
                              std::to_string(logical_blocks(cfg)));
  if (l.log_pages(cfg) >= LogIndex::kNil)
    problems.add("ftl.log_block_fraction",
                 "the " + name + " FTL's log pages must be fewer than 2^32");
}

uint64_t LogBlockLayout::table_bytes(const config::DriveConfig& cfg) {
  const LogBlockLayout l = of(cfg);
  return (logical_blocks(cfg) + uint64_t(l.log_slots) * cfg.flash.dies() *
                                    (l.replacement_blocks ? 1 : cfg.flash.pages_per_block)) *
         cfg.dram.access_bytes;
}

}  // namespace ssd::fw
