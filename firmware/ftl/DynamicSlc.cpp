#include "firmware/ftl/DynamicSlc.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace ssd::fw {

DynamicSlc::DynamicSlc(std::vector<config::SlcDynamicPoint> curve, uint32_t dies,
                       uint32_t native_blocks_per_die)
    : curve_(std::move(curve)), native_(native_blocks_per_die), held_(dies, 0) {}

uint32_t DynamicSlc::limit(uint32_t free_or_held) const {
  if (curve_.empty() || native_ == 0) return 0;
  const double x = double(free_or_held) / double(native_);
  double share = curve_.back().slc_fraction;
  if (x <= curve_.front().free_fraction) {
    share = curve_.front().slc_fraction;
  } else {
    for (std::size_t i = 1; i < curve_.size(); ++i) {
      const config::SlcDynamicPoint& a = curve_[i - 1];
      const config::SlcDynamicPoint& b = curve_[i];
      if (x > b.free_fraction) continue;
      share = a.slc_fraction + (b.slc_fraction - a.slc_fraction) * (x - a.free_fraction) /
                                   (b.free_fraction - a.free_fraction);
      break;
    }
  }
  // Whole blocks, rounded down; the hair keeps a product that is whole in decimal (0.29 x 100)
  // from falling a block short by binary rounding.
  return uint32_t(std::floor(share * double(native_) + 1e-9));
}

uint32_t DynamicSlc::room(uint32_t die, uint32_t free, uint32_t keep) const {
  if (curve_.empty() || free <= keep) return 0;
  const uint32_t allowed = limit(free + held_[die]);
  if (allowed <= held_[die]) return 0;
  return std::min(allowed - held_[die], free - keep);
}

void DynamicSlc::took(uint32_t die) {
  ++held_[die];
  most_ = std::max(most_, ++total_);
}

void DynamicSlc::gave_back(uint32_t die) {
  if (held_[die] == 0)
    throw std::logic_error("die " + std::to_string(die) + ": no dynamic SLC block to give back");
  --held_[die];
  least_ = std::min(least_, --total_);
}

void DynamicSlc::state(StateArchive& a) {
  a.fixed_indexes(held_, uint64_t(native_) + 1, "dynamic SLC blocks");
  if (!a.loading()) return;
  total_ = 0;
  for (const uint32_t h : held_) total_ += h;
  reset_range();
}

}  // namespace ssd::fw
