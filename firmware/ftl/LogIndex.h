#pragma once
// Where the current copies in a block-mapped FTL's log blocks are (firmware/ftl/LogBlockFtl.h):
// per logical block, a list of its log pages, newest first. A look-up walks only its logical
// block's log pages (none for most blocks), and a merge visits those instead of every offset
// of the block, so keeping the index costs what the log holds, not what the drive or a block
// holds. The list's head lives with the caller's other per-block fields (one cache line per
// logical block). A simulator structure: the modelled firmware's DRAM accesses are charged by
// the FTL, whatever this costs.
//
// Log pages are numbered across the drive: (die x log blocks per die + slot) x pages per block
// + page.
#include <cstdint>
#include <vector>

#include "common/Prefetch.h"
#include "firmware/StateArchive.h"

namespace ssd::fw {

class LogIndex {
 public:
  static constexpr uint32_t kNil = ~0u;

  LogIndex(uint32_t pages_per_block, uint64_t log_pages)
      : ppb_(pages_per_block), nodes_(log_pages) {}

  // Whether log page `page` holds the current copy of the logical page written there.
  bool live(uint32_t page) const { return nodes_[page].offset != kNil; }
  // Of the list at `head`, the log page holding offset `offset`, or kNil.
  uint32_t find(uint32_t head, uint32_t offset) const {
    for (uint32_t p = head; p != kNil; p = nodes_[p].next)
      if (nodes_[p].offset == offset) return p;
    return kNil;
  }
  void add(uint32_t& head, uint32_t offset, uint32_t page) {
    nodes_[page] = Node{head, kNil, offset};
    if (head != kNil) nodes_[head].prev = page;
    head = page;
  }
  void remove(uint32_t& head, uint32_t page) {
    Node& n = nodes_[page];
    if (n.prev != kNil)
      nodes_[n.prev].next = n.next;
    else
      head = n.next;
    if (n.next != kNil) nodes_[n.next].prev = n.prev;
    n = Node{};
  }
  // The list goes on from `page` (a page may be removed once next() has been taken from it).
  uint32_t next(uint32_t page) const { return nodes_[page].next; }
  uint32_t offset(uint32_t page) const { return nodes_[page].offset; }
  void prefetch(uint32_t page) const { ssd::prefetch(&nodes_[page]); }
  // Whether the list at `head` has a page in log pages [from, from + pages per block).
  bool in_block(uint32_t head, uint32_t from) const {
    for (uint32_t p = head; p != kNil; p = nodes_[p].next)
      if (p - from < ppb_) return true;
    return false;
  }

  // Saves or loads the lists (a saved aged drive).
  void state(StateArchive& a) {
    a.fixed(nodes_, "log index");
    if (!a.loading()) return;
    const uint64_t pages = nodes_.size();
    for (const Node& n : nodes_)
      if ((n.next != kNil && n.next >= pages) || (n.prev != kNil && n.prev >= pages) ||
          (n.offset != kNil && n.offset >= ppb_))
        StateArchive::invalid("log index: a page or offset out of range");
  }

 private:
  struct Node {
    uint32_t next = kNil;
    uint32_t prev = kNil;
    uint32_t offset = kNil;  // kNil: the page holds no current copy
  };

  uint32_t ppb_;
  std::vector<Node> nodes_;  // per log page
};

}  // namespace ssd::fw
