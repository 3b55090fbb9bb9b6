#include "model/PowerAnalyser.h"

#include <algorithm>

namespace ssd::model {

WindowedPeaks::WindowedPeaks(const std::vector<uint64_t>& windows_ps) {
  for (uint64_t w : windows_ps) windows_.push_back(Window{w});
}

void WindowedPeaks::add(uint64_t t0, uint64_t t1, int64_t power_nw) {
  if (windows_.empty()) return;
  if (points_.empty()) points_.push_back(Point{t0, 0, 0});
  points_.back().power_after_nw = power_nw;
  const std::size_t seg = points_.size() - 1;
  const EnergyNwPs e1 = energy_at(seg, t1);
  points_.push_back(Point{t1, e1, 0});
  end_ps_ = t1;
  end_energy_ = e1;
  std::size_t done = points_.size();
  // Only a window that earlier windows do not beat can be the earliest at the peak: moving
  // its start a little earlier must lose energy, so the power where it starts must be below
  // the power where it ends, just before (a start at 0 has no earlier). Where that cannot
  // hold the candidate is skipped; what the corners ahead of it need is not yet known, so
  // those conditions are left to the comparison.
  for (Window& w : windows_) {
    // Windows starting at a point and ending inside this segment.
    while (points_[w.next_start].t_ps + w.window_ps <= t1) {
      const Point& p = points_[w.next_start];
      const bool first_point = w.next_start == 0 && !dropped_;
      const bool inside = p.t_ps + w.window_ps < t1;
      if ((first_point || points_[w.next_start - 1].power_after_nw < power_nw) &&
          !(inside && power_nw > p.power_after_nw))  // there, moving later gains
        w.consider(energy_at(seg, p.t_ps + w.window_ps) - p.energy, p.t_ps);
      ++w.next_start;
    }
    // The window ending at t1.
    if (t1 >= w.window_ps) {
      const uint64_t s = t1 - w.window_ps;
      while (points_[w.first + 1].t_ps <= s) ++w.first;
      if (s == points_[w.first].t_ps || points_[w.first].power_after_nw < power_nw)
        w.consider(e1 - energy_at(w.first, s), s);
    }
    done = std::min({done, w.first, w.next_start});
  }
  // Drop the points every window is done with, now and then, keeping the last of them: the
  // power before the next start.
  if (done >= 64 && 2 * done >= points_.size()) {
    --done;
    points_.erase(points_.begin(), points_.begin() + std::ptrdiff_t(done));
    dropped_ = true;
    for (Window& w : windows_) {
      w.first -= done;
      w.next_start -= done;
    }
  }
}

double WindowedPeaks::peak_w(std::size_t i) const {
  const Window& w = windows_[i];
  if (w.best >= 0) return double(w.best) / double(w.window_ps) * 1e-9;
  return end_ps_ > 0 ? double(end_energy_) / double(end_ps_) * 1e-9 : 0.0;
}

double WindowedPeaks::start_s(std::size_t i) const {
  return windows_[i].best >= 0 ? double(windows_[i].best_start_ps) / 1e12 : 0.0;
}

PowerHistogram::PowerHistogram(std::vector<double> levels_nw)
    : levels_nw_(std::move(levels_nw)), band_ps_(levels_nw_.size() + 1, 0) {}

void PowerHistogram::add(uint64_t t0, uint64_t t1, int64_t power_nw) {
  if (power_nw != last_power_nw_) {
    last_power_nw_ = power_nw;
    last_band_ =
        std::size_t(std::upper_bound(levels_nw_.begin(), levels_nw_.end(), double(power_nw)) -
                    levels_nw_.begin());
  }
  band_ps_[last_band_] += t1 - t0;
}

}  // namespace ssd::model
