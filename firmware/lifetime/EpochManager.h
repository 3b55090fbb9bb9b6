#pragma once
// The epoch manager of the integrated lifetime manager (Lee et al.; docs/lifetime.md): once
// an epoch it predicts the epoch's write demand and the writes the drive can afford, and
// chooses deduplication, compression and write throttling so the drive lasts its warranty
// with the least energy. Plain arithmetic: no Hal, no simulation.
//
// Demand W: the weighted average of the demand of the last kHistory epochs (the flash pages
// each programmed plus the host pages dedup and compression kept from programming),
// the newest weighing kHistory, the one before kHistory - 1, ... the oldest 1 (fewer epochs
// when fewer have passed). Capacity C: the pages still writable (P/E cycles left x the
// drive's physical pages) over the epochs left until the warranty ends.
//
// Integrated rules, in order: (1) turn on each of dedup and compression that both cuts writes
// (written ratio < 1) and saves energy (energy ratio < 1); (2) if W times the written ratios
// of those on still exceeds C, turn on each other one where (1 - written ratio) >=
// (energy ratio - 1); (3) if still above C, throttle the writes to C. A technique whose
// ratios have never been measured is turned on for the epoch to measure them.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>

#include "config/Choices.h"

namespace ssd::fw::lifetime {

// lifetime.mode; never Off here (the drive has no manager then).
using Mode = config::LifetimeMode;

// What a technique does to the pages it handles: pages programmed per page written, and the
// energy per page written with it over the energy without it (flash writes only).
struct Effect {
  double written_ratio = 1.0;
  double energy_ratio = 1.0;
  bool known = false;  // measured in an earlier epoch
};
// The effect of a technique that leaves `written_ratio` of the pages to program and costs its
// unit `unit_j` per page, where programming a page costs `write_j`.
Effect effect_of(double written_ratio, double unit_j, double write_j);

struct Decision {
  bool dedup = false;
  bool compression = false;
  bool throttle = false;
  double demand = 0;    // W, pages (-1: no epoch has ended yet)
  double capacity = 0;  // C, pages
  double after = 0;     // W with the techniques chosen (-1: unknown)
};

class EpochManager {
 public:
  static constexpr std::size_t kHistory = 10;

  // `epochs` in the warranty; `endurance_pages`: P/E cycles x physical pages.
  EpochManager(Mode mode, double epochs, double endurance_pages)
      : mode_(mode), epochs_(epochs), endurance_(endurance_pages) {}

  // An epoch ended, having programmed `pages` flash pages.
  void close_epoch(double pages);
  // W (-1 before the first epoch has ended).
  double demand() const;
  // C, after `programmed` pages were written since the drive was new.
  double capacity(double programmed) const;
  // The next epoch's plan.
  Decision decide(double programmed, const Effect& dedup, const Effect& compression) const {
    return rules(mode_, demand(), capacity(programmed), dedup, compression);
  }
  // The rules alone (the mode's, for W and C). With no demand known (W < 0) the throttling
  // modes throttle to C from the start.
  static Decision rules(Mode mode, double w, double c, const Effect& dedup,
                        const Effect& compression);

  uint64_t epochs_closed() const { return closed_; }
  double endurance_pages() const { return endurance_; }
  Mode mode() const { return mode_; }

 private:
  Mode mode_;
  double epochs_;
  double endurance_;
  std::deque<double> history_;  // newest last
  uint64_t closed_ = 0;
};

}  // namespace ssd::fw::lifetime
