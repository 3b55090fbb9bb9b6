#pragma once
// The energy monitor's queue of reported, not yet committed power-state transitions, popped
// in the order the drive-level timeline needs: by time, then component id, then report order.
//
// Components report at most a few milliseconds ahead of simulation time and nearly in time
// order: most reports lie within 2 us of the time they are made (a host transfer, the
// controller's work, a DRAM access), some within 16 us (a bus transfer) and the rest about an
// array time ahead (a program's end). So the queue is three sorted runs by how far ahead a
// report is (up to 2 us, up to 64 us, beyond), each an array of the reports that came in order
// and a heap of the few that did not (Run), and popping takes from the front of whichever run
// is earliest. The arrays stay small and in the cache, where a calendar of buckets missed it
// on most reports.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "model/power/PowerState.h"

namespace ssd::model {

class TransitionQueue {
 public:
  static constexpr uint64_t kNever = UINT64_MAX;

  // What a committed transition does to the drive level: it changes the drive's power (and
  // its component's rail's), and for a die the number of dies working and the power of the
  // idle ones.
  struct Entry {
    uint64_t t_ps;
    uint32_t id;
    PowerState state;
    uint8_t rail;
    int8_t working_dies;
    int64_t power_nw;
    int64_t idle_dies_nw;
    // Entries at one time go by component id, then report order: a run keeps that order as
    // it inserts after the equal entries already there.
    bool operator<(const Entry& o) const { return t_ps != o.t_ps ? t_ps < o.t_ps : id < o.id; }
  };

  // `e.t_ps` at or after the last horizon popped, reported at or before `now_ps` (it may be
  // queued after its time has passed); a component's reports in time order, queued in that
  // order with `now_ps` never going back.
  void push(const Entry& e, uint64_t now_ps) {
    const uint64_t ahead = e.t_ps > now_ps ? e.t_ps - now_ps : 0;
    runs_[ahead > kAheadPs[0] ? ahead > kAheadPs[1] ? 2 : 1 : 0].insert(e);
  }

  // The earliest entry's time, kNever if none.
  uint64_t earliest() const {
    return std::min({runs_[0].front_time(), runs_[1].front_time(), runs_[2].front_time()});
  }

  // Removes every entry before `horizon`, in order: v.begin(t) at each new time, then
  // v.entry(e) for each of its entries, then v.end(t).
  template <typename Visitor>
  void pop_before(uint64_t horizon, Visitor&& v) {
    uint64_t current = kNever;
    // Inlined: called from two places, GCC kept it out of line, a call per committed entry.
    const auto take = [&](Run & run) __attribute__((always_inline)) {
      const Entry e = run.front();
      run.pop_front();
      if (e.t_ps != current) {
        if (current != kNever) v.end(current);
        current = e.t_ps;
        v.begin(current);
      }
      v.entry(e);
    };
    // Most entries are near ones: they are taken in a run up to the earliest farther one. Of
    // equal entries the farther run's goes first: one component's reports at one time go to
    // runs no nearer than the ones it made after them, so this keeps report order.
    Run& near = runs_[0];
    for (;;) {
      Run* far = &runs_[2];
      if (!runs_[1].empty() && (far->empty() || runs_[1].front() < far->front())) far = &runs_[1];
      if (far->empty()) {
        while (!near.empty() && near.front().t_ps < horizon) take(near);
        break;
      }
      const Entry limit = far->front();
      while (!near.empty() && near.front().t_ps < horizon && near.front() < limit) take(near);
      if (limit.t_ps >= horizon) break;
      take(*far);
    }
    if (current != kNever) v.end(current);
  }

 private:
  // A run: a growing sorted array ([head, tail)) of the entries reported in order or at most
  // a few places out of it, and a heap beside it of those reported farther back. Shifting
  // the later entries for every late report cost the long preconditioning runs a third of
  // their CPU (many writes' ends, hundreds apart in the run, are reported out of order); the
  // heap for the near ones cost the plain line 5 % more instructions than this.
  class Run {
   public:
    bool empty() const { return head_ == tail_ && late_.empty(); }
    const Entry& front() const { return late_first() ? late_.front().e : buf_[head_]; }
    uint64_t front_time() const { return empty() ? kNever : front().t_ps; }
    void pop_front() {
      if (late_first()) {
        std::pop_heap(late_.begin(), late_.end(), after);
        late_.pop_back();
      } else if (++head_ == tail_) {
        head_ = tail_ = 0;
      }
    }
    void insert(const Entry& e) {
      if (tail_ == head_ || !(e < buf_[tail_ - 1])) {  // the usual case: last so far
        if (tail_ == buf_.size()) make_room();
        buf_[tail_++] = e;
        ++appended_;
        return;
      }
      // Just before a few later ones: moved in among them, after the equal ones (report
      // order), so that the heap stays empty and the front a plain look at the array.
      std::size_t at = tail_ - 1;
      const std::size_t lowest = tail_ - head_ > kShift ? tail_ - kShift : head_;
      while (at > lowest && e < buf_[at - 1]) --at;
      if (at > head_ && e < buf_[at - 1]) {
        // Farther back: to the heap. (An equal report after it would go there too, as it
        // is behind the same later ones: the array never holds a report made after an
        // equal one of the heap.)
        late_.push_back(Late{e, appended_, late_seq_++});
        std::push_heap(late_.begin(), late_.end(), after);
        return;
      }
      const std::size_t offset = at - head_;
      if (tail_ == buf_.size()) make_room();
      at = head_ + offset;
      std::memmove(&buf_[at + 1], &buf_[at], (tail_ - at) * sizeof(Entry));
      buf_[at] = e;
      ++tail_;
      ++appended_;
    }

   private:
    // An entry reported out of order, with its place in report order: how many of the run's
    // entries had been appended to the array then, and its number among the late ones.
    struct Late {
      Entry e;
      uint64_t appended;
      uint64_t seq;
    };
    // Heap order (std::*_heap keep the greatest first): whether `a` goes after `b`.
    static bool after(const Late& a, const Late& b) {
      if (a.e < b.e || b.e < a.e) return b.e < a.e;
      return a.seq > b.seq;
    }
    // Whether the heap's first goes before the array's: earlier, or equal and reported before
    // the array's first was appended (that entry's number is appended_ - its array's size).
    bool late_first() const {
      if (late_.empty()) return false;
      if (head_ == tail_) return true;
      const Late& l = late_.front();
      const Entry& a = buf_[head_];
      if (l.e < a) return true;
      return !(a < l.e) && l.appended <= appended_ - (tail_ - head_);
    }
    void make_room() {
      if (2 * (tail_ - head_) >= buf_.size())
        buf_.resize(std::max<std::size_t>(256, 2 * buf_.size()));
      std::memmove(buf_.data(), buf_.data() + head_, (tail_ - head_) * sizeof(Entry));
      tail_ -= head_;
      head_ = 0;
    }
    static constexpr std::size_t kShift = 8;  // later entries a report moves in past, at most
    std::vector<Entry> buf_;
    std::size_t head_ = 0, tail_ = 0;
    uint64_t appended_ = 0;  // entries ever put in the array
    std::vector<Late> late_;
    uint64_t late_seq_ = 0;
  };

  static constexpr uint64_t kAheadPs[2] = {2'000'000, 64'000'000};
  std::array<Run, 3> runs_;
};

}  // namespace ssd::model
