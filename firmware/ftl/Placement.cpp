#include "firmware/ftl/Placement.h"

namespace ssd::fw {

Placement::Placement(const config::FdpConfig& cfg, uint32_t dies, uint32_t blocks_per_die,
                     uint32_t host_lanes)
    : enabled_(cfg.enabled),
      handles_(cfg.enabled ? cfg.handles : 1),
      persistent_(cfg.enabled && cfg.isolation == config::FdpIsolation::Persistently),
      blocks_per_die_(blocks_per_die) {
  if (!enabled_) return;
  for (uint32_t h = 1; h < handles_; ++h) {
    host_.emplace_back(dies, Stream(host_lanes, false, uint8_t(h)));
    if (persistent_) gc_.emplace_back(dies, Stream(1, false, uint8_t(h)));
  }
  tags_.assign(std::size_t(dies) * blocks_per_die, 0);
  figures_.resize(handles_ + 1);
}

std::vector<std::vector<Stream>*> Placement::streams() {
  std::vector<std::vector<Stream>*> all;
  for (auto& s : host_) all.push_back(&s);
  for (auto& s : gc_) all.push_back(&s);
  return all;
}

void Placement::reset_figures() { figures_.assign(figures_.size(), HandleFigures{}); }

void Placement::state(StateArchive& a, const StreamGeometry& geometry) {
  if (!enabled_) return;
  a.section("flexible data placement");
  for (std::vector<Stream>* s : streams()) geometry.state(a, *s, blocks_per_die_);
  a.fixed_indexes(tags_, handles_ + 2, "block's placement handle");
}

}  // namespace ssd::fw
