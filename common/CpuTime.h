#pragma once
// CPU time of this process, for the figures --bench prints (steadier than wall time on a
// shared machine).
#include <sys/resource.h>

namespace ssd {

// User + system CPU seconds of the whole process so far.
inline double cpu_seconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  const auto s = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
  return s(ru.ru_utime) + s(ru.ru_stime);
}

}  // namespace ssd
