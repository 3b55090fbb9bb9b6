#pragma once
// What a flash channel's sequencer works with: a command from the controller as it waits and
// runs (Cmd), and a die operation (Group): one command, or several on different planes
// (multi-plane) sharing one array time and one bus grant, with the stage it is in.
#include <algorithm>
#include <cstdint>
#include <vector>
#include <systemc>
#include <tlm>

#include "model/SsdExtensions.h"
#include "model/power/PowerBudget.h"
#include "model/power/PowerState.h"

namespace ssd::model::flash {

enum class Stage : uint8_t {
  None,        // no operation
  NeedDataIn,  // program: waits for the bus to move its data in
  DataIn,
  Queued,  // cache program: data in, waits for the array
  Array,
  NeedDataOut,  // read: data in the page register, waits for the bus
  DataOut,
  Suspending,  // a read waits for the array to pause the operation it suspends
  Resuming,
  Decoding,  // a read's data at the ECC engine, a retry step to follow if it fails
};

struct Cmd {
  tlm::tlm_generic_payload* gp = nullptr;
  FlashCommandExt* ext = nullptr;  // not to be read once answered: the payload is reused
  uint64_t seq = 0;                // issue order on the channel
  sc_core::sc_time arrival;
  bool answered = false;
};

struct Group {
  std::vector<Cmd> cmds;
  uint32_t planes = 1;     // planes working together (multi-plane); reads of one page share one
  sc_core::sc_time until;  // end of the current timed stage
  FlashOp kind = FlashOp::Read;
  Stage stage = Stage::None;
  bool settled = false;                           // answered ahead, the die's rest reported
  bool word_line = false;                         // a one-shot program: its word line's pages
  PowerBudget::Slot budget = PowerBudget::kNone;  // its share of the power budget
  sc_core::sc_time left;                          // suspended: array time still to run
  sc_core::sc_time since;                         // when it began to wait for the bus
  sc_core::sc_time started;                       // when the die took it up (or resumed it)
  // Aging NAND (flash.reliability): a read's step (0: its first read) and the retry steps it
  // runs (its commands' most); when the step's array read began and its decode ends; the time
  // its decodes and its retry steps took so far.
  uint8_t step = 0, retries = 0;
  sc_core::sc_time step_start, decode_end, ecc_time, retry_time;
  bool background() const { return cmds.front().ext->background; }  // all are, or none
  bool refresh() const { return cmds.front().ext->refresh; }
  bool empty() const { return cmds.empty(); }
  // Taken up as a new operation: a read's steps start over.
  void begin_steps() {
    step = retries = 0;
    for (const Cmd& c : cmds) retries = std::max(retries, c.ext->retries);
    step_start = decode_end = ecc_time = retry_time = sc_core::SC_ZERO_TIME;
  }
  bool touches(uint32_t block) const {
    for (const Cmd& c : cmds)
      if (c.ext->ppa.block == block) return true;
    return false;
  }
};

// The array operation of a command's kind (its effect on the contents: the die's debug
// transport, and its array phase).
inline FlashOp array_op(FlashOp kind) {
  return kind == FlashOp::Read      ? FlashOp::ArrayRead
         : kind == FlashOp::Program ? FlashOp::ArrayProgram
                                    : FlashOp::ArrayErase;
}

// The power state of a die operation's array time.
inline PowerState array_state(const Group& g) {
  const bool multi = g.planes > 1;
  switch (g.kind) {
    case FlashOp::Read:
      if (g.cmds.front().ext->spare) return PowerState::SpareRead;  // never grouped
      return multi ? PowerState::ReadMultiplane : PowerState::Read;
    case FlashOp::Program:
      return program_state(multi, g.word_line);
    default:
      return multi ? PowerState::EraseMultiplane : PowerState::Erase;
  }
}

}  // namespace ssd::model::flash
