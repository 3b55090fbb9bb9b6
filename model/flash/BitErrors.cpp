#include "model/flash/BitErrors.h"

#include <algorithm>
#include <cmath>

#define XXH_INLINE_ALL  // nothing links xxHash (CMakeLists.txt)
#include <xxhash.h>

namespace ssd::model::flash {
BitErrors::BitErrors(const config::ReliabilityConfig& r, uint32_t page_types, uint32_t unit_bytes)
    : cfg_(r),
      page_types_(page_types),
      codewords_(std::max(1u, (unit_bytes + r.codeword_bytes - 1) / r.codeword_bytes)),
      codeword_bits_(8.0 * r.codeword_bytes),
      acceleration_(config::retention_acceleration(r)) {
  for (uint32_t s = 0; s < r.steps(); ++s) reach_.push_back(r.correctable(s));
  for (uint32_t k = 1; k <= reach_.back() + 1; ++k) log_k_.push_back(std::log(double(k)));
}

double BitErrors::rber_at_reference(uint32_t pe, double reference_days, uint64_t reads,
                                    uint32_t type) const {
  const double rate = config::raw_rate(cfg_, double(pe), reference_days, double(reads));
  return std::min(1.0, rate * config::page_type_factor(cfg_, type, page_types_));
}

uint32_t BitErrors::worst_errors(double rber, double u) const {
  const double mean = rber * codeword_bits_;
  if (mean <= 0) return 0;
  // Poisson terms in logs (exp(-mean) underflows past 745); the CDF of the maximum of the
  // codewords' counts is F(k)^codewords.
  const double log_mean = std::log(mean);
  double log_p = -mean;
  double cdf = std::exp(log_p);
  const auto worst_cdf = [&] { return std::pow(cdf, double(codewords_)); };
  uint32_t k = 0;
  while (worst_cdf() < u && k <= reach_.back()) {
    log_p += log_mean - log_k_[k];  // p(k + 1) = p(k) mean / (k + 1)
    ++k;
    cdf += std::exp(log_p);
  }
  return k;
}

double BitErrors::uniform(uint32_t die, uint32_t block, uint32_t page, uint32_t unit,
                          uint64_t reads) const {
  const uint64_t key[4] = {die, uint64_t(block) << 32 | page, unit, reads};
  const uint64_t h = XXH3_64bits_withSeed(key, sizeof key, cfg_.seed);
  return double(h >> 11) * 0x1.0p-53;
}

uint32_t BitErrors::retries_for(uint32_t errors) const {
  for (uint32_t s = 0; s < reach_.size(); ++s)
    if (errors <= reach_[s]) return s;
  return retries();
}

}  // namespace ssd::model::flash
