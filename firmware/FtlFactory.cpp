#include <stdexcept>
#include <string>

#include "common/Errors.h"
#include "firmware/Ftl.h"
#include "firmware/ftl/BastFtl.h"
#include "firmware/ftl/BastStarFtl.h"
#include "firmware/ftl/BlockFtl.h"
#include "firmware/ftl/Dftl.h"
#include "firmware/ftl/FastFtl.h"
#include "firmware/ftl/LastFtl.h"
#include "firmware/ftl/PageFtl.h"

namespace ssd::fw {

namespace {

std::unique_ptr<Ftl> new_ftl(const config::DriveConfig& cfg, Hal& hal) {
  switch (cfg.ftl.type) {
    case config::FtlType::Page:
      return std::make_unique<PageFtl>(cfg, hal);
    case config::FtlType::Dftl:
      return std::make_unique<Dftl>(cfg, hal);
    case config::FtlType::Block:
      return std::make_unique<BlockFtl>(cfg, hal);
    case config::FtlType::Bast:
      return std::make_unique<BastFtl>(cfg, hal);
    case config::FtlType::BastStar:
      return std::make_unique<BastStarFtl>(cfg, hal);
    case config::FtlType::Fast:
      return std::make_unique<FastFtl>(cfg, hal);
    case config::FtlType::Last:
      return std::make_unique<LastFtl>(cfg, hal);
  }
  throw std::invalid_argument("invalid FTL type");
}

}  // namespace

std::unique_ptr<Ftl> make_ftl(const config::DriveConfig& cfg, Hal& hal) {
  std::unique_ptr<Ftl> ftl = new_ftl(cfg, hal);
  const uint64_t dram_bytes = cfg.dram.size_mb << 20;
  const uint64_t buffer_bytes = cfg.dram.write_buffer_mb << 20;
  // The table and the write buffer share the DRAM. With ftl.size_dram_from_table the DRAM is
  // sized to fit instead.
  if (!cfg.ftl.size_dram_from_table && ftl->mapping_table_bytes() + buffer_bytes > dram_bytes)
    throw ConfigError(
        "drive '" + cfg.name + "': dram.size_mb: the " + ftl->name() +
        " FTL's mapping table needs " +
        std::to_string((ftl->mapping_table_bytes() + (1 << 20) - 1) >> 20) + " MiB" +
        (buffer_bytes ? " and the write buffer " + std::to_string(cfg.dram.write_buffer_mb) + " MiB"
                      : std::string()) +
        ", more than the " + std::to_string(cfg.dram.size_mb) + " MiB DRAM");
  return ftl;
}

}  // namespace ssd::fw
