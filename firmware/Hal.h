#pragma once
// What the firmware sees of the hardware. The controller model implements it with TLM
// transactions on its sockets, so every call costs simulated time and energy; unit tests
// implement it with plain arithmetic.
//
// The firmware runs on one controller core with its own timeline (now()): compute and DRAM
// accesses advance it; flash commands leave the controller one after another, each costing
// the channel switch delay, and return when the flash finishes (the die and the channel bus
// are reserved in order, so a command may finish long after the controller moved on).
#include <cstddef>
#include <cstdint>

#include <systemc>

#include "firmware/Types.h"

namespace ssd::fw {

// What the firmware is doing when it touches the hardware. The controller attributes the
// energy of each operation to it, so mapping-table work and GC show apart from data work.
enum class Work : uint8_t { HostData, Mapping, Gc, WearLeveling, Merge };
inline constexpr std::size_t kWorkCount = 5;
inline const char* to_string(Work w) {
  static constexpr const char* kNames[kWorkCount] = {"host_data", "mapping", "gc",
                                                     "wear_leveling", "merge"};
  return kNames[static_cast<std::size_t>(w)];
}

class Hal {
 public:
  // Marks the calls made while it lives as `w` (nests: the outer kind returns after).
  class Scope {
   public:
    Scope(Hal& hal, Work w) : hal_(hal), outer_(hal.work_) { hal.work_ = w; }
    ~Scope() { hal_.work_ = outer_; }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    Hal& hal_;
    Work outer_;
  };

  virtual ~Hal() = default;
  Work work() const { return work_; }
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

 private:
  Work work_ = Work::HostData;
};

}  // namespace ssd::fw
