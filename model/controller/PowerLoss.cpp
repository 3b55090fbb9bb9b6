#include "model/controller/PowerLoss.h"

namespace ssd::model::controller {

void PowerLoss::programming(fw::OpId id, const fw::PageToken* data, uint32_t units,
                            uint32_t from_host) {
  Program p;
  for (uint32_t u = 0; u < units; ++u)
    if ((from_host >> u) & 1u) p.data.push_back(data[u]);
  if (!p.data.empty()) in_flight_[id] = std::move(p);
}

void PowerLoss::ended(fw::OpId id, const sc_core::sc_time& end) {
  const auto it = in_flight_.find(id);
  if (it == in_flight_.end()) return;
  if (end >= at_)
    for (const fw::PageToken& t : it->second.data) late_.push_back(Late{t, end});
  in_flight_.erase(it);
}

std::vector<fw::PageToken> PowerLoss::ended_after(const sc_core::sc_time& t) const {
  std::vector<fw::PageToken> out;
  for (const Late& l : late_)
    if (l.end > t) out.push_back(l.data);
  return out;
}

}  // namespace ssd::model::controller
