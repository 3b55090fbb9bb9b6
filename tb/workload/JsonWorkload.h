#pragma once
// A synthetic workload from a JSON spec file (--workload-file): several fio-like jobs merged
// into one request stream (docs/trace-formats.md, "Workload files").
#include <cstdint>
#include <string>
#include <vector>

#include "tb/host/HostRequest.h"
#include "tb/workload/WorkloadJob.h"

namespace ssd::tb {

// {"seed": 1, "jobs": [{"rw": "randwrite", "bs": "4k", "count": 1000}, ...]}: each job takes
// the --workload keys plus the extended ones (job_keys_help(true)), as numbers or strings.
// A job without "seed" gets derive_seed(spec seed, its index). Either every job is timed
// (rate_iops or thinktime_us) and the stream is their arrivals merged in time order (ties by
// job order), or none is and the stream is closed loop, taking one request from each job in
// turn; the host's queue depth is the sum of the jobs' qd. The host plays the jobs as flows
// (flows()), each at its own qd on its own submission queue (the job's "queue"); the merged
// stream (next()) is for readers of the whole workload.
class JsonWorkload : public RequestSource {
 public:
  // Stops after max_requests in all when it is not 0. `only_job` >= 0: that job alone (the
  // others are still checked), with the stream it has among them. Throws ssd::InputError
  // naming the file and the key ("w.json: jobs[1].bs: expected ...").
  JsonWorkload(const std::string& path, const AddressSpace& space, uint64_t max_requests = 0,
               int only_job = -1);
  std::size_t jobs() const { return jobs_.size(); }

  bool next(HostRequest& out) override;
  bool timed() const override { return timed_; }
  uint32_t host_queue_depth() const override { return queue_depth_; }
  uint64_t expected_count() const override { return expected_; }
  std::string describe() const override;
  void add_to_report(nlohmann::ordered_json& report) const override;
  std::vector<RequestSource*> flows() override;

 private:
  struct Job {
    JobStream stream;
    HostRequest head;  // its next request, when has_head
    bool has_head = false;
    uint64_t emitted = 0;
  };
  // One job as a flow; --max-requests counts the requests of all of them.
  class JobFlow : public RequestSource {
   public:
    JobFlow(JsonWorkload& w, std::size_t job) : w_(w), job_(job) {}
    bool next(HostRequest& out) override { return w_.take(w_.jobs_[job_], out); }
    bool timed() const override { return w_.timed_; }
    uint32_t host_queue_depth() const override { return spec().qd; }
    std::string describe() const override { return w_.describe() + ", job " + spec().name; }
    std::string flow_name() const override { return spec().name; }
    uint32_t queue() const override { return spec().queue; }
    std::string queue_origin() const override {
      return w_.path_ + ": jobs[" + std::to_string(job_) + "].queue";
    }

   private:
    const JobSpec& spec() const { return w_.jobs_[job_].stream.spec(); }
    JsonWorkload& w_;
    std::size_t job_;
  };
  // The job's next request into `out`, false when it (or --max-requests) is done.
  bool take(Job& j, HostRequest& out);

  std::string path_;
  uint64_t seed_ = 1;
  std::vector<Job> jobs_;
  bool timed_ = false;
  uint32_t queue_depth_ = 0;
  uint64_t expected_ = 0;
  uint64_t max_requests_ = 0;
  uint64_t emitted_ = 0;
  size_t turn_ = 0;  // closed loop: the job to take from next
  bool stopped_early_ = false;
  std::vector<JobFlow> flows_;
};

}  // namespace ssd::tb
