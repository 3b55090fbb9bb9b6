#include "firmware/lifetime/EpochManager.h"

#include <algorithm>

namespace ssd::fw::lifetime {
Effect effect_of(double written_ratio, double unit_j, double write_j) {
  return Effect{written_ratio, (unit_j + written_ratio * write_j) / write_j, true};
}

void EpochManager::close_epoch(double pages) {
  history_.push_back(pages);
  if (history_.size() > kHistory) history_.pop_front();
  ++closed_;
}

double EpochManager::demand() const {
  if (history_.empty()) return -1;
  double sum = 0, weights = 0;
  double w = double(kHistory - history_.size() + 1);  // the oldest kept
  for (double pages : history_) {
    sum += w * pages;
    weights += w;
    w += 1;
  }
  return sum / weights;
}

double EpochManager::capacity(double programmed) const {
  const double left = std::max(1.0, epochs_ - double(closed_));
  return std::max(0.0, endurance_ - programmed) / left;
}

Decision EpochManager::rules(Mode mode, double w, double c, const Effect& dedup,
                             const Effect& compression) {
  Decision d;
  d.demand = w;
  d.capacity = c;
  switch (mode) {
    case Mode::Off:  // no manager is built
    case Mode::Baseline:
      break;
    case Mode::Compression:
      d.compression = true;
      break;
    case Mode::Dedup:
      d.dedup = true;
      break;
    case Mode::Throttling:
      d.throttle = w < 0 || w > c;
      break;
    case Mode::Integrated: {
      // (1) each technique that cuts writes and saves energy (or is still unmeasured).
      auto pays = [](const Effect& e) {
        return !e.known || (e.written_ratio < 1 && e.energy_ratio < 1);
      };
      d.dedup = pays(dedup);
      d.compression = pays(compression);
      double after = w;
      if (d.dedup) after *= dedup.written_ratio;
      if (d.compression) after *= compression.written_ratio;
      // (2) the rest, where the writes saved are worth their extra energy.
      auto worth = [](const Effect& e) { return 1 - e.written_ratio >= e.energy_ratio - 1; };
      if (w < 0 || after > c) {
        if (!d.dedup && worth(dedup)) {
          d.dedup = true;
          after *= dedup.written_ratio;
        }
        if (!d.compression && worth(compression)) {
          d.compression = true;
          after *= compression.written_ratio;
        }
      }
      // (3) throttling, to C.
      d.throttle = w < 0 || after > c;
      d.after = w < 0 ? -1 : after;
      return d;
    }
  }
  d.after = w < 0 ? -1
                  : w * (d.dedup ? dedup.written_ratio : 1) *
                        (d.compression ? compression.written_ratio : 1);
  return d;
}

}  // namespace ssd::fw::lifetime
