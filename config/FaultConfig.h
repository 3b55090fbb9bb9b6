#pragma once
// Injected NAND faults (flash.faults; docs/reliability.md#injected-faults): each block erase of
// the measured run fails with erase_fail_probability, drawn from `seed`, the die, the block and
// its erases before this one, so a run and its repeat fail alike. A failed erase leaves the
// block bad: the NAND refuses any later command on it, and the page-level FTLs retire it (out of
// the free pool for good), so the drive's spare blocks shrink. Preconditioning (the drive's past)
// draws no faults. Rates for verification and what-if runs: a data sheet gives a part's bad
// blocks at end of life, not a rate per erase.
#include <cstdint>

#include "config/json/Bounds.h"

namespace ssd::config {

struct FaultConfig {
  uint64_t seed = 1;
  double erase_fail_probability = 0.0;
  bool any() const { return erase_fail_probability > 0.0; }
};

// Whether the erase of `block` of `die` after `erases` earlier ones fails: the NAND and the
// firmware (which reads the erase's status) draw the same.
bool erase_fails(const FaultConfig& f, uint32_t die, uint32_t block, uint32_t erases);

template <class Faults, class V>
void visit_faults(Faults& f, V& v) {
  v("seed", f.seed, at_least(0));
  v("erase_fail_probability", f.erase_fail_probability, up_to(1.0));
}

}  // namespace ssd::config
