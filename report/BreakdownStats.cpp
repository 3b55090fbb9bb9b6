#include "report/BreakdownStats.h"

#include "report/LatencyStats.h"

namespace ssd::report {

void BreakdownStats::Sums::add(const model::LatencyBreakdown& b) {
  ++count;
  for (std::size_t s = 0; s < model::kStageCount; ++s) ps[s] += b.stage[s].value();
}

void BreakdownStats::Sums::add(const Sums& o) {
  count += o.count;
  for (std::size_t s = 0; s < model::kStageCount; ++s) ps[s] += o.ps[s];
}

void BreakdownStats::add(const sc_core::sc_time& latency, const model::LatencyBreakdown& b) {
  const std::size_t k = last_bucket_ = LatencyStats::bucket_near(latency.value(), last_bucket_);
  if (buckets_.size() <= k) buckets_.resize(k + 1);
  buckets_[k].add(b);
}

void BreakdownStats::mean(const Sums& s, Part& out) {
  out.count = s.count;
  if (s.count == 0) return;
  for (std::size_t i = 0; i < model::kStageCount; ++i)
    out.mean_us[i] = double(static_cast<long double>(s.ps[i]) / s.count) * 1e-6;
}

BreakdownStats::Summary BreakdownStats::summarize(uint64_t p99_ps) const {
  Summary out;
  Sums all;
  for (const Sums& s : buckets_) all.add(s);
  mean(all, out.all);
  if (all.count == 0) return out;
  const std::size_t from = LatencyStats::bucket_of(p99_ps);
  Sums slow;
  for (std::size_t k = from; k < buckets_.size(); ++k) slow.add(buckets_[k]);
  mean(slow, out.slowest);
  out.slowest.from_us = from == 0 ? 0.0 : double(LatencyStats::edge_ps(from - 1)) * 1e-6;
  return out;
}

}  // namespace ssd::report
