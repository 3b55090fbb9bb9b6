#pragma once
// What a power analyser on the supply shows, computed exactly from the drive's piecewise-
// constant power: the highest average power over a window of given length (a real analyser
// averages over its sample period, so a 60 ns spike does not show as the drive's peak), and
// the time the drive current spends in each band between given levels.
//
// Both are fed the drive's power one constant segment at a time, in time order. Memory is
// bounded by the segments inside the longest window, not by simulated time.
#include <cstdint>
#include <vector>

namespace ssd::model {

// Power x time in nanowatt-picoseconds (1e-21 J): a 5 W drive over a day is 4e26, beyond 64 bits.
__extension__ typedef __int128 EnergyNwPs;

// Highest average power over any window [s, s + W) inside [0, end], for several W. The
// average is piecewise linear in s, with corners where s or s + W meets a change of power, so
// the maximum is at one of those: each change of power is tried as a window end when it
// arrives, and as a window start once W has passed it. The changes are kept once for all
// windows, and only while a window still needs them; the work per change is constant per
// window.
class WindowedPeaks {
 public:
  explicit WindowedPeaks(const std::vector<uint64_t>& windows_ps = {});
  // [t0, t1) at `power_nw`; t0 is where the previous segment ended (0 for the first).
  void add(uint64_t t0, uint64_t t1, int64_t power_nw);
  std::size_t size() const { return windows_.size(); }
  uint64_t window_ps(std::size_t i) const { return windows_[i].window_ps; }
  // After the last segment. A span shorter than the window has one window: the whole span.
  double peak_w(std::size_t i) const;
  double start_s(std::size_t i) const;  // start of the earliest window at the peak

 private:
  // A point where a segment starts: the energy from 0 to it, and the power after it.
  // Packed to 32 bytes (from 48: the 128-bit energy's alignment padded it): the windows walk
  // these at their trailing edges, so the size is memory traffic.
  struct __attribute__((packed)) Point {
    uint64_t t_ps;
    EnergyNwPs energy;
    int64_t power_after_nw;
  };
  struct Window {
    uint64_t window_ps;
    std::size_t first = 0;       // the segment holding the latest window-end's start
    std::size_t next_start = 0;  // the next point to try as a window start
    EnergyNwPs best = -1;
    uint64_t best_start_ps = 0;
    void consider(EnergyNwPs energy, uint64_t start_ps) {
      if (energy > best || (energy == best && start_ps < best_start_ps)) {
        best = energy;
        best_start_ps = start_ps;
      }
    }
  };
  // Energy from 0 to t, for t inside the segment that starts at points_[i].
  EnergyNwPs energy_at(std::size_t i, uint64_t t) const {
    return points_[i].energy + EnergyNwPs(points_[i].power_after_nw) * (t - points_[i].t_ps);
  }

  std::vector<Window> windows_;
  std::vector<Point> points_;  // points every window is done with are dropped
  bool dropped_ = false;       // points_ no longer starts at time 0
  uint64_t end_ps_ = 0;
  EnergyNwPs end_energy_ = 0;
};

// Time the drive spends in each band of power: below the first level, between consecutive
// levels, at or above the last.
class PowerHistogram {
 public:
  explicit PowerHistogram(std::vector<double> levels_nw = {});
  void add(uint64_t t0, uint64_t t1, int64_t power_nw);
  const std::vector<uint64_t>& band_ps() const { return band_ps_; }  // levels + 1 bands

 private:
  std::vector<double> levels_nw_;
  std::vector<uint64_t> band_ps_;
  int64_t last_power_nw_ = -1;  // the band of the last power level, looked up once per level
  std::size_t last_band_ = 0;
};

}  // namespace ssd::model
