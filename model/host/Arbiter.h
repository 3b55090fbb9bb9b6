#pragma once
// Which submission queue the controller fetches its next command from (NVMe base
// specification, "Command Arbitration"). Plain C++: tb/tests/ArbiterTest.cpp.
//
// Round robin: the queues in turn, each giving up to `burst` commands (the Arbitration Burst;
// 0: no limit) before the next; a queue found empty ends its burst.
// Weighted round robin with an urgent class: urgent queues first, always (round robin among
// them); then the high, medium and low classes, each spending one credit of its weight per
// command, high before medium before low while they have credits; when no class with
// commands waiting has credits left, every class gets its weight again. Within a class the
// queues take turns as under round robin, bursts included.
#include <array>
#include <cstdint>
#include <vector>

#include "config/Choices.h"

namespace ssd::model::host {

using config::Arbitration;
using config::QueuePriority;  // the classes in order of precedence

class Arbiter {
 public:
  static constexpr int kNone = -1;

  // `priorities`: one per queue (ignored under round robin). `weights`: high, medium, low.
  Arbiter(Arbitration kind, std::vector<QueuePriority> priorities, uint32_t burst,
          std::array<uint32_t, 3> weights);

  // The queue to take the next command from, given how many commands each holds
  // (`waiting[q]`), or kNone when all are empty.
  int next(const std::vector<uint32_t>& waiting);

  std::size_t queues() const { return priorities_.size(); }

 private:
  // Round robin among the queues of `cls` (all queues under round robin), bursts included.
  struct Turn {
    int current = kNone;  // the queue in its burst
    uint32_t left = 0;    // commands its burst may still give
  };
  int take_turn(Turn& t, int cls, const std::vector<uint32_t>& waiting);
  bool has_waiting(int cls, const std::vector<uint32_t>& waiting) const;

  Arbitration kind_;
  std::vector<QueuePriority> priorities_;
  uint32_t burst_;
  std::array<uint32_t, 3> weights_;
  std::array<uint32_t, 3> credits_;
  std::array<Turn, 4> turns_;  // by class (urgent, high, medium, low); [0] under round robin
};

}  // namespace ssd::model::host
