#include <string>

#include "common/Errors.h"
#include "firmware/Ftl.h"
#include "firmware/ftl/PageFtl.h"

namespace ssd::fw {

std::unique_ptr<Ftl> make_ftl(const config::DriveConfig& cfg, Hal& hal) {
  std::unique_ptr<Ftl> ftl;
  if (cfg.ftl.type == "page") ftl = std::make_unique<PageFtl>(cfg, hal);
  if (!ftl) throw ConfigError("ftl.type: unknown FTL '" + cfg.ftl.type + "'");
  const uint64_t dram_bytes = cfg.dram.size_mb << 20;
  if (ftl->mapping_table_bytes() > dram_bytes)
    throw ConfigError("drive '" + cfg.name + "': dram.size_mb: the " + ftl->name() + " FTL's mapping table needs " +
                      std::to_string((ftl->mapping_table_bytes() + (1 << 20) - 1) >> 20) +
                      " MiB, more than the " + std::to_string(cfg.dram.size_mb) + " MiB DRAM");
  return ftl;
}

}  // namespace ssd::fw
