#include "model/flash/EccPool.h"

#include <algorithm>

namespace ssd::model::flash {

EccPool::EccPool(const config::ReliabilityConfig& r, double voltage_v, EnergyMonitor& monitor,
                 const std::string& owner) {
  const std::string base = owner.empty() ? "ecc" : owner + ".ecc";
  engines_.reserve(r.ecc_engines);
  for (uint32_t k = 0; k < r.ecc_engines; ++k)
    engines_.emplace_back(r, voltage_v, monitor,
                          r.ecc_engines == 1 ? base : base + std::to_string(k));
}

sc_core::sc_time EccPool::decode(uint32_t step, const sc_core::sc_time& ready, double& joules) {
  // An engine free by `ready` starts it at once; else the one free first.
  auto best = engines_.begin();
  for (auto e = engines_.begin(); e != engines_.end() && best->free_at() > ready; ++e)
    if (e->free_at() < best->free_at()) best = e;
  return best->decode(step, ready, joules);
}

uint64_t EccPool::decodes() const {
  uint64_t n = 0;
  for (const EccEngine& e : engines_) n += e.decodes();
  return n;
}

sc_core::sc_time EccPool::queued() const {
  sc_core::sc_time t;
  for (const EccEngine& e : engines_) t += e.queued();
  return t;
}

}  // namespace ssd::model::flash
