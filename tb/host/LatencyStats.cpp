#include "tb/host/LatencyStats.h"

#include <algorithm>
#include <cmath>

namespace ssd::tb {

// Linear in the samples: nearest ranks by selection and the histogram by a binary search of
// its edges (sorting a long run's samples cost a few per cent of the whole run).
LatencyStats::Summary LatencyStats::summarize() const {
  Summary s;
  if (samples_ps_.empty()) return s;
  std::vector<uint64_t>& v = samples_ps_;
  // Each rank is selected among the samples above the previous one.
  auto from = v.begin();
  const auto rank = [&](double p) {
    const auto k = std::max<std::size_t>(std::size_t(std::ceil(p * double(v.size()))), 1) - 1;
    const auto nth = v.begin() + std::ptrdiff_t(k);
    std::nth_element(from, nth, v.end());
    from = nth;
    return double(*nth) * 1e-6;
  };
  s.p50_us = rank(0.50);
  s.p99_us = rank(0.99);
  s.p999_us = rank(0.999);
  s.p9999_us = rank(0.9999);
  const uint64_t max = *std::max_element(from, v.end());
  s.max_us = double(max) * 1e-6;
  unsigned __int128 sum = 0;  // exact
  for (uint64_t x : v) sum += x;
  s.mean_us = double(static_cast<long double>(sum) / v.size()) * 1e-6;
  // Edges in whole picoseconds, so a sample on an edge falls in the same bucket everywhere.
  std::vector<uint64_t> edges;
  for (int k = 0; edges.empty() || edges.back() < max; ++k)
    edges.push_back(uint64_t(std::llround(std::pow(10.0, double(k) / kBucketsPerDecade) * 1e6)));
  std::vector<uint64_t> counts(edges.size(), 0);
  for (uint64_t x : v)
    ++counts[std::size_t(std::lower_bound(edges.begin(), edges.end(), x) - edges.begin())];
  for (std::size_t k = 0; k < edges.size(); ++k)
    if (counts[k] != 0) s.histogram.emplace_back(double(edges[k]) / 1e6, counts[k]);
  return s;
}

LatencyStats::Recent LatencyStats::recent(uint64_t from, std::vector<uint64_t>& scratch) const {
  Recent r;
  if (from >= samples_ps_.size()) return r;
  scratch.assign(samples_ps_.begin() + std::ptrdiff_t(from), samples_ps_.end());
  unsigned __int128 sum = 0;
  for (uint64_t x : scratch) sum += x;
  r.mean_us = double(static_cast<long double>(sum) / scratch.size()) * 1e-6;
  const auto k =
      std::max<std::size_t>(std::size_t(std::ceil(0.99 * double(scratch.size()))), 1) - 1;
  std::nth_element(scratch.begin(), scratch.begin() + std::ptrdiff_t(k), scratch.end());
  r.p99_us = double(scratch[k]) * 1e-6;
  return r;
}

}  // namespace ssd::tb
