#pragma once
// The flash each namespace's data takes (report.json namespaces[].flash_bytes_programmed,
// docs/report.md#namespaces), counted by the logical unit every programmed unit carries: GC
// copies, SLC folds, wear levelling and refreshes count for the namespace whose data they move,
// so a namespace's drive-side write amplification is its own. Units of no namespace (a page-level
// FTL's padding, DFTL's translation pages: their tokens name units past the logical capacity)
// count for none. Nothing is counted when the config lists no namespaces (one namespace of the
// whole drive: the drive's figures are its).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "config/DriveConfig.h"
#include "firmware/Types.h"

namespace ssd::model::controller {

class NamespacePrograms {
 public:
  explicit NamespacePrograms(const config::DriveConfig& cfg) {
    if (cfg.namespaces.empty()) return;
    const std::vector<config::NamespaceRange> layout = cfg.namespace_layout();
    for (std::size_t i = 0; i < layout.size(); ++i)
      ranges_.push_back(Range{layout[i].first_byte / cfg.unit_bytes(),
                              (layout[i].first_byte + layout[i].size_bytes) / cfg.unit_bytes(), i});
    // Conventional ones from unit 0, zoned ones past the logical capacity: by where they lie.
    std::sort(ranges_.begin(), ranges_.end(),
              [](const Range& a, const Range& b) { return a.end < b.end; });
    units_.assign(ranges_.size(), 0);
  }
  // A program of `n` units, `data[u]` each one's content.
  void count(const fw::PageToken* data, uint32_t n) {
    if (ranges_.empty()) return;
    for (uint32_t u = 0; u < n; ++u) {
      const fw::Lpn lpn = data[u].lpn;
      const auto it = std::upper_bound(ranges_.begin(), ranges_.end(), lpn,
                                       [](fw::Lpn l, const Range& r) { return l < r.end; });
      if (it != ranges_.end() && lpn >= it->first) ++units_[it->ns];
    }
  }
  void reset() { std::fill(units_.begin(), units_.end(), 0); }
  // Units programmed per namespace, in config order; empty without namespaces.
  const std::vector<uint64_t>& units() const { return units_; }

 private:
  struct Range {
    uint64_t first = 0, end = 0;  // in logical units, end exclusive
    std::size_t ns = 0;           // config order
  };
  std::vector<Range> ranges_;
  std::vector<uint64_t> units_;
};

}  // namespace ssd::model::controller
