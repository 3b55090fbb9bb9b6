#pragma once
// A long phase before the measured run (preconditioning, saving or loading an aged drive) on
// the progress line, as the run's own (stderr; each update starts with a carriage return): how
// far it is and the time left at the pace so far, then how long it took.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace ssd::tb {

class PhaseProgress {
 public:
  // `on`: the run shows progress (RunOptions::progress); `what`: the phase, "preconditioning".
  PhaseProgress(bool on, std::string what) : on_(on), what_(std::move(what)) {}

  // `done` of `total` units of work (`unit`: "page writes"); at most twice a second.
  void update(uint64_t done, uint64_t total, const char* unit) {
    if (!on_) return;
    const auto now = std::chrono::steady_clock::now();
    if (shown_ && now - last_ < std::chrono::milliseconds(500)) return;
    shown_ = true;
    last_ = now;
    const double elapsed = seconds(now);
    if (done == 0 || done >= total || elapsed < 1) {
      std::fprintf(stderr, "\r  %s: %llu %s...", what_.c_str(),
                   static_cast<unsigned long long>(total), unit);
      return;
    }
    std::fprintf(stderr, "\r  %s: %.0f %% of %llu %s, about %.0f s left   ", what_.c_str(),
                 100.0 * double(done) / double(total), static_cast<unsigned long long>(total), unit,
                 elapsed * double(total - done) / double(done));
  }
  // The phase has begun (a phase that cannot say how far it is).
  void begin() {
    if (on_) std::fprintf(stderr, "\r  %s...", what_.c_str());
    shown_ = true;
    last_ = std::chrono::steady_clock::now();
  }
  void finish() {
    if (on_)
      std::fprintf(stderr, "\r  %s: done in %.1f s%40s\n", what_.c_str(),
                   seconds(std::chrono::steady_clock::now()), "");
  }

 private:
  double seconds(std::chrono::steady_clock::time_point now) const {
    return std::chrono::duration<double>(now - start_).count();
  }

  bool on_;
  std::string what_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_;
  bool shown_ = false;
};

}  // namespace ssd::tb
