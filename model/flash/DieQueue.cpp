#include "model/flash/DieQueue.h"

#include <algorithm>
#include <functional>

namespace ssd::model::flash {

DieQueue::DieQueue(uint32_t blocks, uint32_t pages_per_block, bool by_page)
    : tail_(blocks, -1), never_(sc_core::sc_max_time()) {
  if (by_page) programs_at_page_.resize(pages_per_block);
}

void DieQueue::push(const Cmd& c, const sc_core::sc_time& now) {
  uint32_t id;
  if (free_.empty()) {
    id = uint32_t(nodes_.size());
    nodes_.emplace_back();
  } else {
    id = free_.back();
    free_.pop_back();
  }
  nodes_[id] = Node{c, -1, true};
  c.ext->queue_node = id;
  int32_t& tail = tail_[c.ext->ppa.block];
  if (tail < 0)
    heads_.push_back(id);  // the newest command: last in issue order
  else
    nodes_[uint32_t(tail)].next = int32_t(id);
  tail = int32_t(id);
  if (!programs_at_page_.empty() && c.ext->op == FlashOp::Program)
    programs_at_page_[c.ext->ppa.page].push_back(id);
  ++queued_;
  add_timer(id, c.arrival, now);
  add_timer(id, c.ext->data_ready_at, now);
}

void DieQueue::remove(uint32_t node) {
  Node& n = nodes_[node];
  heads_.erase(std::find(heads_.begin(), heads_.end(), node));
  if (n.next < 0) {
    tail_[n.cmd.ext->ppa.block] = -1;
  } else {
    const uint64_t seq = nodes_[uint32_t(n.next)].cmd.seq;
    const auto at = std::upper_bound(heads_.begin(), heads_.end(), seq,
                                     [&](uint64_t s, uint32_t h) { return s < nodes_[h].cmd.seq; });
    heads_.insert(at, uint32_t(n.next));
  }
  if (!programs_at_page_.empty() && n.cmd.ext->op == FlashOp::Program) {
    std::vector<uint32_t>& at_page = programs_at_page_[n.cmd.ext->ppa.page];
    at_page.erase(std::find(at_page.begin(), at_page.end(), node));
  }
  n.live = false;
  free_.push_back(node);
  --queued_;
}

void DieQueue::add_timer(uint32_t node, const sc_core::sc_time& at, const sc_core::sc_time& now) {
  if (at <= now || at == never_) return;
  timers_.push_back(Timer{at, node, nodes_[node].cmd.seq});
  std::push_heap(timers_.begin(), timers_.end(), std::greater<>());
}

sc_core::sc_time DieQueue::next_ready(const sc_core::sc_time& now) {
  while (!timers_.empty()) {
    const Timer& t = timers_.front();
    const Node& n = nodes_[t.node];
    // A timer still counts while its command is queued and the time is still its own.
    if (t.at > now && n.live && n.cmd.seq == t.seq &&
        (t.at == n.cmd.arrival || t.at == n.cmd.ext->data_ready_at))
      return t.at;
    std::pop_heap(timers_.begin(), timers_.end(), std::greater<>());
    timers_.pop_back();
  }
  return never_;
}

}  // namespace ssd::model::flash
