#pragma once
// What the host knows of its zoned namespaces' zones, so that the scoreboard stays exact under
// zone commands. As file systems on zoned drives do (they reset a zone only once its I/O is
// over), a zone management action waits until its zones have nothing in flight, and commands to
// them wait until it completes: a reset never races the zone's reads and writes. A zone append
// learns where its data went only from its completion, so it is issued to the scoreboard as an
// update of every page it may land on, from the zone's lowest possible write pointer (the furthest
// end of the writes completed) to its highest (the blocks completed and in flight, its own
// included); on completion the pages it landed on complete and the others are withdrawn. An append
// that landed outside those pages is a mismatch. A reset updates the pages its zone wrote to
// version 0 (a reset zone reads as zeroes, as the ZNS specification says).
#include <cstdint>
#include <string>
#include <vector>

#include "config/NamespaceConfig.h"
#include "ip/Scoreboard.h"
#include "model/SsdExtensions.h"
#include "tb/host/HostRequest.h"

namespace ssd::tb {

class HostZones {
 public:
  // `namespaces`: the drive's (config::namespace_layout); pages of `page_bytes` (the mapping
  // unit), as the scoreboard counts them.
  HostZones(const std::vector<config::NamespaceRange>& namespaces, uint64_t page_bytes,
            ip::Scoreboard& scoreboard);

  bool zoned(uint32_t ns) const { return ns < space_of_.size() && space_of_[ns] >= 0; }
  // Whether `r` (of a zoned namespace, fitted into it) may be issued now: false while its zone
  // is being managed, or, for a management action, while its zones have commands in flight.
  bool may_issue(const HostRequest& r) const;
  // `r` is issued as `cmd` (in the drive's bytes): its zone bookkeeping, and its scoreboard
  // watches (a read's, a write's, an append's possible pages, a reset's) to `watches`.
  void issued(const HostRequest& r, const fw::HostCommand& cmd,
              std::vector<ip::Scoreboard::Watch>& watches);
  // It completed (`ext`'s status and appended block): the scoreboard checks or settles it.
  void completed(const model::HostCommandExt& ext,
                 const std::vector<ip::Scoreboard::Watch>& watches, const std::string* flow);

 private:
  struct Zone {
    uint32_t in_flight = 0;         // commands
    uint64_t in_flight_blocks = 0;  // of the writes and appends among them
    uint64_t done_blocks = 0;       // written by the writes and appends completed since a reset
    uint64_t furthest = 0;          // the furthest end of those, from the zone's start
    bool managing = false;
  };
  struct Space {
    uint64_t first_byte = 0;  // in the drive
    uint64_t zone_bytes = 0;
    uint64_t capacity_blocks = 0;
    uint32_t lba_bytes = 0;
    std::vector<Zone> zones;
    uint32_t in_flight = 0;
    bool managing_all = false;  // a select-all action or a zone report: nothing else goes
  };

  Space& space(uint32_t ns) { return spaces_[std::size_t(space_of_[ns])]; }
  // The scoreboard's pages holding the zone's blocks [from, to).
  fw::Lpn first_page(const Space& s, uint32_t z, uint64_t block) const;
  fw::Lpn end_page(const Space& s, uint32_t z, uint64_t block) const;
  // A management action on zone `z` issued / completed (`ok`).
  void manage_issued(Space& s, uint32_t z, const HostRequest& r, uint64_t version,
                     std::vector<ip::Scoreboard::Watch>& watches);
  void managed(Space& s, uint32_t z, fw::zns::ZoneAction action, bool ok);
  // A zone report answered (`ext`): its zones must be those it selects, each as the host's
  // completed commands left it (a write pointer where they end, full once they filled it).
  void check_report(const Space& s, const model::HostCommandExt& ext, const std::string* flow);

  uint64_t page_bytes_;
  ip::Scoreboard& scoreboard_;
  std::vector<int> space_of_;  // by namespace: its index in spaces_, -1 if conventional
  std::vector<Space> spaces_;
};

}  // namespace ssd::tb
