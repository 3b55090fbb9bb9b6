#include "tb/host/WaitStats.h"

#include <algorithm>
#include <cmath>

#include "tb/host/LatencyStats.h"

namespace ssd::tb {
namespace {
// LatencyStats' bucket edges in whole picoseconds: bucket k ends at 10^(k/10) us.
uint64_t edge_ps(std::size_t k) {
  return uint64_t(std::llround(std::pow(10.0, double(k) / LatencyStats::kBucketsPerDecade) * 1e6));
}
}  // namespace

void WaitStats::add(const sc_core::sc_time& wait) {
  ++requests_;
  const uint64_t ps = wait.value();
  if (ps == 0) return;
  ++waited_;
  total_ps_ += ps;
  max_ps_ = std::max(max_ps_, ps);
  // The first edge at or above the wait (LatencyStats' rule for a sample on an edge).
  const double us = double(ps) * 1e-6;
  std::size_t k =
      us <= 1.0 ? 0 : std::size_t(std::ceil(std::log10(us) * LatencyStats::kBucketsPerDecade));
  while (k > 0 && edge_ps(k - 1) >= ps) --k;  // the rounding of log10 either way
  while (edge_ps(k) < ps) ++k;
  if (buckets_.size() <= k) buckets_.resize(k + 1, 0);
  ++buckets_[k];
}

WaitStats::Summary WaitStats::summarize() const {
  Summary s;
  s.requests = requests_;
  s.waited = waited_;
  s.total_s = double(static_cast<long double>(total_ps_) * 1e-12L);
  if (requests_ != 0) s.mean_us = double(static_cast<long double>(total_ps_) / requests_) * 1e-6;
  if (waited_ != 0) s.mean_waited_us = double(static_cast<long double>(total_ps_) / waited_) * 1e-6;
  s.max_us = double(max_ps_) * 1e-6;
  for (std::size_t k = 0; k < buckets_.size(); ++k)
    if (buckets_[k] != 0) s.histogram.emplace_back(double(edge_ps(k)) / 1e6, buckets_[k]);
  return s;
}

}  // namespace ssd::tb
