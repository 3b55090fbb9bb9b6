#pragma once
// What the firmware sees of the hardware. The controller model implements it with TLM
// transactions on its sockets, so every call costs simulated time and energy; unit tests
// implement it with plain arithmetic.
//
// The firmware runs on one controller core with its own timeline (now()): compute and DRAM
// accesses advance it; flash commands leave the controller one after another, each costing
// the channel switch delay, and return when the flash finishes (the die and the channel bus
// are reserved in order, so a command may finish long after the controller moved on).
#include <cstdint>

#include <systemc>

#include "firmware/Types.h"

namespace ssd::fw {

class Hal {
 public:
  virtual ~Hal() = default;
  virtual sc_core::sc_time now() const = 0;
  virtual void compute(const sc_core::sc_time& duration) = 0;
  // `entries` mapping-table entries read or written back to back; the controller waits.
  virtual void dram_access(uint32_t entries, bool write) = 0;
  // Returns when the page's data is in the controller buffer.
  virtual sc_core::sc_time flash_read(const Ppa& ppa, PageToken& out) = 0;
  // The data must be in the controller buffer by `data_ready`; returns when programmed.
  virtual sc_core::sc_time flash_program(const Ppa& ppa, const PageToken& data,
                                         const sc_core::sc_time& data_ready) = 0;
  // Returns when the block is erased.
  virtual sc_core::sc_time flash_erase(uint32_t die, uint32_t block) = 0;
};

}  // namespace ssd::fw
