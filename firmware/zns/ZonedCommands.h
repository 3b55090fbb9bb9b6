#pragma once
// The drive's zoned namespaces as the firmware serves them: each its zone mapping over its band
// of blocks at the end of every plane (after the FTL's, config::DriveConfig::ftl_flash) and its
// ZonedNamespace, reached by the drive's logical bytes past the FTL's capacity
// (config::namespace_layout). A host command's bytes become the namespace's logical blocks; what
// the zone state machine refuses fails (its NVMe status counted), what it accepts costs the
// programs and reads its zones' flash side issues. Plain C++ against the Hal.
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "config/DriveConfig.h"
#include "firmware/Hal.h"
#include "firmware/Statistics.h"
#include "firmware/Types.h"
#include "firmware/zns/ZoneMapping.h"
#include "firmware/zns/ZonedNamespace.h"

namespace ssd::fw {
struct HostCommand;
}

namespace ssd::fw::zns {

struct ZonedCommandStats {
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t appends = 0;
  uint64_t zone_actions = 0;  // management actions served
  uint64_t zone_reports = 0;  // Report Zones served
  uint64_t refused = 0;       // by the zone state machine, or not whole logical blocks
  uint64_t trims = 0;         // refused too: a zoned namespace frees data by zone resets
  uint64_t unit_reads = 0;    // units the reads covered, on the flash or in the buffer
  uint64_t cache_waits = 0;   // writes that waited for older cached data's programs
};

class ZonedCommands {
 public:
  // Every zoned namespace of `cfg` (validated), on `hal`.
  ZonedCommands(const config::DriveConfig& cfg, Hal& hal);

  bool empty() const { return spaces_.empty(); }
  // Whether the drive's logical byte lies in a zoned namespace.
  bool owns(uint64_t offset_bytes) const {
    return !spaces_.empty() && offset_bytes >= spaces_.front().first_byte;
  }
  // A read, write, append, trim or zone management command of a zoned namespace's bytes
  // (owns(cmd.offset_bytes)): the flash commands it waits for go to `done.ops` (a reset's erases,
  // a finish's programs), a refusal sets done.failed and done.status, an append's location goes
  // to done.appended_lba; a read's `read_data` gets a token per mapping unit covered
  // (unwritten: the unit's, version 0).
  void execute(const HostCommand& cmd, Completion& done, std::vector<PageToken>* read_data);

  // The zoned namespace whose first byte of the drive's logical bytes is `first_byte`
  // (config::NamespaceRange::first_byte), or nullptr.
  const ZonedNamespace* find(uint64_t first_byte) const {
    for (const Space& s : spaces_)
      if (s.first_byte == first_byte) return s.ns.get();
    return nullptr;
  }
  // Zones open (implicitly or explicitly) now, and zones reset so far, over the namespaces.
  uint32_t open_zones() const;
  uint64_t zones_reset() const;
  // report.json's `zoned` object, over every zoned namespace (docs/report.md).
  const Statistics& statistics() const { return statistics_; }
  // Zeroes the command counts (after preconditioning; the zones' own counts start with them).
  void reset_stats() { statistics_.reset(); }

 private:
  struct Space {
    uint64_t first_byte = 0;
    uint64_t size_bytes = 0;
    uint32_t lba_bytes = 0;
    Lpn first_lpn = 0;
    std::unique_ptr<ZoneMapping> mapping;
    std::unique_ptr<ZonedNamespace> ns;
    // The write cache (zones.write_cache_bytes; 0: none), in pages: the programs of the data
    // it holds, oldest first, a page each.
    uint64_t cache_pages = 0;
    std::deque<OpId> cached;
  };

  Space& space_of(uint64_t offset_bytes);
  void manage(Space& s, const HostCommand& cmd, Completion& done);
  // Report Zones: the zones the command selects into done.zones, as many as its buffer holds.
  void report(const Space& s, const HostCommand& cmd, Completion& done);
  // A write's programs: what it waits for (every one without a write cache; with one, the
  // oldest cached programs past its capacity).
  void acknowledge(Space& s, const std::vector<OpId>& programs, Completion& done);
  void refuse(ZoneStatus status, Completion& done);
  // The sum over the zoned namespaces of what `of` reads of one.
  template <class F>
  std::optional<double> sum(F of) const {
    double total = 0;
    for (const Space& s : spaces_) total += double(of(*s.ns));
    return total;
  }

  Hal& hal_;
  uint32_t unit_bytes_;
  sc_core::sc_time t_page_;  // controller.fw_per_page_us
  std::vector<Space> spaces_;
  ZonedCommandStats stats_;
  Statistics statistics_;
};

}  // namespace ssd::fw::zns
