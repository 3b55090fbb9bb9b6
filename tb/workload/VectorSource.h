#pragma once
// A RequestSource over requests held in memory: scripted scenarios for tests and examples.
#include <string>
#include <utility>
#include <vector>

#include "tb/host/HostRequest.h"

namespace ssd::tb {

class VectorSource final : public RequestSource {
 public:
  explicit VectorSource(std::vector<HostRequest> requests, bool timed = true,
                        uint32_t host_queue_depth = 0)
      : requests_(std::move(requests)), timed_(timed), qd_(host_queue_depth) {}

  bool next(HostRequest& out) override {
    if (pos_ == requests_.size()) return false;
    out = requests_[pos_++];
    return true;
  }
  bool timed() const override { return timed_; }
  uint32_t host_queue_depth() const override { return qd_; }
  uint64_t expected_count() const override { return requests_.size(); }
  std::string describe() const override {
    return std::to_string(requests_.size()) + " scripted requests";
  }

 private:
  std::vector<HostRequest> requests_;
  bool timed_;
  uint32_t qd_;
  std::size_t pos_ = 0;
};

}  // namespace ssd::tb
