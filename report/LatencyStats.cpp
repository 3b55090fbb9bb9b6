#include "report/LatencyStats.h"

#include <algorithm>
#include <cmath>

namespace ssd::report {
namespace {

// The edges up to llround's range, then one for all above, computed once.
std::vector<uint64_t> make_edges() {
  std::vector<uint64_t> e;
  for (int k = 0;; ++k) {
    const double ps = std::pow(10.0, double(k) / LatencyStats::kBucketsPerDecade) * 1e6;
    if (ps >= 9.2e18) break;  // llround's range
    e.push_back(uint64_t(std::llround(ps)));
  }
  e.push_back(~uint64_t{0});
  return e;
}
const std::vector<uint64_t>& edges() {
  static const std::vector<uint64_t> e = make_edges();
  return e;
}

}  // namespace

uint64_t LatencyStats::edge_ps(std::size_t k) { return edges().at(k); }

std::size_t LatencyStats::bucket_near(uint64_t ps, std::size_t near) {
  const std::vector<uint64_t>& e = edges();
  std::size_t k = std::min(near, e.size() - 1);
  while (k > 0 && e[k - 1] >= ps) --k;
  while (e[k] < ps) ++k;  // the last edge is the largest value
  return k;
}

std::size_t LatencyStats::bucket_of(uint64_t ps) {
  const std::vector<uint64_t>& e = edges();
  return std::size_t(std::lower_bound(e.begin(), e.end(), ps) - e.begin());
}

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
    return *nth;
  };
  s.p50_us = double(rank(0.50)) * 1e-6;
  s.p99_ps = rank(0.99);
  s.p99_us = double(s.p99_ps) * 1e-6;
  s.p999_us = double(rank(0.999)) * 1e-6;
  s.p9999_us = double(rank(0.9999)) * 1e-6;
  const uint64_t max = *std::max_element(from, v.end());
  s.max_us = double(max) * 1e-6;
  unsigned __int128 sum = 0;  // exact
  for (uint64_t x : v) sum += x;
  s.mean_us = double(static_cast<long double>(sum) / v.size()) * 1e-6;
  std::vector<uint64_t> counts(bucket_of(max) + 1, 0);
  for (uint64_t x : v) ++counts[bucket_of(x)];
  for (std::size_t k = 0; k < counts.size(); ++k)
    if (counts[k] != 0) s.histogram.emplace_back(double(edge_ps(k)) / 1e6, counts[k]);
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

}  // namespace ssd::report
