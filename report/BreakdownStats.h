#pragma once
// Where the time of one kind of request went (model/LatencyBreakdown.h): each stage summed over
// the requests of each latency bucket (LatencyStats' buckets), so the slowest can be told
// apart; all requests' sums are the buckets'. Sums, not samples: no memory per request.
#include <array>
#include <cstdint>
#include <vector>

#include <systemc>

#include "model/LatencyBreakdown.h"

namespace ssd::report {

class BreakdownStats {
 public:
  void add(const sc_core::sc_time& latency, const model::LatencyBreakdown& b);

  struct Part {
    uint64_t count = 0;
    double from_us = 0;                                // slowest: their bucket's lower edge
    std::array<double, model::kStageCount> mean_us{};  // per stage, over `count` requests
  };
  struct Summary {
    Part all;
    // The requests of the buckets from the one holding `p99_ps` on: at least the slowest 1 %,
    // and those within the bucket's 26 % below p99.
    Part slowest;
  };
  Summary summarize(uint64_t p99_ps) const;

 private:
  struct Sums {
    uint64_t count = 0;
    std::array<unsigned __int128, model::kStageCount> ps{};  // exact
    void add(const model::LatencyBreakdown& b);
    void add(const Sums& o);
  };
  static void mean(const Sums& s, Part& out);
  std::vector<Sums> buckets_;
  std::size_t last_bucket_ = 0;  // where the next request's bucket is looked for first
};

}  // namespace ssd::report
