#pragma once
// BAST*'s data blocks in the order its wear levelling looks for the coldest
// (firmware/ftl/BastStarFtl.h): never erased first, the one holding the oldest data first;
// then the others, erased least recently first. The firmware examines every data block of
// the die (and is charged for it); the simulator finds the same block without walking them
// all, from two queues per die whose keys only grow, so each change is an append:
// - blocks never erased, by the write stamp of the data put in them;
// - every erase, by its stamp (the erase sequence number).
// An entry whose block has been erased or rewritten since is stale: the caller tells which
// are live. Stale entries are dropped as a search meets them; the erase queue is rebuilt
// from its live entries once it holds more than twice the die's blocks. An erase entry keeps
// the block's erase count, which holds while the entry is live: blocks too worn to be chosen
// (they gather at the front: hot blocks given cold data) are passed over without a look at
// the block.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "firmware/StateArchive.h"

namespace ssd::fw {

class DataBlockAges {
 public:
  static constexpr uint32_t kNone = ~0u;

  DataBlockAges(uint32_t dies, uint32_t blocks_per_die)
      : blocks_per_die_(blocks_per_die), dies_(dies) {}

  // A never-erased block of the die was given data written at `since`.
  void filled(uint32_t die, uint64_t since, uint32_t block) {
    dies_[die].never_erased.push_back(Entry{since, block, 0});
  }
  // A block of the die was erased, with erase stamp `stamp` (larger than any before), and has
  // now been erased `erases` times. `live(stamp, block)`: whether an entry still holds (the
  // block's last erase).
  template <class Live>
  void erased(uint32_t die, uint64_t stamp, uint32_t block, uint32_t erases, Live live) {
    auto& q = dies_[die].erases;
    q.push_back(Entry{stamp, block, erases});
    if (q.size() > 2 * size_t(blocks_per_die_)) {
      std::deque<Entry> kept;
      for (const Entry& e : q)
        if (live(e.stamp, e.block)) kept.push_back(e);
      q.swap(kept);
    }
  }
  // The die's coldest data block erased fewer than `below` times, or kNone. `never_live` and
  // `erase_live` (stamp, block): whether an entry of each queue still holds; `is_data(block)`.
  template <class NeverLive, class EraseLive, class IsData>
  uint32_t coldest(uint32_t die, uint64_t below, NeverLive never_live, EraseLive erase_live,
                   IsData is_data) {
    auto& never = dies_[die].never_erased;
    while (!never.empty() && !never_live(never.front().stamp, never.front().block))
      never.pop_front();
    if (!never.empty() && below > 0) return never.front().block;
    // The walk drops the stale entries it looks at (each once), keeping the others in order.
    auto& q = dies_[die].erases;
    size_t kept = 0, i = 0;
    uint32_t found = kNone;
    for (; i < q.size() && found == kNone; ++i) {
      const Entry e = q[i];
      if (e.erases < below) {
        if (!erase_live(e.stamp, e.block)) continue;
        if (is_data(e.block)) found = e.block;
      }
      q[kept++] = e;
    }
    q.erase(q.begin() + ptrdiff_t(kept), q.begin() + ptrdiff_t(i));
    return found;
  }

  // Saves or loads the orders (a saved aged drive).
  void state(StateArchive& a) {
    for (Die& d : dies_)
      for (std::deque<Entry>* q : {&d.never_erased, &d.erases}) {
        std::vector<Entry> v(q->begin(), q->end());
        a.array(v, 2 * uint64_t(blocks_per_die_) + 1, "data block ages");
        if (!a.loading()) continue;
        for (const Entry& e : v)
          if (e.block >= blocks_per_die_)
            StateArchive::out_of_range("aged block", e.block, blocks_per_die_);
        q->assign(v.begin(), v.end());
      }
  }

 private:
  struct Entry {
    uint64_t stamp;
    uint32_t block;
    uint32_t erases;
  };
  struct Die {
    std::deque<Entry> never_erased, erases;
  };

  uint32_t blocks_per_die_;
  std::vector<Die> dies_;
};

}  // namespace ssd::fw
