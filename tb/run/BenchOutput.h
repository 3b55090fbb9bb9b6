#pragma once
// `ssdtlm --bench`: what a run cost (requests per wall and CPU second, peak memory, the
// kernel's delta cycles), printed on stdout for tools/bench.py.
#include "tb/run/Simulation.h"

namespace ssd::tb {

void print_bench(const RunResult& result);

}  // namespace ssd::tb
