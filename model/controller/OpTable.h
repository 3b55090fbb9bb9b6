#pragma once
// The flash commands the controller has sent, by slot, each with its own payload (the channels
// answer later, and the payload carries the command there and back). An id is
// (generation << 32) | (slot + 1). A command answered ahead keeps its slot until its end has
// passed, since until then its id must still give its end (a later program's data, a host
// command's completion); the slot's generation is bumped when it is freed, so a stale id reads
// as "long over".
//
// Plain C++: tb/tests/ControllerPartsTest.cpp.
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>

#include "firmware/Hal.h"
#include "model/SsdExtensions.h"
#include "model/controller/CriticalPath.h"

namespace ssd::model::controller {

struct Op {
  tlm::tlm_generic_payload gp;
  FlashCommandExt* ext = nullptr;  // owned by gp
  uint32_t gen = 1;                // bumped when the slot is freed: stale ids are "done"
  bool live = false;
  bool ended = false;  // answered; its end is known (live until it has passed)
  sc_core::sc_time end;
  fw::Work work = fw::Work::HostData;
  int32_t command = -1;  // the host command waiting for it
  // Others waiting for it too: flushes (or placement updates) in flight side by side each wait
  // for every destage on its way to flash.
  std::vector<int32_t> more_commands;
  // Program: when it may start at the earliest, by its data (host data in the buffer, the read
  // bringing it ended) and by its room (`after`, the erase garbage collection freed it with,
  // ended), and how many of those commands are still in flight.
  sc_core::sc_time data_floor, room_floor;
  fw::OpId data_from = fw::kNoOp, after = fw::kNoOp;
  // A read served from the controller buffer: never sent; it ends when the program's data is
  // there (`data_floor`, or its data source's end). `issued`: when the core asked.
  bool buffer = false;
  bool from_gc = false;  // its data comes from a GC copy's read
  sc_core::sc_time issued;
  uint32_t sources = 0;
  // How long it waited for garbage collection: at its die (FlashCommandExt::gc_wait) and, held
  // for room, past the time its data was there; of its wait at the die, behind read refresh.
  sc_core::sc_time gc_wait, refresh_wait;
  // For the latency breakdown: its start at the die and its wait for power there; the core's
  // waits for the host command that issued it, up to its issue.
  sc_core::sc_time started, power_wait, throttle;
  // Aging NAND: its retry steps' and decodes' time, and whether no step corrected its data.
  sc_core::sc_time retry_time, ecc_time;
  bool uncorrectable = false;
  CoreWaits core;
  std::vector<uint32_t> waiters;  // programs waiting for this command (its data, its room)

  // Its part of a host command's critical path, once it has ended.
  FlashPath path() const;
};

class OpTable {
 public:
  // The live command `id` names, or null (kNoOp, or long over).
  Op* live(fw::OpId id) {
    const uint64_t slot = id & 0xffffffffu;
    if (slot == 0 || slot > ops_.size()) return nullptr;
    Op& op = at(uint32_t(slot - 1));
    return op.live && op.gen == uint32_t(id >> 32) ? &op : nullptr;
  }
  Op& at(uint32_t slot) { return *ops_[slot]; }
  fw::OpId id_of(uint32_t slot) const { return (uint64_t(ops_[slot]->gen) << 32) | (slot + 1); }
  static uint32_t slot_of(fw::OpId id) { return uint32_t((id & 0xffffffffu) - 1); }

  // A fresh slot (`slot`) for a command of `work`, live and in flight. First the ended
  // commands whose end has passed by `now` are retired, `retire(slot)` called for each before
  // its slot is freed.
  template <class Retire>
  [[gnu::always_inline]] Op& make(const sc_core::sc_time& now, fw::Work work, uint32_t& slot,
                                  Retire retire) {
    while (!retiring_.empty() && at(retiring_.front()).end <= now) {
      const uint32_t done = retiring_.front();
      retiring_.pop_front();
      retire(done);
      at(done).live = false;
      ++at(done).gen;
      free_.push_back(done);
    }
    Op* op;
    if (free_.empty()) {
      slot = uint32_t(ops_.size());
      op = ops_.emplace_back(std::make_unique<Op>()).get();
      op->ext = new FlashCommandExt;
      op->gp.set_extension(op->ext);  // the payload owns and frees it
    } else {
      slot = free_.back();
      free_.pop_back();
      op = &at(slot);
    }
    op->live = true;
    op->ended = false;
    op->work = work;
    op->command = -1;
    op->more_commands.clear();
    op->buffer = false;
    ++in_flight_;
    return *op;
  }
  // The command in `slot` has ended (answered, its end known): no longer in flight, retired
  // once its end has passed.
  void ended(uint32_t slot) {
    retiring_.push_back(slot);
    --in_flight_;
  }
  // Commands made and not yet ended.
  uint32_t in_flight() const { return in_flight_; }

 private:
  std::vector<std::unique_ptr<Op>> ops_;  // by slot; an Op never moves (payloads point to it)
  std::vector<uint32_t> free_;
  // Ended commands in the order they were answered, freed from the front once its end has
  // passed (ends are not in order: a slot may wait a little longer than it must).
  std::deque<uint32_t> retiring_;
  uint32_t in_flight_ = 0;
};

}  // namespace ssd::model::controller
