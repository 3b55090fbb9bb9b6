#include "model/power/PowerAnalyser.h"

#include <algorithm>
#include <cmath>

namespace ssd::model {

WindowedPeaks::WindowedPeaks(const std::vector<uint64_t>& windows_ps) {
  for (uint64_t w : windows_ps) windows_.push_back(Window{w});
}

void WindowedPeaks::analyse() {
  if (size_ == 0 || analysed_ == size_) return;
  for (Window& w : windows_) analyse(w);
  analysed_ = size_;
}

namespace {

// The largest d <= cap with range x d <= gap (both positive): a double's quotient, corrected to
// be exact (a 128-bit division is a library call).
uint64_t stays_below(EnergyNwPs gap, EnergyNwPs range, uint64_t cap) {
  if (range * EnergyNwPs(cap) <= gap) return cap;
  auto d = uint64_t(double(gap) / double(range));  // < cap, give or take one
  while (d > 0 && range * EnergyNwPs(d) > gap) --d;
  while (range * EnergyNwPs(d + 1) <= gap) ++d;
  return d;
}

}  // namespace

// The candidates in time order of their windows' ends: a window starting at point i ends at
// t[i] + W, one ending at point j at t[j], so one merge of the two sequences visits both
// kinds, and where it stands tells the segment that holds a candidate's other edge: a window
// from point i ends in (t[j - 1], t[j]], one to point j starts in [t[i - 1], t[i]).
//
// Only a window that earlier windows do not beat can be the earliest at the peak: moving its
// start a little earlier must lose energy, so the power where it starts must be below the
// power where it ends, just before (a start at the first point has no earlier). Where that
// cannot hold the candidate is skipped; what the corners ahead of it need is not known, so
// those conditions are left to the comparison.
void WindowedPeaks::analyse(Window& w) const {
  const uint64_t* const t = time_.data();
  const EnergyNwPs* const e = energy_.data();
  const int64_t* const p = power_.data();
  const uint64_t span = w.window_ps;
  const uint64_t last = size_ - 1 - base_;
  EnergyNwPs best = w.best;
  uint64_t best_start = w.best_start_ps;
  // A segment of at most this power gives no window the best's energy (-1: none while there
  // is no best).
  const auto low_for = [span](EnergyNwPs b) {
    const EnergyNwPs low = b > 0 ? (b - 1) / EnergyNwPs(span) : -1;
    return low > INT64_MAX ? INT64_MAX : int64_t(low);
  };
  int64_t low_nw = low_for(best);
  const auto consider = [&](EnergyNwPs energy, uint64_t start) {
    if (energy > best || (energy == best && start < best_start)) {
      if (energy > best) low_nw = low_for(energy);
      best = energy;
      best_start = start;
    }
  };
  uint64_t i = w.next_start - base_;  // the next start to try
  uint64_t j = w.next_end - base_;    // the next end to try
  uint64_t high = std::max(w.next_high, base_) - base_;
  const EnergyNwPs range = EnergyNwPs(max_power_nw_) - EnergyNwPs(min_power_nw_);
  const uint64_t t_last = t[last];
  // Skips every window that starts at or before `limit`.
  const auto skip_through = [&](uint64_t limit) {
    while (t[i] <= limit) ++i;
    while (j <= last && t[j] <= limit + span) ++j;
  };
  unsigned steps = 0;
  for (; j <= last;) {
    const uint64_t ti = t[i], tj = t[j];
    // The window where the merge stands: the one from point i, or the one to point j; it
    // starts at s, in segment `first`. Before the first point there is none.
    const bool at_start = ti + span <= tj;
    const uint64_t s = at_start ? ti : tj - span;
    const bool exists = i + base_ != 0 || at_start;
    const uint64_t first = at_start ? i : i - 1;
    // The windows that lie inside a stretch of low segments, from `first` on, are below the
    // best: skipped. Short windows, whose energy follows the power closely, skip most of their
    // candidates this way. While `first` is before `high`, a high one, and `high` is still
    // high, no window can be skipped this way: not looked at again.
    if (exists && (first > high || p[high] <= low_nw)) {
      high = std::max(high, first);
      while (high < last && p[high] <= low_nw) ++high;
      if (s + span <= t[high]) {
        skip_through(t[high] - span);
        continue;
      }
    }
    if ((++steps & 15) == 0 && best >= 0 && range > 0 && t_last >= span && exists) {
      // How far on every window stays below the best: sliding a window by d adds at most
      // range x d to its energy. Only windows whose end is already known are skipped.
      const EnergyNwPs energy =
          at_start ? e[j - 1] + EnergyNwPs(p[j - 1]) * EnergyNwPs(ti + span - t[j - 1]) - e[i]
                   : e[j] - e[i - 1] - EnergyNwPs(p[i - 1]) * EnergyNwPs(s - t[i - 1]);
      const uint64_t room = t_last - span > s ? t_last - span - s : 0;
      if (energy < best && room > 0) {
        const uint64_t from = i + j;
        skip_through(s + stays_below(best - energy - 1, range, room));
        if (i + j >= from + 8) steps = 15;  // a long stretch: look again where it lands
        continue;
      }
    }
    if (at_start) {
      const uint64_t end = ti + span;
      const int64_t p_end = p[j - 1];
      const bool inside = end < tj;  // there, moving later gains
      if ((i + base_ == 0 || p[i - 1] < p_end) && !(inside && p_end > p[i]))
        consider(e[j - 1] + EnergyNwPs(p_end) * EnergyNwPs(end - t[j - 1]) - e[i], ti);
      ++i;
    } else {
      if (exists) {
        const int64_t p_start = p[i - 1];
        if (s == t[i - 1] || p_start < p[j - 1])
          consider(e[j] - e[i - 1] - EnergyNwPs(p_start) * EnergyNwPs(s - t[i - 1]), s);
      }
      ++j;
    }
  }
  w.next_start = i + base_;
  w.next_end = j + base_;
  w.next_high = high + base_;
  w.best = best;
  w.best_start_ps = best_start;
}

// The buffer is full: drop the points every window is done with (keeping the one before the
// next start: its power) when that frees three quarters of it, or else double it: the points
// kept are copied, at most one for every three added.
void WindowedPeaks::make_room() {
  analyse();
  uint64_t keep = size_;
  for (const Window& w : windows_) keep = std::min(keep, w.next_start == 0 ? 0 : w.next_start - 1);
  const std::size_t drop = keep - base_;
  if (4 * drop >= 3 * capacity() && drop > 0) {
    const std::size_t kept = size_ - keep;
    std::copy(time_.begin() + std::ptrdiff_t(drop), time_.begin() + std::ptrdiff_t(drop + kept),
              time_.begin());
    std::copy(energy_.begin() + std::ptrdiff_t(drop), energy_.begin() + std::ptrdiff_t(drop + kept),
              energy_.begin());
    std::copy(power_.begin() + std::ptrdiff_t(drop), power_.begin() + std::ptrdiff_t(drop + kept),
              power_.begin());
    base_ = keep;
    return;
  }
  const std::size_t grown = std::max<std::size_t>(1024, 2 * capacity());
  time_.resize(grown);
  energy_.resize(grown);
  power_.resize(grown);
}

double WindowedPeaks::peak_w(std::size_t i) const {
  const Window& w = windows_[i];
  if (w.best >= 0) return double(w.best) / double(w.window_ps) * 1e-9;
  if (size_ == 0) return 0.0;
  const std::size_t last = size_ - 1 - base_;
  return time_[last] > 0 ? double(energy_[last]) / double(time_[last]) * 1e-9 : 0.0;
}

double WindowedPeaks::start_s(std::size_t i) const {
  return windows_[i].best >= 0 ? double(windows_[i].best_start_ps) / 1e12 : 0.0;
}

PowerHistogram::PowerHistogram(const std::vector<double>& levels_nw)
    : band_ps_(levels_nw.size() + 1, 0) {
  for (double level : levels_nw)
    thresholds_nw_.push_back(level >= 0x1p63 ? INT64_MAX : int64_t(std::ceil(level)));
}

}  // namespace ssd::model
