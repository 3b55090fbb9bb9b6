#pragma once
// Synthetic closed-loop workload from an fio-like spec: "rw=randwrite,bs=4k,qd=32,count=1000000".
#include <cstdint>
#include <memory>
#include <string>

#include "tb/host/HostRequest.h"
#include "tb/workload/WorkloadJob.h"

namespace ssd::tb {

// Generates `count` requests of `bs` bytes within [offset, offset + size). Sequential patterns
// walk the span and wrap around to its start; random ones draw align-aligned offsets
// uniformly. The sequence depends only on the spec and the capacity (see JobStream). Jobs
// with more settings come from a workload file (JsonWorkload).
class WorkloadGenerator : public RequestSource {
 public:
  // Throws ssd::InputError("workload: <key>: <reason>").
  WorkloadGenerator(const std::string& spec, const AddressSpace& space);

  bool next(HostRequest& out) override { return job_.next(out); }
  bool timed() const override { return false; }
  uint32_t host_queue_depth() const override { return job_.spec().qd; }
  uint64_t expected_count() const override { return job_.spec().count; }
  std::string describe() const override { return "workload " + describe_job(job_.spec()); }

  // The spec grammar, for --help.
  static std::string help();

 private:
  JobStream job_;
};

// A WorkloadGenerator for `spec` (see WorkloadGenerator::help()), as the run's request source.
std::unique_ptr<RequestSource> make_workload(const std::string& spec, const AddressSpace& space);

}  // namespace ssd::tb
