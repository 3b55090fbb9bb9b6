#pragma once
// One die's queue in its channel's sequencer: the commands the channel has accepted for the
// die and not yet started, and the ordering rules that say which of them may start.
//
// Rule: commands to one block never pass each other. They form a chain in issue order and
// only a chain's head is eligible, so the die applies each command's effect on the contents
// (at acceptance, NandDie.h) in the order the commands run. A GC victim's copies make one
// chain, not hundreds of entries to scan. An eligible command is ready once it has arrived
// and, for a program, its data is in the controller buffer; the times at which queued
// commands become ready sit in a heap, for the channel's wake-up.
//
// Plain C++ (no SystemC process): tb/tests/DieQueueTest.cpp drives it without a kernel.
#include <cstdint>
#include <systemc>
#include <vector>

#include "model/flash/DieOperation.h"

namespace ssd::model::flash {

class DieQueue {
 public:
  // `blocks`: the die's blocks (all planes); with `by_page`, queued programs are also listed
  // by page offset (`pages_per_block` lists), where a multi-plane wait looks for partners.
  DieQueue(uint32_t blocks, uint32_t pages_per_block, bool by_page);

  uint32_t size() const { return queued_; }
  // Queues `c` (arrived or arriving at c.arrival) and notes its node in c.ext->queue_node.
  void push(const Cmd& c, const sc_core::sc_time& now);
  // Whether `node` holds the queued command of payload `gp`.
  bool holds(uint32_t node, const tlm::tlm_generic_payload* gp) const {
    return node < nodes_.size() && nodes_[node].live && nodes_[node].cmd.gp == gp;
  }
  // The queued program at `node` learnt when its data is in the buffer (its data_ready_at).
  void data_ready(uint32_t node, const sc_core::sc_time& now) {
    add_timer(node, nodes_[node].cmd.ext->data_ready_at, now);
  }
  // Takes the command at `node` out (it starts); the next command to its block becomes
  // eligible.
  void remove(uint32_t node);

  const Cmd& cmd(uint32_t node) const { return nodes_[node].cmd; }
  // The eligible commands (chain heads), in issue order.
  const std::vector<uint32_t>& eligible() const { return heads_; }
  bool ready(uint32_t node, const sc_core::sc_time& now) const {
    const Cmd& c = nodes_[node].cmd;
    return c.arrival <= now && c.ext->data_ready_at <= now;
  }
  // The earliest time after `now` at which a queued command becomes ready (sc_max_time: none).
  sc_core::sc_time next_ready(const sc_core::sc_time& now);
  // The queued programs at page offset `page` (with `by_page`), eligible or not.
  const std::vector<uint32_t>& programs_at_page(uint32_t page) const {
    return programs_at_page_[page];
  }

 private:
  struct Node {
    Cmd cmd;
    int32_t next = -1;  // the next command to the same block
    bool live = false;
  };
  struct Timer {
    sc_core::sc_time at;
    uint32_t node;
    uint64_t seq;
    bool operator>(const Timer& o) const { return at > o.at; }
  };
  // Notes that the queued command at `node` becomes ready at `at` (if that is still ahead).
  void add_timer(uint32_t node, const sc_core::sc_time& at, const sc_core::sc_time& now);

  uint32_t queued_ = 0;
  std::vector<Node> nodes_;
  std::vector<uint32_t> free_;
  std::vector<uint32_t> heads_;  // nodes that head a chain, in issue order
  std::vector<int32_t> tail_;    // per block: the last node of its chain, or -1
  std::vector<Timer> timers_;    // min-heap; entries of started commands are dropped lazily
  std::vector<std::vector<uint32_t>> programs_at_page_;
  sc_core::sc_time never_;  // sc_max_time(), kept: the kernel computes it on every call
};

}  // namespace ssd::model::flash
