#include "model/controller/BackgroundWork.h"

#include <algorithm>
#include <optional>

namespace ssd::model::controller {
namespace {

// The shortest idle time of the background work enabled; none if none is.
std::optional<double> idle_us(const config::DriveConfig& cfg) {
  std::optional<double> us;
  const auto consider = [&](bool enabled, double idle_us) {
    if (enabled) us = std::min(us.value_or(idle_us), idle_us);
  };
  consider(cfg.dram.write_buffer_mb > 0 || cfg.units_per_page() > 1, cfg.dram.write_buffer_idle_us);
  consider(cfg.ftl.background_gc || cfg.ftl.read_refresh.enabled, cfg.ftl.bg_gc_idle_us);
  consider(cfg.ftl.slc_cache_blocks_per_plane > 0 || !cfg.ftl.slc_dynamic.empty(),
           cfg.ftl.slc_fold_idle_us);
  return us;
}

}  // namespace

BackgroundWork::BackgroundWork(const config::DriveConfig& cfg)
    : enabled_(idle_us(cfg).has_value()), idle_(idle_us(cfg).value_or(0), sc_core::SC_US) {}

}  // namespace ssd::model::controller
