#pragma once
// How long the requests of one kind waited for something (garbage collection): how many
// waited at all, the total, the longest, and a histogram of the waits with LatencyStats'
// buckets. Kept as counts, not samples, so it costs no memory per request.
#include <cstdint>
#include <utility>
#include <vector>
#include <systemc>

namespace ssd::report {

class WaitStats {
 public:
  // One request's wait (zero for one that did not wait).
  void add(const sc_core::sc_time& wait);

  struct Summary {
    uint64_t requests = 0, waited = 0;
    double total_s = 0;
    double mean_us = 0;         // over all requests
    double mean_waited_us = 0;  // over those that waited
    double max_us = 0;
    // The non-empty buckets of the waits above zero, ascending: (upper edge in us, requests).
    std::vector<std::pair<double, uint64_t>> histogram;
  };
  Summary summarize() const;
  uint64_t waited() const { return waited_; }

 private:
  uint64_t requests_ = 0, waited_ = 0;
  unsigned __int128 total_ps_ = 0;  // exact
  uint64_t max_ps_ = 0;
  std::vector<uint64_t> buckets_;  // by LatencyStats' edges
};

}  // namespace ssd::report
