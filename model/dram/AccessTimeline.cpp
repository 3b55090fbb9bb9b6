#include "model/dram/AccessTimeline.h"

#include <algorithm>

namespace ssd::model {

std::size_t AccessTimeline::after(const sc_core::sc_time& t) const {
  return std::size_t(
      std::upper_bound(changes_.begin() + std::ptrdiff_t(head_), changes_.end(), t,
                       [](const sc_core::sc_time& x, const Change& c) { return x < c.t; }) -
      changes_.begin());
}

bool AccessTimeline::fit(const sc_core::sc_time& from, const sc_core::sc_time& length,
                         sc_core::sc_time& start) const {
  std::size_t i = after(from);
  const Change* prev = i == head_ ? &reported_ : &changes_[i - 1];
  sc_core::sc_time at = from;
  for (; i < changes_.size(); prev = &changes_[i++]) {
    const Change& next = changes_[i];
    at = std::max(at, prev->t);
    if (prev->state == PowerState::Idle && prev->gap && next.state == PowerState::Active &&
        at + length <= next.t) {
      start = at;
      return true;
    }
  }
  return false;
}

void AccessTimeline::reserve(const sc_core::sc_time& start, const sc_core::sc_time& finish) {
  // Nearly every access comes after all the others (one initiator's always do).
  const bool last = empty() || changes_.back().t <= start;
  const std::size_t i = last ? changes_.size() : after(start);
  // An access ending at `start` goes on (not a return from self-refresh at `start`).
  const bool joins_prev = i > head_ && changes_[i - 1].t == start && changes_[i - 1].gap;
  const bool joins_next =
      i < changes_.size() && changes_[i].t == finish && changes_[i].state == PowerState::Active;
  const auto at = changes_.begin() + std::ptrdiff_t(i);
  if (joins_prev && joins_next) {
    changes_.erase(at - 1, at + 1);
  } else if (joins_prev) {
    changes_[i - 1].t = finish;
  } else if (joins_next) {
    changes_[i].t = start;
  } else {
    changes_.insert(at, {{start, PowerState::Active, false}, {finish, PowerState::Idle, true}});
  }
}

}  // namespace ssd::model
