#include "tb/host/RequestLog.h"

#include <cinttypes>
#include <cstdio>

#include <boost/iostreams/filter/gzip.hpp>

namespace ssd::tb {
namespace {

// Picoseconds as microseconds with six decimals: exact, no floating-point rounding.
void put_us(char*& p, const char* end, uint64_t ps) {
  p += std::snprintf(p, std::size_t(end - p), "%" PRIu64 ".%06" PRIu64, ps / 1000000, ps % 1000000);
}

}  // namespace

RequestLog::RequestLog(const std::string& path, model::StagesShown stages)
    : stages_(stages), file_(path) {
  if (path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0)
    out_.push(boost::iostreams::gzip_compressor());
  out_.push(file_);
  out_ << "arrival_us,start_us,completion_us,op,offset,size,latency_us,flow,status";
  for (std::size_t k = 0; k < model::kStageCount; ++k)
    if (shown(model::Stage(k), stages_)) out_ << ',' << to_string(model::Stage(k)) << "_us";
  out_ << '\n';
}

RequestLog::~RequestLog() = default;

void RequestLog::add(const sc_core::sc_time& arrival, const sc_core::sc_time& start,
                     const sc_core::sc_time& completion, IoOp op, uint64_t offset, uint64_t length,
                     const std::string& flow, bool ok, bool lost, uint16_t status,
                     const model::LatencyBreakdown& breakdown) {
  char line[192 + 24 * model::kStageCount];
  char* p = line;
  const char* end = line + sizeof line;
  put_us(p, end, arrival.value());
  *p++ = ',';
  put_us(p, end, start.value());
  *p++ = ',';
  put_us(p, end, completion.value());
  p += std::snprintf(p, std::size_t(end - p), ",%s,%" PRIu64 ",%" PRIu64 ",", to_string(op), offset,
                     length);
  put_us(p, end, (completion - arrival).value());
  *p++ = ',';
  out_.write(line, p - line);
  out_ << flow;
  if (status != 0) {
    char refused[24];
    std::snprintf(refused, sizeof refused, ",status_0x%04x", unsigned(status));
    out_ << refused;
  } else {
    out_ << (ok ? ",ok" : op != IoOp::Read ? ",read_only" : lost ? ",lost" : ",uncorrectable");
  }
  p = line;
  for (std::size_t k = 0; k < model::kStageCount; ++k) {
    if (!shown(model::Stage(k), stages_)) continue;
    *p++ = ',';
    put_us(p, end, breakdown.stage[k].value());
  }
  *p++ = '\n';
  out_.write(line, p - line);
}

void RequestLog::close() { file_.finish(out_); }

}  // namespace ssd::tb
