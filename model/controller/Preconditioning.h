#pragma once
// Preconditioning ages the drive before the measured run (docs/ftl.md#preconditioning): at the
// start of simulation the firmware writes the first `fill_fraction` of the logical pages (all
// of them by default) once in order, then `random_fraction` x those pages at random among
// them, functionally (the controller charges no time
// and no energy, and flash goes by debug transport), all with version 0 tokens. Bulk computes
// the state those writes leave where the FTL can (page FTL, greedy GC, no wear levelling);
// Simulate, or Bulk where the FTL cannot, runs them through the firmware.
#include <cstdint>
#include <functional>

#include "firmware/Firmware.h"

namespace ssd::model::controller {

class Preconditioning {
 public:
  enum class Mode { Bulk, Simulate };
  struct Stats {
    bool done = false;
    bool bulk = false;  // computed in bulk (else simulated)
    double fill_fraction = 1;
    double random_fraction = 0;
    uint64_t pages_written = 0;  // host pages written by preconditioning (sequential + random)
    double wall_s = 0;
    double cpu_s = 0;  // of the simulator's process
  };

  // Told how far preconditioning is: (page writes done, of all), at the start and the end;
  // in between every so many writes when they are simulated (bulk: nothing in between).
  using Progress = std::function<void(uint64_t done, uint64_t total)>;

  void request(double fill_fraction, double random_fraction, Mode mode, Progress progress = {}) {
    requested_ = true;
    fill_fraction_ = fill_fraction;
    random_fraction_ = random_fraction;
    mode_ = mode;
    progress_ = std::move(progress);
  }
  bool requested() const { return requested_; }
  // Ages the drive of `logical_pages` pages through `firmware`, whose flash and DRAM cost
  // nothing meanwhile; then zeroes the firmware's figures. A firmware failure is a model error
  // (reported; the stats say not done).
  void run(fw::Firmware& firmware, uint64_t logical_pages);
  const Stats& stats() const { return stats_; }
  // A saved aged drive (tb/run/StateFile.h) took preconditioning's place: what it reports.
  void restore(const Stats& s) { stats_ = s; }

 private:
  bool requested_ = false;
  double fill_fraction_ = 1;
  double random_fraction_ = 0;
  Mode mode_ = Mode::Bulk;
  Progress progress_;
  Stats stats_;
};

}  // namespace ssd::model::controller
