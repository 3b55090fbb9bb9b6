#include "model/flash/DieQueue.h"

#include <algorithm>
#include <functional>

namespace ssd::model::flash {

DieQueue::DieQueue(uint32_t blocks, uint32_t pages_per_block, bool reads_pass, bool by_page,
                   uint32_t word_line_pages)
    : reads_pass_(reads_pass),
      word_line_pages_(word_line_pages),
      writes_(blocks),
      reads_(reads_pass ? blocks : 0),
      never_(sc_core::sc_max_time()) {
  if (by_page || reads_pass) programs_at_page_.resize(pages_per_block);
}

void DieQueue::make_eligible(uint32_t id) {
  const uint64_t seq = nodes_[id].cmd.seq;
  if (heads_.empty() || nodes_[heads_.back()].cmd.seq < seq) {
    heads_.push_back(id);  // the newest: last in issue order
    return;
  }
  const auto at = std::upper_bound(heads_.begin(), heads_.end(), seq,
                                   [&](uint64_t s, uint32_t h) { return s < nodes_[h].cmd.seq; });
  heads_.insert(at, id);
}

void DieQueue::drop_eligible(uint32_t id) {
  heads_.erase(std::find(heads_.begin(), heads_.end(), id));
}

void DieQueue::append(List& l, uint32_t id) {
  if (l.tail == kNil) {
    l.head = int32_t(id);
    make_eligible(id);
  } else {
    nodes_[uint32_t(l.tail)].next = int32_t(id);
  }
  l.tail = int32_t(id);
}

void DieQueue::insert_read(uint32_t id) {
  List& l = reads_of(nodes_[id]);
  const uint64_t seq = nodes_[id].cmd.seq;
  int32_t prev = kNil, at = l.head;
  while (at != kNil && nodes_[uint32_t(at)].cmd.seq < seq) {
    prev = at;
    at = nodes_[uint32_t(at)].next;
  }
  nodes_[id].next = at;
  if (at == kNil) l.tail = int32_t(id);
  if (prev != kNil) {
    nodes_[uint32_t(prev)].next = int32_t(id);
    return;
  }
  if (l.head != kNil) drop_eligible(uint32_t(l.head));
  l.head = int32_t(id);
  make_eligible(id);
}

void DieQueue::promote(uint32_t node) {
  Node& n = nodes_[node];
  const bool moves = reads_pass_ && n.cmd.ext->op == FlashOp::Read && n.background;
  n.cmd.ext->background = n.cmd.ext->refresh = false;
  if (!moves) return;
  // Out of the background list (a read waiting for its page's program is in none), into the
  // host list at its place in issue order.
  List& l = reads_of(n);
  int32_t prev = kNil, at = l.head;
  while (at != kNil && at != int32_t(node)) {
    prev = at;
    at = nodes_[uint32_t(at)].next;
  }
  n.background = false;
  if (at == kNil) return;
  if (prev == kNil) {
    drop_eligible(node);
    l.head = n.next;
    if (l.head != kNil) make_eligible(uint32_t(l.head));
  } else {
    nodes_[uint32_t(prev)].next = n.next;
  }
  if (l.tail == int32_t(node)) l.tail = prev;
  insert_read(node);
}

int32_t DieQueue::program_of(const Cmd& read) const {
  // The newest, should an earlier use of the page still be queued before an erase.
  const std::vector<uint32_t>& at_page = programs_at_page_[read.ext->ppa.page];
  for (auto j = at_page.rbegin(); j != at_page.rend(); ++j)
    if (nodes_[*j].cmd.ext->ppa.block == read.ext->ppa.block) return int32_t(*j);
  return kNil;
}

bool DieQueue::earlier_read(const Cmd& erase) const {
  // A read waiting for a program is later than an erase that heads its chain: a program
  // before the erase has left the queue, releasing its readers.
  for (const List& l : reads_[erase.ext->ppa.block])
    if (l.head != kNil && nodes_[uint32_t(l.head)].cmd.seq < erase.seq) return true;
  return false;
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
  nodes_[id] = Node{c, kNil, kNil, true, c.ext->background};
  c.ext->queue_node = id;
  if (!reads_pass_ || c.ext->op != FlashOp::Read) {
    append(writes_[c.ext->ppa.block], id);
  } else if (const int32_t p = program_of(c); p != kNil) {
    nodes_[id].next = nodes_[uint32_t(p)].waiters;  // waits for the program of its page
    nodes_[uint32_t(p)].waiters = int32_t(id);
  } else {
    append(reads_of(nodes_[id]), id);
  }
  if (!programs_at_page_.empty() && c.ext->op == FlashOp::Program)
    programs_at_page_[c.ext->ppa.page].push_back(id);
  ++queued_;
  add_timer(id, c.arrival, now);
  add_timer(id, c.ext->data_ready_at, now);
}

void DieQueue::remove(uint32_t node) {
  Node& n = nodes_[node];
  const Cmd& c = n.cmd;
  List& l = reads_pass_ && c.ext->op == FlashOp::Read ? reads_of(n) : writes_[c.ext->ppa.block];
  if (l.head != int32_t(node)) {
    // A read taken with the one ahead of it (same_page_reads): behind the head, not eligible.
    int32_t prev = l.head;
    while (nodes_[uint32_t(prev)].next != int32_t(node)) prev = nodes_[uint32_t(prev)].next;
    nodes_[uint32_t(prev)].next = n.next;
    if (l.tail == int32_t(node)) l.tail = prev;
  } else {  // an eligible command heads its chain or list
    drop_eligible(node);
    l.head = n.next;
    if (l.head == kNil)
      l.tail = kNil;
    else
      make_eligible(uint32_t(l.head));
  }
  for (int32_t w = n.waiters; w != kNil;) {
    const int32_t next = nodes_[uint32_t(w)].next;
    insert_read(uint32_t(w));
    w = next;
  }
  if (!programs_at_page_.empty() && c.ext->op == FlashOp::Program) {
    std::vector<uint32_t>& at_page = programs_at_page_[c.ext->ppa.page];
    at_page.erase(std::find(at_page.begin(), at_page.end(), node));
  }
  n.live = false;
  free_.push_back(node);
  --queued_;
}

void DieQueue::same_page_reads(uint32_t node, const sc_core::sc_time& now,
                               std::vector<uint32_t>& out) const {
  const FlashCommandExt& first = *nodes_[node].cmd.ext;
  for (int32_t j = nodes_[node].next; j != kNil; j = nodes_[uint32_t(j)].next) {
    const FlashCommandExt& c = *nodes_[uint32_t(j)].cmd.ext;
    if (c.op != FlashOp::Read || c.ppa.block != first.ppa.block || c.ppa.page != first.ppa.page ||
        c.slc != first.slc || c.spare || first.spare || !ready(uint32_t(j), now))
      return;
    out.push_back(uint32_t(j));
  }
}

bool DieQueue::word_line(uint32_t node, const sc_core::sc_time& now,
                         std::vector<uint32_t>* out) const {
  const FlashCommandExt& first = *nodes_[node].cmd.ext;
  const uint32_t rest = word_line_pages_ - 1 - first.ppa.page % word_line_pages_;
  if (rest == 0) return true;
  const std::size_t before = out ? out->size() : 0;
  uint32_t k = 1;
  for (int32_t j = nodes_[node].next; j != kNil; j = nodes_[uint32_t(j)].next, ++k) {
    const Cmd& c = nodes_[uint32_t(j)].cmd;
    if (c.ext->op != FlashOp::Program || c.ext->ppa.page != first.ppa.page + k || c.arrival > now ||
        c.ext->data_ready_at > now)
      break;
    if (out) out->push_back(uint32_t(j));
    if (k == rest) return true;
  }
  if (out) out->resize(before);
  return false;
}

sc_core::sc_time DieQueue::oldest_arrival() const {
  sc_core::sc_time oldest = never_;
  for (const Node& n : nodes_)
    if (n.live) oldest = std::min(oldest, n.cmd.arrival);
  return oldest;
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
