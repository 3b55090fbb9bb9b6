#pragma once
// A channel's bus: which die's transfer holds it and until when, and the choice of the next
// transfer among those that wait. The bus goes to the waiting transfer of best rank
// (SchedulingPolicy), then oldest command; a die whose transfer waits does not hold back
// another die's.
#include <cstdint>
#include <systemc>

namespace ssd::model::flash {

class BusArbiter {
 public:
  // Which of a die's operations a transfer is: its current one, the staged program (cache
  // program), or (independent plane reads) the read of plane p at kRead0 + p.
  static constexpr uint32_t kCur = 0, kStaged = 1, kRead0 = 2;

  bool held() const { return holder_ >= 0; }
  // Held by a transfer that ends after `t`.
  bool busy_at(const sc_core::sc_time& t) const { return holder_ >= 0 && until_ > t; }
  uint32_t holder() const { return uint32_t(holder_); }
  // The transfer is a staged (cache program) operation's.
  bool staged() const { return slot_ == kStaged; }
  uint32_t slot() const { return slot_; }
  const sc_core::sc_time& until() const { return until_; }

  void grant(uint32_t die, uint32_t slot, const sc_core::sc_time& until) {
    holder_ = int(die);
    slot_ = slot;
    until_ = until;
  }
  void release() { holder_ = -1; }
  // The staged operation holding the bus became the die's current one.
  void unstage() { slot_ = kCur; }

  // One choice: every waiting transfer is offered, the best is granted.
  class Choice {
   public:
    void offer(uint32_t die, uint32_t slot, uint32_t rank, uint64_t seq) {
      if (rank < rank_ || (rank == rank_ && seq < seq_)) {
        die_ = int(die);
        slot_ = slot;
        rank_ = rank;
        seq_ = seq;
      }
    }
    bool any() const { return die_ >= 0; }
    uint32_t die() const { return uint32_t(die_); }
    uint32_t slot() const { return slot_; }

   private:
    int die_ = -1;
    uint32_t slot_ = kCur;
    uint32_t rank_ = ~0u;
    uint64_t seq_ = ~uint64_t{0};
  };

 private:
  int holder_ = -1;  // the die whose transfer holds the bus; -1: free
  uint32_t slot_ = kCur;
  sc_core::sc_time until_;
};

}  // namespace ssd::model::flash
