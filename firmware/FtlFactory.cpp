#include "common/Errors.h"
#include "firmware/Ftl.h"
#include "firmware/ftl/PageFtl.h"

namespace ssd::fw {

std::unique_ptr<Ftl> make_ftl(const config::DriveConfig& cfg, Hal& hal) {
  if (cfg.ftl.type == "page") return std::make_unique<PageFtl>(cfg, hal);
  throw ConfigError("ftl.type: unknown FTL '" + cfg.ftl.type + "'");
}

}  // namespace ssd::fw
