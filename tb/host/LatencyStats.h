#pragma once
// Latency samples of one kind of request, kept whole so percentiles are exact (nearest rank:
// the p-th percentile is the smallest sample with at least p of all samples at or below it).
#include <cstdint>
#include <vector>

#include <systemc>

namespace ssd::tb {

class LatencyStats {
 public:
  void add(const sc_core::sc_time& latency) { samples_ps_.push_back(latency.value()); }
  uint64_t count() const { return samples_ps_.size(); }

  struct Summary {
    double mean_us = 0, p50_us = 0, p99_us = 0, p999_us = 0, max_us = 0;
  };
  Summary summarize() const;

 private:
  // Sorted in place by summarize (a copy would double the memory at the end of a long run).
  mutable std::vector<uint64_t> samples_ps_;
};

}  // namespace ssd::tb
