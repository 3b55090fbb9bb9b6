#include "tb/run/BenchOutput.h"

#include <sys/resource.h>

#include <cstdio>

#include <systemc>

#include "common/CpuTime.h"

namespace ssd::tb {
namespace {

double peak_rss_mb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

}  // namespace

void print_bench(const RunResult& result) {
  const double count = double(result.report["requests"]["count"].get<uint64_t>());
  const double cpu = cpu_seconds();
  const report::RunPhases& p = result.phases;
  std::printf("bench: %.0f host requests in %.3f wall s: %.0f requests per wall second\n", count,
              p.total_wall_s, count / p.total_wall_s);
  std::printf("bench: %.3f CPU s in the whole process: %.0f requests per CPU second\n", cpu,
              count / cpu);
  std::printf("bench: peak memory (max RSS) %.1f MB\n", peak_rss_mb());
  // The requests alone: the simulated run less starting up, preconditioning and outputs.
  if (const auto& aged = p.precondition ? p.precondition : p.load)
    std::printf("bench: preconditioning %.3f CPU s\n", aged->cpu_s);
  std::printf("bench: the simulated run %.3f CPU s: %.0f requests per CPU second\n", p.run.cpu_s,
              count / p.run.cpu_s);
  // The kernel's rounds of evaluation (one per time step and delta): what the model asks of
  // SystemC per request.
  const double deltas = double(sc_core::sc_delta_count());
  std::printf("bench: %.0f SystemC delta cycles: %.2f per request\n", deltas, deltas / count);
}

}  // namespace ssd::tb
