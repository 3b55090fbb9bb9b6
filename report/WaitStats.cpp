#include "report/WaitStats.h"

#include <algorithm>

#include "report/LatencyStats.h"

namespace ssd::report {

void WaitStats::add(const sc_core::sc_time& wait) {
  ++requests_;
  const uint64_t ps = wait.value();
  if (ps == 0) return;
  ++waited_;
  total_ps_ += ps;
  max_ps_ = std::max(max_ps_, ps);
  const std::size_t k = LatencyStats::bucket_of(ps);
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
    if (buckets_[k] != 0)
      s.histogram.emplace_back(double(LatencyStats::edge_ps(k)) / 1e6, buckets_[k]);
  return s;
}

}  // namespace ssd::report
