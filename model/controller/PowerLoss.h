#pragma once
// A loss of the drive's supply (power.hold_up, docs/reliability.md#power-loss). From its time
// on the controller takes no more host commands; once the firmware step in hand has ended it
// puts what the drive holds on flash (the write buffer's pages, the open word lines padded),
// on the energy of its hold-up capacitors, and the run ends when the last flash command has.
// This part keeps the times of that and the host data of the programs that ended after the
// loss, with when each ended: the data whose program ended after the capacitors ran out never
// reached flash (the scoreboard counts what of it the host had been told was written).
//
// Plain C++: tb/tests/PowerLossTest.cpp.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "firmware/Hal.h"
#include "firmware/Types.h"

namespace ssd::model::controller {

class PowerLoss {
 public:
  // `at`: the loss; sc_max_time() for none.
  explicit PowerLoss(const sc_core::sc_time& at) : at_(at), armed_(at != sc_core::sc_max_time()) {}
  bool armed() const { return armed_; }  // on every flash command: no kernel call
  const sc_core::sc_time& at() const { return at_; }

  // Program `id` was issued with `units` units of `data`; bit u of `from_host` set: unit u is
  // host data (not brought by a read: a copy's or a partial write's old data stays where it
  // was until the program has ended).
  void programming(fw::OpId id, const fw::PageToken* data, uint32_t units, uint32_t from_host);
  // Command `id` ends at `end` (nothing if it is not a program with host data; a translation
  // page's or a padding's token names no host version, which the scoreboard passes over).
  void ended(fw::OpId id, const sc_core::sc_time& end);

  // The firmware began putting the drive's data on flash at `t`; the last flash command it or
  // anything before it started ended at `end`, with `pages` host pages taken from the buffer.
  void flush_started(const sc_core::sc_time& t) { flush_start_ = t; }
  void flush_ended(const sc_core::sc_time& end, uint64_t pages) {
    flush_end_ = end;
    flushed_pages_ = pages;
    flushed_ = true;
  }
  bool flushed() const { return flushed_; }
  const sc_core::sc_time& flush_start() const { return flush_start_; }
  const sc_core::sc_time& flush_end() const { return flush_end_; }
  uint64_t flushed_pages() const { return flushed_pages_; }

  // A unit of host data whose program ended at or after the loss.
  struct Late {
    fw::PageToken data;
    sc_core::sc_time end;
  };
  const std::vector<Late>& late() const { return late_; }
  // Those whose program ended after `t` (the capacitors ran out), in the order they ended.
  std::vector<fw::PageToken> ended_after(const sc_core::sc_time& t) const;

 private:
  struct Program {
    std::vector<fw::PageToken> data;  // its host units
  };
  sc_core::sc_time at_;
  bool armed_;
  std::unordered_map<fw::OpId, Program> in_flight_;
  std::vector<Late> late_;
  sc_core::sc_time flush_start_, flush_end_;
  uint64_t flushed_pages_ = 0;
  bool flushed_ = false;
};

}  // namespace ssd::model::controller
