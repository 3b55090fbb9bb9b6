#include "model/flash/BackgroundTime.h"

#include <algorithm>

namespace ssd::model::flash {

void BackgroundTime::add(const sc_core::sc_time& start, const sc_core::sc_time& end) {
  if (end <= start) return;
  const sc_core::sc_time before =
      spans_.size() == first_ ? sc_core::SC_ZERO_TIME
                              : spans_.back().before + (spans_.back().end - spans_.back().start);
  spans_.push_back(Span{start, end, before});
}

sc_core::sc_time BackgroundTime::upto(const sc_core::sc_time& t) const {
  // The last span starting before t.
  const auto it =
      std::upper_bound(spans_.begin() + std::ptrdiff_t(first_), spans_.end(), t,
                       [](const sc_core::sc_time& v, const Span& s) { return v <= s.start; });
  if (it == spans_.begin() + std::ptrdiff_t(first_)) return spans_[first_].before;
  const Span& s = *(it - 1);
  return s.before + (std::min(t, s.end) - s.start);
}

void BackgroundTime::forget_before(const sc_core::sc_time& t) {
  while (first_ < spans_.size() && spans_[first_].end <= t) ++first_;
  // Compact once the dropped spans outnumber the kept ones (amortised O(1) a span).
  if (first_ * 2 > spans_.size()) {
    spans_.erase(spans_.begin(), spans_.begin() + std::ptrdiff_t(first_));
    first_ = 0;
  }
  crowded_at_ = std::max<std::size_t>(512, 2 * (spans_.size() - first_));
}

}  // namespace ssd::model::flash
