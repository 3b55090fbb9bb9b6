#pragma once
// The flexible data placement drives of the placement tests (ftl.fdp): small_gc with handles of
// the given isolation, and with two tenants' namespaces and their placement handle lists.
#include <string>

#include "tb/tests/TestUtil.h"

namespace ssd::test {

inline config::DriveConfig fdp_config(const std::string& isolation, uint32_t handles = 2) {
  config::DriveConfig cfg = shipped("small_gc");
  cfg.ftl.fdp.enabled = true;
  cfg.ftl.fdp.handles = handles;
  cfg.ftl.fdp.isolation = choice<config::FdpIsolation>(isolation);
  return config::parse_drive_config(config::to_json(cfg), "test");
}

// Four handles initially isolated and two namespaces of 1 MiB: "a" lists handle 2 alone, "b"
// handles 3 and 1.
inline config::DriveConfig tenant_config() {
  config::DriveConfig cfg = fdp_config("initially_isolated", 4);
  config::NamespaceConfig a, b;
  a.name = "a";
  b.name = "b";
  a.size_bytes = b.size_bytes = 1 << 20;
  a.placement_handles = {2};
  b.placement_handles = {3, 1};
  cfg.namespaces = {a, b};
  return config::parse_drive_config(config::to_json(cfg), "test");
}

}  // namespace ssd::test
