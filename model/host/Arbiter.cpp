#include "model/host/Arbiter.h"

#include <limits>
#include <utility>

namespace ssd::model::host {
namespace {
constexpr int kAnyClass = -1;  // round robin: every queue takes turns
}

Arbiter::Arbiter(Arbitration kind, std::vector<QueuePriority> priorities, uint32_t burst,
                 std::array<uint32_t, 3> weights)
    : kind_(kind),
      priorities_(std::move(priorities)),
      burst_(burst == 0 ? std::numeric_limits<uint32_t>::max() : burst),
      weights_(weights),
      credits_(weights) {}

bool Arbiter::has_waiting(int cls, const std::vector<uint32_t>& waiting) const {
  for (std::size_t q = 0; q < priorities_.size(); ++q)
    if (waiting[q] != 0 && int(priorities_[q]) == cls) return true;
  return false;
}

int Arbiter::take_turn(Turn& t, int cls, const std::vector<uint32_t>& waiting) {
  const int n = int(priorities_.size());
  if (t.current != kNone && t.left != 0 && waiting[std::size_t(t.current)] != 0) {
    --t.left;
    return t.current;
  }
  for (int k = 1; k <= n; ++k) {
    const int q = ((t.current == kNone ? -1 : t.current) + k + n) % n;
    if (waiting[std::size_t(q)] == 0) continue;
    if (cls != kAnyClass && int(priorities_[std::size_t(q)]) != cls) continue;
    t.current = q;
    t.left = burst_ - 1;
    return q;
  }
  return kNone;
}

int Arbiter::next(const std::vector<uint32_t>& waiting) {
  if (priorities_.size() == 1) return waiting[0] != 0 ? 0 : kNone;
  if (kind_ == Arbitration::RoundRobin) return take_turn(turns_[0], kAnyClass, waiting);
  const int urgent = int(QueuePriority::Urgent);
  if (has_waiting(urgent, waiting)) return take_turn(turns_[std::size_t(urgent)], urgent, waiting);
  for (int round = 0; round < 2; ++round) {
    for (int cls = int(QueuePriority::High); cls <= int(QueuePriority::Low); ++cls) {
      uint32_t& credit = credits_[std::size_t(cls - 1)];
      if (credit == 0 || !has_waiting(cls, waiting)) continue;
      --credit;
      return take_turn(turns_[std::size_t(cls)], cls, waiting);
    }
    credits_ = weights_;  // a new round
  }
  return kNone;
}

}  // namespace ssd::model::host
