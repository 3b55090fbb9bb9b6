#include "tb/trace/VolumeFlows.h"

#include <algorithm>
#include <utility>

namespace ssd::tb {

VolumeFlows::VolumeFlows(std::unique_ptr<TraceReader> trace, const std::vector<uint64_t>& volumes,
                         const std::vector<uint32_t>& queues,
                         const std::vector<uint32_t>& namespaces,
                         const std::vector<uint32_t>& placement)
    : trace_(std::move(trace)), volumes_(volumes), pending_(volumes.size()) {
  for (std::size_t i = 0; i < volumes_.size(); ++i) {
    flows_.emplace_back(*this, i, volumes_[i], i < queues.size() ? queues[i] : 0);
    namespaces_.push_back(i < namespaces.size() ? namespaces[i] : 0);
    placement_.push_back(uint16_t(i < placement.size() ? placement[i] : 0));
  }
}

bool VolumeFlows::take(std::size_t i, HostRequest& out) {
  while (pending_[i].empty()) {
    HostRequest r;
    if (!trace_->next(r)) return false;
    // The reader keeps only the listed volumes.
    const auto at =
        std::size_t(std::find(volumes_.begin(), volumes_.end(), r.volume) - volumes_.begin());
    r.ns = namespaces_[at];
    r.placement = placement_[at];
    pending_[at].push_back(r);
  }
  out = pending_[i].front();
  pending_[i].pop_front();
  return true;
}

std::vector<RequestSource*> VolumeFlows::flows() {
  std::vector<RequestSource*> out;
  for (Flow& f : flows_) out.push_back(&f);
  return out;
}

}  // namespace ssd::tb
