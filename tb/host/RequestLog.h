#pragma once
// The per-request log (--request-log, docs/report.md#per-request-log): one CSV line per
// completed host request with its latency breakdown (a column per stage), optionally
// gzip-compressed, written into the run's staging directory so it joins the output set whole or not
// at all.
#include <cstdint>
#include <string>

#include <boost/iostreams/filtering_stream.hpp>
#include <systemc>

#include "model/LatencyBreakdown.h"
#include "tb/host/CheckedSink.h"
#include "tb/host/HostRequest.h"

namespace ssd::tb {

class RequestLog {
 public:
  // `path` ending in ".gz" is gzip-compressed; `stages`: the stages the drive has (those it
  // lacks are not logged). Throws ssd::InputError when it cannot open.
  RequestLog(const std::string& path, model::StagesShown stages);
  ~RequestLog();
  RequestLog(const RequestLog&) = delete;
  RequestLog& operator=(const RequestLog&) = delete;

  // arrival: the trace time (open loop) or the issue time (closed loop); start: when the
  // host sent it to the drive; completion: when the response reached the host; flow: the
  // flow that sent it (a workload file's job name); `ok`: the drive served it (else it failed
  // with an error status: an uncorrectable read, `lost` a read of data lost with a die that
  // stopped answering, or a write or trim a read-only drive refused); `status`: the NVMe status a
  // zoned namespace refused it with (0: none); where its time went, stage by stage.
  void add(const sc_core::sc_time& arrival, const sc_core::sc_time& start,
           const sc_core::sc_time& completion, IoOp op, uint64_t offset, uint64_t length,
           const std::string& flow, bool ok, bool lost, uint16_t status,
           const model::LatencyBreakdown& breakdown);
  // Flushes (and ends the gzip stream); throws std::runtime_error naming the file when it is
  // incomplete (a full disk). A failed write during the run waits for this to be reported.
  void close();

 private:
  model::StagesShown stages_;
  CheckedSink file_;
  boost::iostreams::filtering_ostream out_;
};

}  // namespace ssd::tb
