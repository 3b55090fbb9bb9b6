#pragma once
// Several traces replayed side by side (--trace given more than once), each a flow: its own
// arrivals and queue depth, on its own submission queue (docs/trace-formats.md#several-traces).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tb/trace/TraceReader.h"

namespace ssd::tb {

class TraceSet final : public RequestSource {
 public:
  // Flow i is traces[i], named by its file's name without directory and extension (with
  // "#i" when two are alike), on submission queue queues[i] (queues shorter: 0).
  TraceSet(std::vector<std::unique_ptr<TraceReader>> traces, const std::vector<uint32_t>& queues);

  // The traces merged by arrival (ties in trace order), for readers of the whole input; the
  // host plays flows().
  bool next(HostRequest& out) override;
  bool timed() const override { return flows_.front().trace->timed(); }
  uint32_t host_queue_depth() const override;
  uint64_t expected_count() const override;
  std::string describe() const override;
  // "traces": each trace's "trace" object, in order.
  void add_to_report(nlohmann::ordered_json& report) const override;
  void add_warnings(std::vector<std::string>& out) const override;
  std::vector<RequestSource*> flows() override;

 private:
  class Flow final : public RequestSource {
   public:
    Flow(std::unique_ptr<TraceReader> t, std::string name, uint32_t queue)
        : trace(std::move(t)), name_(std::move(name)), queue_(queue) {}
    bool next(HostRequest& out) override { return trace->next(out); }
    bool timed() const override { return trace->timed(); }
    uint32_t host_queue_depth() const override { return trace->host_queue_depth(); }
    uint64_t expected_count() const override { return trace->expected_count(); }
    std::string describe() const override { return trace->describe(); }
    std::string flow_name() const override { return name_; }
    uint32_t queue() const override { return queue_; }
    std::string queue_origin() const override { return "--trace-queues (" + trace->path() + ")"; }

    std::unique_ptr<TraceReader> trace;
    HostRequest head;  // merged stream: its next request, when has_head
    bool has_head = false, started = false;

   private:
    std::string name_;
    uint32_t queue_;
  };
  std::vector<Flow> flows_;
};

}  // namespace ssd::tb
