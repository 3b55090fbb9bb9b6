#pragma once
// Injected NAND faults (flash.faults; docs/reliability.md#injected-faults): each block erase of
// the measured run fails with erase_fail_probability, each page program with
// program_fail_probability, drawn from `seed`, the die, the block, its erases before this one
// (and the page), so a run and its repeat fail alike. A failed erase leaves the block bad: the
// NAND refuses any later command on it. A failed program leaves its page unreadable and the
// block taking no program or erase; its other pages still read. The FTLs retire a block whose
// erase failed (out of the free pool for good) and write a failed page's data again elsewhere,
// retiring its block once its valid data has moved, so the drive's spare blocks shrink.
// Preconditioning (the drive's past) draws no faults. Rates for verification and what-if runs:
// a data sheet gives a part's bad blocks at end of life, not a rate per operation. A die may
// also stop answering for good (dead_die at dead_die_at_ms of the measured run;
// docs/reliability.md#a-die-that-stops-answering): the data it held is lost, reported per
// logical range, and the drive serves the rest.
#include <cstdint>

#include "config/Choices.h"
#include "config/json/Bounds.h"

namespace ssd::config {

struct FaultConfig {
  uint64_t seed = 1;
  double erase_fail_probability = 0.0;
  double program_fail_probability = 0.0;
  DieOutOfRoom die_out_of_room = DieOutOfRoom::ReadOnly;
  uint32_t dead_die = 0;        // the die that stops answering (drive-wide die number)
  double dead_die_at_ms = 0.0;  // when, in the measured run; 0: no die does
  bool any() const {
    return erase_fail_probability > 0.0 || program_fail_probability > 0.0 || dead_die_at_ms > 0.0;
  }
};

// Whether the erase of `block` of `die` after `erases` earlier ones fails: the NAND and the
// firmware (which reads the erase's status) draw the same.
bool erase_fails(const FaultConfig& f, uint32_t die, uint32_t block, uint32_t erases);
// Whether the program of `page` of `block` of `die`, erased `erases` times, fails, likewise.
bool program_fails(const FaultConfig& f, uint32_t die, uint32_t block, uint32_t page,
                   uint32_t erases);

template <class Faults, class V>
void visit_faults(Faults& f, V& v) {
  v("seed", f.seed, at_least(0));
  v("erase_fail_probability", f.erase_fail_probability, up_to(1.0));
  // A failed program's data goes to a fresh block, whose program may fail too: at 1 % a block
  // of a few hundred pages already fails several times before it fills.
  v("program_fail_probability", f.program_fail_probability, up_to(0.01));
  v("die_out_of_room", f.die_out_of_room);
  v("dead_die", f.dead_die, at_least(0));
  v("dead_die_at_ms", f.dead_die_at_ms, up_to(3.6e6));  // an hour
}

}  // namespace ssd::config
