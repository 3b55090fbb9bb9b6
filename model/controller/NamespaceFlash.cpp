#include "model/controller/NamespaceFlash.h"

#include <algorithm>

namespace ssd::model::controller {

NamespaceFlash::NamespaceFlash(const config::DriveConfig& cfg) {
  if (cfg.namespaces.empty()) return;
  const std::vector<config::NamespaceRange> layout = cfg.namespace_layout();
  for (std::size_t i = 0; i < layout.size(); ++i)
    ranges_.push_back(Range{layout[i].first_byte / cfg.unit_bytes(),
                            (layout[i].first_byte + layout[i].size_bytes) / cfg.unit_bytes(), i});
  // Conventional ones from unit 0, zoned ones past the logical capacity: by where they lie.
  std::sort(ranges_.begin(), ranges_.end(),
            [](const Range& a, const Range& b) { return a.end < b.end; });
  units_.assign(ranges_.size(), 0);
  energy_.assign(ranges_.size(), FlashEnergy{});
}

std::size_t NamespaceFlash::of(fw::Lpn lpn) const {
  const auto it = std::upper_bound(ranges_.begin(), ranges_.end(), lpn,
                                   [](fw::Lpn l, const Range& r) { return l < r.end; });
  return it != ranges_.end() && lpn >= it->first ? it->ns : kNone;
}

void NamespaceFlash::programmed(const fw::PageToken* data, uint32_t n) {
  if (!on()) return;
  for (uint32_t u = 0; u < n; ++u)
    if (const std::size_t ns = of(data[u].lpn); ns != kNone) ++units_[ns];
}

void NamespaceFlash::tally(const fw::PageToken* data, uint32_t n,
                           std::vector<uint32_t>& into) const {
  into.assign(ranges_.size() + 1, 0);
  for (uint32_t u = 0; u < n; ++u) {
    const std::size_t ns = of(data[u].lpn);
    ++into[ns == kNone ? ranges_.size() : ns];
  }
}

void NamespaceFlash::book(const std::vector<uint32_t>& units, double j,
                          double FlashEnergy::*field) {
  uint64_t total = 0;
  for (const uint32_t n : units) total += n;
  if (total == 0) {  // none of anybody's data: an erase of a block that held nothing
    unattributed_.*field += j;
    return;
  }
  for (std::size_t i = 0; i < units.size(); ++i)
    if (units[i] != 0)
      of_ns(i == ranges_.size() ? kNone : i).*field += j * double(units[i]) / double(total);
}

void NamespaceFlash::erasing(uint32_t slot, const fw::PageToken* contents, uint32_t n) {
  if (erased_.size() <= slot) erased_.resize(slot + 1);
  tally(contents, n, erased_[slot]);
}

void NamespaceFlash::ended(uint32_t slot, const FlashCommandExt& ext) {
  switch (ext.op) {
    case FlashOp::Read:
      of_ns(of(ext.data.lpn)).read_j += ext.energy_j;
      break;
    case FlashOp::Program:
      if (ext.units == 1) {
        of_ns(of(ext.data.lpn)).program_j += ext.energy_j;
        break;
      }
      tally(ext.unit_data.data(), ext.units, shares_);
      book(shares_, ext.energy_j, &FlashEnergy::program_j);
      break;
    case FlashOp::Erase:
      book(erased_.at(slot), ext.energy_j, &FlashEnergy::erase_j);
      break;
    default:
      break;
  }
}

void NamespaceFlash::reset() {
  std::fill(units_.begin(), units_.end(), 0);
  std::fill(energy_.begin(), energy_.end(), FlashEnergy{});
  unattributed_ = FlashEnergy{};
}

}  // namespace ssd::model::controller
