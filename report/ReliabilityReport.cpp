#include "report/ReliabilityReport.h"

#include <algorithm>

namespace ssd::report {

nlohmann::ordered_json reliability_json(const ReportInputs& in) {
  using nlohmann::ordered_json;
  std::vector<uint64_t> by_retries;
  uint64_t uncorrectable = 0, retry_reads = 0;
  for (uint32_t ch = 0; ch < in.ssd.channels(); ++ch) {
    const model::FlashChannel::Usage& u = in.ssd.channel(ch).usage();
    by_retries.resize(std::max(by_retries.size(), u.reads_by_retries.size()));
    for (std::size_t s = 0; s < u.reads_by_retries.size(); ++s)
      by_retries[s] += u.reads_by_retries[s];
    uncorrectable += u.uncorrectable_reads;
    retry_reads += u.retry_reads;
  }
  uint64_t decodes = 0, engines = 0;
  double busy_s = 0, queued_s = 0, busiest = 0;
  const double span_s = in.energy.duration_s();
  for (const model::flash::EccPool* pool : in.ssd.ecc_pools()) {
    decodes += pool->decodes();
    queued_s += pool->queued().to_seconds();
    for (const model::flash::EccEngine& e : pool->engines()) {
      ++engines;
      busy_s += e.busy().to_seconds();
      if (span_s > 0) busiest = std::max(busiest, e.busy().to_seconds() / span_s);
    }
  }
  uint64_t reads = 0, steps = 0;
  for (std::size_t s = 0; s < by_retries.size(); ++s) {
    reads += by_retries[s];
    steps += s * by_retries[s];
  }
  return ordered_json{
      {"reads_by_retry_steps", by_retries},
      {"retry_steps_mean", reads ? double(steps) / double(reads) : 0.0},
      {"retry_reads", retry_reads},
      {"uncorrectable_reads", uncorrectable},
      {"ecc",
       {{"engines", engines},
        {"decodes", decodes},
        {"busy_mean", engines && span_s > 0 ? busy_s / double(engines) / span_s : 0.0},
        {"busy_max", busiest},
        {"queue_us_mean", decodes ? queued_s * 1e6 / double(decodes) : 0.0}}}};
}

}  // namespace ssd::report
