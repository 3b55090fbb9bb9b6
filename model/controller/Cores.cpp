#include "model/controller/Cores.h"

namespace ssd::model::controller {

Cores::Cores(EnergyMonitor& monitor, const config::ControllerConfig& cfg)
    : stripes_(cfg.ftl_placement == config::FtlPlacement::Stripes),
      stripe_units_(cfg.stripe_units),
      message_(cfg.t_message_ns, sc_core::SC_NS) {
  std::vector<config::CoreConfig> list = cfg.cores;
  if (list.empty()) list.push_back({"controller", true, true, true});
  for (const config::CoreConfig& c : list) {
    CoreSpec spec = CoreSpec::firmware_core(cfg);
    spec.name = c.name;
    spec.index = uint32_t(cores_.size());
    cores_.push_back(std::make_unique<Core>(monitor, spec));
    Core* core = cores_.back().get();
    if (c.host) host_.push_back(core);
    if (c.ftl) ftl_.push_back(core);
    if (c.background) background_.push_back(core);
    does_ftl_.push_back(c.ftl);
    background_yields_ = background_yields_ || (c.background && (c.host || c.ftl));
  }
}

Core& Cores::ftl(fw::Lpn lpn, Core& taker) {
  if (stripes_ && lpn != fw::Hal::kAllUnits) return *ftl_[(lpn / stripe_units_) % ftl_.size()];
  if (does_ftl_[taker.index()]) return taker;
  // The one that can start first, counting the message to it.
  return free_first(ftl_);
}

Core& Cores::free_first(const std::vector<Core*>& pool) {
  Core* best = pool.front();
  for (Core* c : pool)
    if (c->now() < best->now()) best = c;
  return *best;
}

}  // namespace ssd::model::controller
