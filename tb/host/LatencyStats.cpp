#include "tb/host/LatencyStats.h"

#include <algorithm>
#include <cmath>

namespace ssd::tb {

LatencyStats::Summary LatencyStats::summarize() const {
  Summary s;
  if (samples_ps_.empty()) return s;
  std::vector<uint64_t>& v = samples_ps_;
  std::sort(v.begin(), v.end());
  const auto rank = [&](double p) {
    const auto k = static_cast<std::size_t>(std::ceil(p * double(v.size())));
    return double(v[std::max<std::size_t>(k, 1) - 1]) * 1e-6;
  };
  long double sum = 0;
  for (uint64_t x : v) sum += x;
  s.mean_us = double(sum / v.size()) * 1e-6;
  s.p50_us = rank(0.50);
  s.p99_us = rank(0.99);
  s.p999_us = rank(0.999);
  s.max_us = double(v.back()) * 1e-6;
  // Edges in whole picoseconds, so a sample on an edge falls in the same bucket everywhere.
  const auto edge_ps = [](int k) {
    return uint64_t(std::llround(std::pow(10.0, double(k) / kBucketsPerDecade) * 1e6));
  };
  int k = 0;
  uint64_t edge = edge_ps(0);
  for (uint64_t x : v) {
    while (x > edge) edge = edge_ps(++k);
    if (s.histogram.empty() || s.histogram.back().first != double(edge) / 1e6)
      s.histogram.emplace_back(double(edge) / 1e6, 0);
    ++s.histogram.back().second;
  }
  return s;
}

}  // namespace ssd::tb
