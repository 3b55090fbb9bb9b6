#pragma once
// A payload event queue with the order and notifications of tlm_utils::peq_with_get (by time,
// first in first out among equal times; the event is notified for the earliest), kept in a
// vector heap: peq_with_get's std::multimap allocates a tree node and rebalances the tree
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
    heap_.push_back(Item{(sim_now() + delay).value(), seq_++, &p});
    std::push_heap(heap_.begin(), heap_.end(), Later{});
    event_.notify(delay);
  }

  // The earliest payload that is due, or nullptr (then the event is notified for the next
  // one). Call until it returns nullptr.
  Payload* get_next_transaction() {
    if (heap_.empty()) return nullptr;
    const uint64_t now = sim_now().value();
    if (heap_.front().t_ps <= now) {
      std::pop_heap(heap_.begin(), heap_.end(), Later{});
      Payload* p = heap_.back().payload;
      heap_.pop_back();
      return p;
    }
    event_.notify(sc_core::sc_time::from_value(heap_.front().t_ps - now));
    return nullptr;
  }

  sc_core::sc_event& get_event() { return event_; }

 private:
  struct Item {
    uint64_t t_ps;
    uint64_t seq;
    Payload* payload;
  };
  // A function object, not a function pointer: the heap's comparisons inline.
  struct Later {
    bool operator()(const Item& a, const Item& b) const {
      return a.t_ps != b.t_ps ? a.t_ps > b.t_ps : a.seq > b.seq;
    }
  };

  std::vector<Item> heap_;
  uint64_t seq_ = 0;
  sc_core::sc_event event_;
};

}  // namespace ssd::model
