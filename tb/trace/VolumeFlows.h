#pragma once
// One trace's volumes as flows (--volume-flows, docs/trace-formats.md#several-traces): each
// volume of the --volume list is a flow named "vol<N>", with the trace's arrivals (or --qd),
// on the submission queue --trace-queues gives it. A flow reads the trace on to its next
// request and keeps the other volumes' requests it passes for their flows, so a volume whose
// requests are far apart in the trace makes the others' wait in memory meanwhile.
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "tb/trace/TraceReader.h"

namespace ssd::tb {

class VolumeFlows final : public RequestSource {
 public:
  // Volume i's flow goes to submission queue queues[i], addresses namespace namespaces[i] and
  // writes through placement handle placement[i] (any shorter: 0).
  VolumeFlows(std::unique_ptr<TraceReader> trace, const std::vector<uint64_t>& volumes,
              const std::vector<uint32_t>& queues, const std::vector<uint32_t>& namespaces,
              const std::vector<uint32_t>& placement = {});

  // The whole trace, for readers of it all; the host plays flows().
  bool next(HostRequest& out) override { return trace_->next(out); }
  bool timed() const override { return trace_->timed(); }
  uint32_t host_queue_depth() const override { return trace_->host_queue_depth(); }
  std::string describe() const override { return trace_->describe() + " by volume"; }
  void add_to_report(nlohmann::ordered_json& report) const override {
    trace_->add_to_report(report);
  }
  void add_warnings(std::vector<std::string>& out) const override { trace_->add_warnings(out); }
  std::vector<RequestSource*> flows() override;

 private:
  // Flow i's next request, false at the end of the trace.
  bool take(std::size_t i, HostRequest& out);

  class Flow final : public RequestSource {
   public:
    Flow(VolumeFlows& owner, std::size_t i, uint64_t volume, uint32_t queue)
        : owner_(owner), i_(i), volume_(volume), queue_(queue) {}
    bool next(HostRequest& out) override { return owner_.take(i_, out); }
    bool timed() const override { return owner_.timed(); }
    uint32_t host_queue_depth() const override { return owner_.host_queue_depth(); }
    std::string describe() const override { return owner_.describe(); }
    std::string flow_name() const override { return "vol" + std::to_string(volume_); }
    uint32_t queue() const override { return queue_; }
    std::string queue_origin() const override {
      return "--trace-queues (volume " + std::to_string(volume_) + ")";
    }

   private:
    VolumeFlows& owner_;
    std::size_t i_;
    uint64_t volume_;
    uint32_t queue_;
  };

  std::unique_ptr<TraceReader> trace_;
  std::vector<uint64_t> volumes_;
  std::vector<uint32_t> namespaces_;              // per flow
  std::vector<uint16_t> placement_;               // per flow
  std::vector<std::deque<HostRequest>> pending_;  // per flow: read, not yet taken
  std::vector<Flow> flows_;
};

}  // namespace ssd::tb
