#include "tb/RequestSourceFactory.h"

#include "common/Errors.h"
#include "tb/CsvTraceReader.h"
#include "tb/SpcReader.h"
#include "tb/WorkloadGenerator.h"

namespace ssd::tb {

std::unique_ptr<RequestSource> open_trace(const std::string& path, const std::string& format) {
  if (format == "spc") return std::make_unique<SpcReader>(path);
  if (format == "csv") return std::make_unique<CsvTraceReader>(path);
  throw InputError("--format: unknown format '" + format + "' (spc, csv)");
}

std::unique_ptr<RequestSource> make_workload(const std::string& spec, uint64_t capacity_bytes) {
  return std::make_unique<WorkloadGenerator>(spec, capacity_bytes);
}

}  // namespace ssd::tb
