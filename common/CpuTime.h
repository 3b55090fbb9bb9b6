#pragma once
// CPU time of this process, for the figures --bench prints (steadier than wall time on a
// shared machine), and the wall-clock and CPU time of a phase of a run (report.json's
// `phases`).
#include <sys/resource.h>

#include <chrono>

namespace ssd {

// User + system CPU seconds of the whole process so far.
inline double cpu_seconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  const auto s = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
  return s(ru.ru_utime) + s(ru.ru_stime);
}

// What a phase took: wall-clock seconds, and CPU seconds of the whole process meanwhile.
struct PhaseTime {
  double wall_s = 0;
  double cpu_s = 0;
};

// Started when built; elapsed() is the time since.
class Stopwatch {
 public:
  Stopwatch() : wall_(std::chrono::steady_clock::now()), cpu_(cpu_seconds()) {}
  PhaseTime elapsed() const {
    return {std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_).count(),
            cpu_seconds() - cpu_};
  }

 private:
  std::chrono::steady_clock::time_point wall_;
  double cpu_;
};

}  // namespace ssd
