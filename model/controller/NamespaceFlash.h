#pragma once
// What each namespace's data costs the flash (report.json namespaces[].flash_bytes_programmed
// and .flash_energy_j, docs/report.md#namespaces), known by the logical unit every unit carries:
// GC copies, SLC folds, wear levelling and refreshes count for the namespace whose data they
// move, so a namespace's drive-side write amplification and flash energy are its own.
// - Units programmed.
// - The energy of the flash operations on its data (FlashCommandExt::energy_j, as
//   energy_by_work_j counts it): a read's for the namespace of the unit it read; a program's
//   split by the units of each namespace it holds; an erase's by the units of each namespace
//   the block held when it was issued (the blocks its data used).
// Units of no namespace (a page-level FTL's padding, DFTL's translation pages: their tokens
// name units past the logical capacity), and erases of blocks that held none of a namespace's,
// count for none (`unattributed`). Nothing is counted when the config lists no namespaces (one
// namespace of the whole drive: the drive's figures are its).
#include <cstdint>
#include <vector>

#include "config/DriveConfig.h"
#include "firmware/Types.h"
#include "model/SsdExtensions.h"

namespace ssd::model::controller {

// Joules of flash operations, by kind.
struct FlashEnergy {
  double read_j = 0, program_j = 0, erase_j = 0;
};

class NamespaceFlash {
 public:
  explicit NamespaceFlash(const config::DriveConfig& cfg);
  bool on() const { return !ranges_.empty(); }

  // A program of `n` units, `data[u]` each one's content.
  void programmed(const fw::PageToken* data, uint32_t n);
  // The erase in op slot `slot` was issued on a block holding the `n` units `contents`.
  void erasing(uint32_t slot, const fw::PageToken* contents, uint32_t n);
  // The operation in op slot `slot` ended, its energy in `ext`.
  void ended(uint32_t slot, const FlashCommandExt& ext);
  // The run starts: nothing counted so far (preconditioning) counts.
  void reset();

  // Per namespace, in config order; empty without namespaces.
  const std::vector<uint64_t>& units() const { return units_; }
  const std::vector<FlashEnergy>& energy() const { return energy_; }
  const FlashEnergy& unattributed() const { return unattributed_; }

 private:
  struct Range {
    uint64_t first = 0, end = 0;  // in logical units, end exclusive
    std::size_t ns = 0;           // config order
  };
  static constexpr std::size_t kNone = ~std::size_t{0};
  std::size_t of(fw::Lpn lpn) const;
  // The `n` units' count per namespace (then of none) into `into`.
  void tally(const fw::PageToken* data, uint32_t n, std::vector<uint32_t>& into) const;
  // `j` into `field` of each namespace by its share of `units` (tally()'s); all of it to none
  // when they are empty.
  void book(const std::vector<uint32_t>& units, double j, double FlashEnergy::*field);
  FlashEnergy& of_ns(std::size_t ns) { return ns == kNone ? unattributed_ : energy_[ns]; }

  std::vector<Range> ranges_;
  std::vector<uint64_t> units_;
  std::vector<FlashEnergy> energy_;
  FlashEnergy unattributed_;
  // By op slot, an erase's block's units per namespace (then of none), from its issue to its end.
  std::vector<std::vector<uint32_t>> erased_;
  std::vector<uint32_t> shares_;  // scratch: units per namespace (then of none)
};

}  // namespace ssd::model::controller
