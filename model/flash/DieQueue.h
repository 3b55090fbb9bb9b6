#pragma once
// One die's queue in its channel's sequencer: the commands the channel has accepted for the
// die and not yet started, and the ordering rules that say which of them may start
// (docs/architecture.md#flash-scheduling-channels-and-dies).
//
// The die applies each command's effect on the contents when the channel accepts it, in issue
// order (NandDie.h); these rules make the order in which commands run give the same contents:
// - block_order "in_order" (controller.block_order): commands to one block never pass each
//   other. They form one chain in issue order, of which only the head may start.
// - block_order "nand", the rules a NAND part has: programs to one block go in page order and
//   an erase waits for every earlier command to its block (one chain of programs and erases
//   per block, as above); a read may pass anything queued for its block, except the program
//   of its own page while that is still queued: it waits for that program only. (Once the
//   program has started, the die is busy with it until it ends, and no read suspends an
//   operation on its own block.) The reads of a block wait in two lists in issue order, host
//   reads and background reads, so a host read never waits behind a GC victim's copies.
// Only a chain's or a list's first command is eligible: a GC victim's copies make one chain
// or list, not hundreds of entries to scan. An eligible command is ready once it has arrived,
// its data is in the controller buffer (programs), and (an erase) no earlier read of its block
// is queued. The times at which queued commands become ready sit in a heap, for the channel's
// wake-up.
//
// Plain C++ (no SystemC process): tb/tests/DieQueueTest.cpp drives it without a kernel.
#include <array>
#include <cstdint>
#include <vector>
#include <systemc>

#include "model/flash/DieOperation.h"

namespace ssd::model::flash {

class DieQueue {
 public:
  // `blocks` and `pages_per_block` of the die (all planes); `reads_pass`: block_order "nand";
  // `by_page`: list the queued programs by page offset (a multi-plane wait looks for partners
  // there; "nand" needs them too). `word_line_pages`: the pages of a native-mode program with
  // one-shot programming (flash.program_unit word_line), else 1.
  DieQueue(uint32_t blocks, uint32_t pages_per_block, bool reads_pass, bool by_page,
           uint32_t word_line_pages = 1);

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
  // The queued command at `node` becomes host work (the host waits for the data it brings):
  // a background read moves to its block's list of host reads.
  void promote(uint32_t node);
  // Takes the eligible command at `node` out (it starts); what waited for it may become
  // eligible.
  void remove(uint32_t node);

  const Cmd& cmd(uint32_t node) const { return nodes_[node].cmd; }
  // The eligible commands, in issue order.
  const std::vector<uint32_t>& eligible() const { return heads_; }
  // One-shot programming: a native-mode program is ready with the rest of its word line.
  bool ready(uint32_t node, const sc_core::sc_time& now) const {
    const Cmd& c = nodes_[node].cmd;
    return c.arrival <= now && c.ext->data_ready_at <= now &&
           (c.ext->op != FlashOp::Erase || !reads_pass_ || !earlier_read(c)) &&
           (!one_shot(c) || word_line(node, now, nullptr));
  }
  // Whether `c` is (the first page of) a one-shot word-line program.
  bool one_shot(const Cmd& c) const {
    return word_line_pages_ > 1 && c.ext->op == FlashOp::Program && !c.ext->slc;
  }
  // One-shot programming: whether the programs of the rest of the word line of the program at
  // `node` (its page to the word line's last) are queued right behind it in its block's chain
  // and ready; appends their nodes to `out` (if not null) when they are.
  bool word_line(uint32_t node, const sc_core::sc_time& now, std::vector<uint32_t>* out) const;
  // The earliest time after `now` at which a queued command becomes ready (sc_max_time: none).
  sc_core::sc_time next_ready(const sc_core::sc_time& now);
  // Appends to `out` the ready reads queued right after the read at `node` in its chain or
  // list that read other units of its page: one array read serves them all.
  void same_page_reads(uint32_t node, const sc_core::sc_time& now,
                       std::vector<uint32_t>& out) const;
  // The earliest arrival among the queued commands (sc_max_time: none queued); a scan of the
  // queue, for rare use.
  sc_core::sc_time oldest_arrival() const;
  // The queued programs at page offset `page`, eligible or not.
  const std::vector<uint32_t>& programs_at_page(uint32_t page) const {
    return programs_at_page_[page];
  }

 private:
  static constexpr int32_t kNil = -1;
  struct Node {
    Cmd cmd;
    int32_t next = kNil;     // the next command of its chain or list
    int32_t waiters = kNil;  // a queued program: the first read waiting for it
    bool live = false;
    bool background = false;  // its list of reads, as the command was queued
  };
  // A list of nodes linked by Node::next, in issue order.
  struct List {
    int32_t head = kNil, tail = kNil;
  };
  using Reads = std::array<List, 2>;  // "nand": a block's host reads, background reads
  struct Timer {
    sc_core::sc_time at;
    uint32_t node;
    uint64_t seq;
    bool operator>(const Timer& o) const { return at > o.at; }
  };
  // Appends `id` to `l`; it is eligible if it heads the list.
  void append(List& l, uint32_t id);
  // Puts the read `id` into its list at its place in issue order (it waited for a program).
  void insert_read(uint32_t id);
  List& reads_of(const Node& n) { return reads_[n.cmd.ext->ppa.block][n.background]; }
  // The queued program of the read's page, or kNil.
  int32_t program_of(const Cmd& read) const;
  // Whether a read of the erase's block issued before it is queued.
  bool earlier_read(const Cmd& erase) const;
  void make_eligible(uint32_t id);
  void drop_eligible(uint32_t id);
  // Notes that the queued command at `node` becomes ready at `at` (if that is still ahead).
  void add_timer(uint32_t node, const sc_core::sc_time& at, const sc_core::sc_time& now);

  bool reads_pass_;
  uint32_t word_line_pages_;
  uint32_t queued_ = 0;
  std::vector<Node> nodes_;
  std::vector<uint32_t> free_;
  std::vector<uint32_t> heads_;  // the eligible nodes, in issue order
  std::vector<List> writes_;     // per block: programs and erases ("in_order": every command)
  std::vector<Reads> reads_;     // per block, "nand" only
  std::vector<Timer> timers_;    // min-heap; entries of started commands are dropped lazily
  std::vector<std::vector<uint32_t>> programs_at_page_;
  sc_core::sc_time never_;  // sc_max_time(), kept: the kernel computes it on every call
};

}  // namespace ssd::model::flash
