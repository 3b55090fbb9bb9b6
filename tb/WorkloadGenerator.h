#pragma once
// Synthetic closed-loop workload from an fio-like spec: "rw=randwrite,bs=4k,qd=32,count=1000000".
#include <cstdint>
#include <random>
#include <string>

#include "tb/HostRequest.h"

namespace ssd::tb {

// Generates `count` requests of `bs` bytes within [offset, offset + size). Sequential patterns
// walk the span and wrap around to its start; random ones draw align-aligned offsets
// uniformly. The sequence depends only on the spec and the capacity: the draws use
// std::mt19937_64 (fully specified by the standard) and exact integer arithmetic, so it is
// identical with every compiler and standard library.
class WorkloadGenerator : public RequestSource {
 public:
  // Throws ssd::InputError("workload: <key>: <reason>").
  WorkloadGenerator(const std::string& spec, uint64_t capacity_bytes);

  bool next(HostRequest& out) override;
  bool timed() const override { return false; }
  uint32_t host_queue_depth() const override { return qd_; }
  uint64_t expected_count() const override { return count_; }
  std::string describe() const override;

  // The spec grammar, for --help.
  static std::string help();

 private:
  // Uniform in [0, n), n > 0.
  uint64_t uniform(uint64_t n);

  std::string rw_;
  bool random_ = false;
  bool mixed_ = false;    // op drawn per request with probability mix_ of a read
  IoOp op_ = IoOp::Read;  // when not mixed
  double mix_ = 0.5;
  uint64_t bs_ = 4096;
  uint32_t qd_ = 1;
  uint64_t count_ = 0;
  uint64_t seed_ = 1;
  uint64_t offset_ = 0;
  uint64_t size_ = 0;
  uint64_t align_ = 0;
  uint64_t first_slot_ = 0;  // lowest aligned random offset
  uint64_t slots_ = 0;       // number of aligned random offsets
  uint64_t cursor_ = 0;      // next sequential offset
  uint64_t issued_ = 0;
  std::mt19937_64 rng_;
};

}  // namespace ssd::tb
