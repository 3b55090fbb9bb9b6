#include <stdexcept>
#include <string>

#include "firmware/Ftl.h"
#include "firmware/ftl/BastFtl.h"
#include "firmware/ftl/BastStarFtl.h"
#include "firmware/ftl/BlockFtl.h"
#include "firmware/ftl/CheckedConfig.h"
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

void check_ftl(const config::DriveConfig& cfg, config::Problems& problems) {
  switch (cfg.ftl.type) {
    case config::FtlType::Page:
      break;
    case config::FtlType::Dftl:
      Dftl::check(cfg, problems);
      break;
    default:
      LogBlockLayout::check(cfg, problems);
  }
  // DFTL's translation pages hold page_bytes / access_bytes entries: none, no table.
  if (!problems.none_under({"dram.access_bytes"})) return;
  const uint64_t table_bytes = mapping_table_bytes(cfg);
  const uint64_t buffer_bytes = cfg.dram.write_buffer_mb << 20;
  // The table and the write buffer share the DRAM. With ftl.size_dram_from_table the DRAM is
  // sized to fit instead.
  if (!cfg.ftl.size_dram_from_table && table_bytes + buffer_bytes > cfg.dram.size_mb << 20)
    problems.add("dram.size_mb",
                 std::string("the ") + to_string(cfg.ftl.type) + " FTL's mapping table needs " +
                     std::to_string((table_bytes + (1 << 20) - 1) >> 20) + " MiB" +
                     (buffer_bytes ? " and the write buffer " +
                                         std::to_string(cfg.dram.write_buffer_mb) + " MiB"
                                   : std::string()) +
                     ", more than the " + std::to_string(cfg.dram.size_mb) + " MiB DRAM");
}

uint64_t mapping_table_bytes(const config::DriveConfig& cfg) {
  switch (cfg.ftl.type) {
    case config::FtlType::Page:
      return PageFtl::table_bytes(cfg);
    case config::FtlType::Dftl:
      return Dftl::table_bytes(cfg);
    default:
      return LogBlockLayout::table_bytes(cfg);
  }
}

std::unique_ptr<Ftl> make_ftl(const config::DriveConfig& cfg, Hal& hal) {
  return new_ftl(checked(cfg, &check_ftl), hal);
}

}  // namespace ssd::fw
