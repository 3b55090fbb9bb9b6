#pragma once
// What a power analyser on the supply shows, computed exactly from the drive's piecewise-
// constant power: the highest average power over a window of given length (a real analyser
// averages over its sample period, so a 60 ns spike does not show as the drive's peak), and
// the time the drive current spends in each band between given levels.
//
// Both are fed the drive's power one constant segment at a time, in time order. Memory is
// bounded by the segments inside the longest window, not by simulated time.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/power/PowerState.h"

namespace ssd::model {

// Highest average power over any window [s, s + W) inside [0, end], for several W. The
// average is piecewise linear in s, with corners where s or s + W meets a change of power, so
// the maximum is at one of those: each change of power is tried as a window start and as a
// window end. The changes are kept once for all windows, only while a window still needs
// them, and analysed in batches: each window walks its candidates in one merge whose two
// cursors only move forward, so the work per change is constant per window. A window far below
// the best so far is followed by a stretch of windows that cannot reach it (the energy changes
// by at most the power's range per picosecond of sliding), which is skipped: long windows,
// whose energy barely moves from one change to the next, try few candidates. So are the
// windows inside a stretch of segments each below the best's average power: short windows,
// which mostly lie where the drive draws less than at its busiest, try few too.
class WindowedPeaks {
 public:
  explicit WindowedPeaks(const std::vector<uint64_t>& windows_ps = {});
  // [t0, t1) at `power_nw`; t0 is where the previous segment ended (0 for the first).
  void add(uint64_t t0, uint64_t t1, int64_t power_nw) {
    if (windows_.empty()) return;
    if (size_ == 0) push(t0, 0);
    const std::size_t last = size_ - 1 - base_;
    power_[last] = power_nw;
    max_power_nw_ = std::max(max_power_nw_, power_nw);
    min_power_nw_ = std::min(min_power_nw_, power_nw);
    push(t1, energy_[last] + EnergyNwPs(power_nw) * EnergyNwPs(t1 - time_[last]));
  }
  // After the last segment: the figures below are final.
  void finish() { analyse(); }
  std::size_t size() const { return windows_.size(); }
  uint64_t window_ps(std::size_t i) const { return windows_[i].window_ps; }
  // A span shorter than the window has one window: the whole span.
  double peak_w(std::size_t i) const;
  double start_s(std::size_t i) const;  // start of the earliest window at the peak

 private:
  struct Window {
    uint64_t window_ps;
    uint64_t next_start = 0;  // the next point to try as a window start
    uint64_t next_end = 1;    // the next point to try as a window end
    // The first segment, from where the merge stands, whose power might reach the best: the
    // segments before it are all below (the best only grows, so they stay below).
    uint64_t next_high = 0;
    EnergyNwPs best = -1;
    uint64_t best_start_ps = 0;
  };
  static constexpr uint64_t kBatch = 256;  // points added between analyses

  // Appends the point (t, energy from 0 to t); its power is set by the next add.
  void push(uint64_t t, EnergyNwPs energy) {
    if (size_ - base_ == capacity()) make_room();
    const std::size_t i = size_ - base_;
    time_[i] = t;
    energy_[i] = energy;
    power_[i] = 0;
    ++size_;
    if (size_ - analysed_ >= kBatch) analyse();
  }
  // Tries every candidate the points added since the last analysis allow.
  void analyse();
  void analyse(Window& w) const;
  void make_room();
  std::size_t capacity() const { return time_.size(); }

  std::vector<Window> windows_;
  // The points kept (where a segment starts: its time, the energy from 0 to it, its power):
  // point n, counted from the first ever, is at n - base_.
  std::vector<uint64_t> time_;
  std::vector<EnergyNwPs> energy_;
  std::vector<int64_t> power_;
  uint64_t base_ = 0;
  uint64_t size_ = 0;      // points ever added
  uint64_t analysed_ = 0;  // points analysed
  // The range of the segments' power: how fast a window's energy can change as it slides.
  int64_t max_power_nw_ = INT64_MIN;
  int64_t min_power_nw_ = INT64_MAX;
};

// Time the drive spends in each band of power: below the first level, between consecutive
// levels, at or above the last.
class PowerHistogram {
 public:
  explicit PowerHistogram(const std::vector<double>& levels_nw = {});
  void add(uint64_t t0, uint64_t t1, int64_t power_nw) {
    std::size_t band = 0;  // the levels are ascending: those the power reaches count
    for (const int64_t level : thresholds_nw_) band += power_nw >= level;
    band_ps_[band] += t1 - t0;
  }
  const std::vector<uint64_t>& band_ps() const { return band_ps_; }  // levels + 1 bands

 private:
  // The least whole power at or above each level: a power is in the band of the levels it
  // reaches.
  std::vector<int64_t> thresholds_nw_;
  std::vector<uint64_t> band_ps_;
};

}  // namespace ssd::model
