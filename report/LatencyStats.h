#pragma once
// Latency samples of one kind of request, kept whole so percentiles are exact (nearest rank:
// the p-th percentile is the smallest sample with at least p of all samples at or below it).
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <systemc>

namespace ssd::report {

class LatencyStats {
 public:
  void add(const sc_core::sc_time& latency) { samples_ps_.push_back(latency.value()); }
  uint64_t count() const { return samples_ps_.size(); }

  // Histogram buckets per decade of latency: bucket k holds the samples in
  // (10^((k-1)/10), 10^(k/10)] us, bucket 0 everything up to 1 us. Fine enough to draw a
  // CDF (26 % steps), coarse enough for report.json.
  static constexpr int kBucketsPerDecade = 10;
  // Bucket k's upper edge in whole picoseconds (so a sample on an edge falls in the same bucket
  // everywhere), and the bucket of a latency: the first edge at or above it.
  static uint64_t edge_ps(std::size_t k);
  static std::size_t bucket_of(uint64_t ps);
  // The same, searched from bucket `near` (a neighbour's: latencies cluster, so a few steps).
  static std::size_t bucket_near(uint64_t ps, std::size_t near);

  struct Summary {
    double mean_us = 0, p50_us = 0, p99_us = 0, p999_us = 0, p9999_us = 0, max_us = 0;
    uint64_t p99_ps = 0;  // exact
    // The non-empty buckets in ascending order: (upper edge in us, samples).
    std::vector<std::pair<double, uint64_t>> histogram;
  };
  Summary summarize() const;
  // The mean and p99 of the samples from number `from` (in the order they were added) on, for
  // timeline.csv; `scratch` is reused between calls. Zero when there are none.
  struct Recent {
    double mean_us = 0, p99_us = 0;
  };
  Recent recent(uint64_t from, std::vector<uint64_t>& scratch) const;

 private:
  // Reordered in place by summarize (a copy would double the memory at the end of a long run).
  mutable std::vector<uint64_t> samples_ps_;
};

}  // namespace ssd::report
