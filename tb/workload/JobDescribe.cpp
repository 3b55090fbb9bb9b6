// The job text written back (describe_job: every setting, defaults resolved) and the help texts
// listing its keys (tb/workload/WorkloadJob.h); JobParse.cpp reads it.
#include <cstdio>

#include "tb/workload/WorkloadJob.h"

namespace ssd::tb {
namespace {

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

std::string describe_job(const JobSpec& s) {
  std::string d = "rw=" + s.rw;
  if (s.mixed) d += ",mix=" + number_text(s.mix);
  d += ",bs=";
  if (!s.bs_split.empty()) {
    for (size_t i = 0; i < s.bs_split.size(); ++i) {
      d += (i ? ":" : "") + std::to_string(s.bs_split[i].first) + "/" +
           std::to_string(s.bs_split[i].second);
    }
  } else {
    d += std::to_string(s.bs_min);
    if (s.bs_max != s.bs_min) d += "-" + std::to_string(s.bs_max);
  }
  d += ",qd=" + std::to_string(s.qd);
  if (s.count != 0) d += ",count=" + std::to_string(s.count);
  if (s.io_size != 0) d += ",io_size=" + std::to_string(s.io_size);
  d += ",seed=" + std::to_string(s.seed) + ",offset=" + std::to_string(s.offset) +
       ",size=" + std::to_string(s.size);
  if (s.random) d += ",align=" + std::to_string(s.align);
  if (!s.ns_name.empty()) d += ",namespace=" + s.ns_name;
  if (s.placement) d += ",placement=" + std::to_string(*s.placement);
  if (s.placement_update_bytes != 0)
    d += ",placement_update_bytes=" + std::to_string(s.placement_update_bytes);
  if (s.zone_appends) d += ",zones=" + std::to_string(s.zone_span.written_side_by_side);
  if (s.zone_report_every != 0) d += ",zone_report_every=" + std::to_string(s.zone_report_every);
  switch (s.distribution) {
    case AddressDistribution::kUniform:
      break;
    case AddressDistribution::kZipf:
      d += ",distribution=zipf:" + number_text(s.zipf_theta);
      break;
    case AddressDistribution::kHotspot:
      d += ",distribution=hotspot:" + number_text(s.hot_fraction) + ":" +
           number_text(s.hot_probability);
      break;
  }
  if (s.queue != 0) d += ",queue=" + std::to_string(s.queue);
  if (s.rate_iops != 0) d += ",rate_iops=" + number_text(s.rate_iops);
  if (s.thinktime_us != 0) d += ",thinktime_us=" + number_text(s.thinktime_us);
  if (s.content) {
    d += ",dedupe_percentage=" + number_text(s.dedupe_percentage) +
         ",compress_percentage=" + std::to_string(s.compress_percentage);
  }
  return d;
}

std::string job_keys_help() {
  return R"(  rw      read | write | rw (sequential) or randread | randwrite | randrw (random);
          default read. rw and randrw mix reads and writes. zoneappend: zone appends to a
          zoned namespace's zones, a zone reset when the log wraps, reads with mix.
  mix     rw, randrw and zoneappend only: fraction of reads in [0, 1]; default 0.5
          (zoneappend: 0).
  bs      request size in bytes, multiple of 512; suffix k, m or g (x1024); default 4k.
  qd      host outstanding-request limit, >= 1; default 1.
  count   number of requests, >= 1; required.
  seed    random seed (unsigned 64-bit); default 1. Same spec, same sequence.
  offset  first byte of the span, multiple of 512; default 0.
  size    span length in bytes, multiple of 512; default capacity - offset.
  namespace  the namespace (by name) the requests address, offset and size within it;
          default the drive's first.
  placement  the writes' placement handle (ftl.fdp: 0 to ftl.fdp.handles - 1), their data
          kept apart from other handles'; default 0. Conventional namespaces only.
  placement_update_bytes  ftl.fdp, jobs that write: after every this many bytes written
          (suffix k, m or g), a Reclaim Unit Handle Update of the job's placement handle
          (NVMe I/O Management Send), so each span starts a reclaim unit of its own.
  align   random patterns: offsets are multiples of align (multiple of 512); default bs.
  zones   zoneappend only: zones of the span written side by side, each append to one drawn
          at random; default 1. offset and size are whole zones.
)";
}

std::string file_keys_help() {
  return R"(  bs      also MIN-MAX (uniform over the multiples of 512) or SIZE/WEIGHT:SIZE/WEIGHT...
          (weighted choice, integer weights), e.g. 4k/70:64k/30; align defaults to the
          smallest size.
  count   not required: without count or io_size, one pass over the span.
  io_size bytes to transfer; the job ends with the request that reaches it.
  name    a label for the report.
  rate_iops     timed job: request i arrives at i / rate_iops s.
  thinktime_us  timed job: request i arrives at i * thinktime_us (the same, as a gap).
  distribution  random patterns: uniform (default), zipf:THETA (block k of the span drawn
          with probability ~ k^-THETA, exactly) or hotspot:FRACTION:PROBABILITY (the first
          FRACTION of the span gets PROBABILITY of the requests).
  dedupe_percentage    writes carry content fingerprints; this share repeats earlier content.
  compress_percentage  writes carry fingerprints and this compressibility (0 to 100).
  queue   the submission queue (index into host.queues) the job's requests go to; 0 default.
Each job is a flow: the host plays it on its own, at its own qd and arrivals, and the report
gives its figures (flows). Jobs are all timed or all closed loop.
)";
}

}  // namespace ssd::tb
