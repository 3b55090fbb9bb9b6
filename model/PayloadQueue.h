#pragma once
// A payload event queue with the order and notifications of tlm_utils::peq_with_get (by time,
// first in first out among equal times; the event is notified for the earliest), kept in a
// sorted vector: peq_with_get's std::multimap allocates a tree node and rebalances the tree
// for every payload, a few per host request.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <systemc>

#include "common/SimNow.h"

namespace ssd::model {

template <class Payload>
class PayloadQueue {
 public:
  // `p` is due `delay` from now.
  void notify(Payload& p, const sc_core::sc_time& delay) {
    const Item item{(sim_now() + delay).value(), &p};
    if (2 * head_ >= items_.size() && head_ > 0) {  // drop the items taken
      items_.erase(items_.begin(), items_.begin() + std::ptrdiff_t(head_));
      head_ = 0;
    }
    if (items_.size() == head_ || items_.back().t_ps <= item.t_ps) {
      items_.push_back(item);  // the usual case: due after all the others
    } else {
      // After the ones due at or before it, which keeps equal times first in, first out.
      const auto at =
          std::upper_bound(items_.begin() + std::ptrdiff_t(head_), items_.end(), item.t_ps,
                           [](uint64_t t, const Item& i) { return t < i.t_ps; });
      items_.insert(at, item);
    }
    event_.notify(delay);
  }

  // The earliest payload that is due, or nullptr (then the event is notified for the next
  // one). Call until it returns nullptr.
  Payload* get_next_transaction() {
    if (head_ == items_.size()) return nullptr;
    const uint64_t now = sim_now().value();
    const Item& first = items_[head_];
    if (first.t_ps <= now) {
      ++head_;
      return first.payload;
    }
    event_.notify(sc_core::sc_time::from_value(first.t_ps - now));
    return nullptr;
  }

  sc_core::sc_event& get_event() { return event_; }

 private:
  struct Item {
    uint64_t t_ps;
    Payload* payload;
  };

  // In order of due time, from head_ on; the items before it were taken. Payloads mostly
  // arrive in that order (commands crossing the host link, programs ending), so a new one
  // usually goes at the end.
  std::vector<Item> items_;
  std::size_t head_ = 0;
  sc_core::sc_event event_;
};

}  // namespace ssd::model
