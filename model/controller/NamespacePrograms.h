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
    for (const config::NamespaceRange& ns : cfg.namespace_layout())
      ends_.push_back((ns.first_byte + ns.size_bytes) / cfg.unit_bytes());
    units_.assign(ends_.size(), 0);
  }
  // A program of `n` units, `data[u]` each one's content.
  void count(const fw::PageToken* data, uint32_t n) {
    if (ends_.empty()) return;
    for (uint32_t u = 0; u < n; ++u) {
      const auto it = std::upper_bound(ends_.begin(), ends_.end(), data[u].lpn);
      if (it != ends_.end()) ++units_[std::size_t(it - ends_.begin())];
    }
  }
  void reset() { std::fill(units_.begin(), units_.end(), 0); }
  // Units programmed per namespace, in config order; empty without namespaces.
  const std::vector<uint64_t>& units() const { return units_; }

 private:
  std::vector<uint64_t> ends_;  // each namespace's end (exclusive), in logical units
  std::vector<uint64_t> units_;
};

}  // namespace ssd::model::controller
