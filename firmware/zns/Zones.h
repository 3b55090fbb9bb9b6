#pragma once
// The zones of a zoned namespace and their state machine, as the NVMe Zoned Namespace Command
// Set (ZNS, NVMe Command Set Specification 1.1) defines them: each zone is empty, implicitly or
// explicitly opened, closed, full, read only or offline; writes go to its write pointer, zone
// appends to wherever the pointer is (the location is returned); opened zones hold open
// resources and opened or closed ones active resources, within the namespace's maxima (MOR + 1,
// MAR + 1). Where the specification leaves a choice, this follows the NVMe emulations in QEMU
// and NVMeVirt: closing an opened zone makes it closed even with nothing written, finishing an
// empty zone makes it full, and a write or open that needs an open resource when all are held
// takes the one of the implicitly opened zone opened longest ago (the controller closes that
// zone), failing with Too Many Open Zones only when every opened zone was opened explicitly.
// Reads may not cross a zone boundary (the namespace does not set Read Across Zone
// Boundaries). Plain C++: what the firmware asks before it places a zoned write, and what the
// testbench's host mirrors.
#include <cstdint>
#include <vector>

namespace ssd::fw::zns {

enum class ZoneState : uint8_t {
  Empty,             // ZSE
  ImplicitlyOpened,  // ZSIO: by a write
  ExplicitlyOpened,  // ZSEO: by an Open Zone action
  Closed,            // ZSC
  Full,              // ZSF
  ReadOnly,          // ZSRO: the media turned it (a controller event)
  Offline,           // ZSO
};
inline constexpr int kZoneStates = 7;
const char* to_string(ZoneState s);

// A command's completion status: (status code type << 8) | status code, as the NVMe
// specifications number them (generic 0h, command specific 1h for the zoned ones).
enum class ZoneStatus : uint16_t {
  Success = 0x0000,
  InvalidOpcode = 0x0001,     // a zone command sent to a conventional namespace
  InvalidField = 0x0002,      // no blocks, or a management action's LBA not a zone's first
  LbaOutOfRange = 0x0080,     // past the namespace's last block
  BoundaryError = 0x01B8,     // a write past the zone's capacity, a read across zones
  Full = 0x01B9,              // Zone Is Full
  ReadOnly = 0x01BA,          // Zone Is Read Only
  Offline = 0x01BB,           // Zone Is Offline
  InvalidWrite = 0x01BC,      // a write not at the write pointer
  TooManyActive = 0x01BD,     // Too Many Active Zones
  TooManyOpen = 0x01BE,       // Too Many Open Zones
  InvalidTransition = 0x01BF  // Invalid Zone State Transition
};
const char* to_string(ZoneStatus s);

// The Zone Management Send actions (Zone Send Action values).
enum class ZoneAction : uint8_t { Close = 1, Finish = 2, Open = 3, Reset = 4, Offline = 5 };
const char* to_string(ZoneAction a);

// In logical blocks (whatever unit the caller addresses the namespace in).
struct ZoneLimits {
  uint32_t zones = 0;
  uint64_t zone_size = 0;      // blocks from one zone's first block to the next's
  uint64_t zone_capacity = 0;  // writable blocks of a zone, at most zone_size
  uint32_t max_open = 0;       // 0: no limit (MOR FFFFFFFFh)
  uint32_t max_active = 0;     // 0: no limit; else at least max_open
};

struct ZoneDescriptor {
  ZoneState state = ZoneState::Empty;
  uint64_t start = 0;          // ZSLBA
  uint64_t write_pointer = 0;  // the next block a write takes; start + capacity when full
};

// What a write, an append or an action did.
struct ZoneOutcome {
  static constexpr uint32_t kNone = ~0u;
  ZoneStatus status = ZoneStatus::Success;
  uint64_t lba = 0;         // a write's or an append's first block
  uint32_t closed = kNone;  // the implicitly opened zone the controller closed to make room
  bool ok() const { return status == ZoneStatus::Success; }
};

// Which zones Report Zones lists (the Zone Receive Action Specific Field): all, or those in one
// state. A command may carry any byte; values past Offline are refused with Invalid Field.
enum class ZoneReportFilter : uint8_t {
  All = 0,
  Empty,
  ImplicitlyOpened,
  ExplicitlyOpened,
  Closed,
  Full,
  ReadOnly,
  Offline,
};

// A Report Zones data structure: a 64-byte header, then a 64-byte descriptor per zone listed.
inline constexpr uint64_t kZoneReportEntryBytes = 64;

// A Report Zones answer: the header's Number of Zones and the zones whose descriptors follow.
struct ZoneReport {
  ZoneStatus status = ZoneStatus::Success;
  uint64_t zones = 0;
  std::vector<uint32_t> listed;
};

struct ZoneCounts {
  uint64_t implicit_opens = 0;   // a write opened the zone
  uint64_t explicit_opens = 0;   // an Open Zone action did (from empty, implicitly opened, closed)
  uint64_t implicit_closes = 0;  // the controller closed an implicitly opened zone for another
  uint64_t closes = 0;           // Close Zone actions that closed an opened zone
  uint64_t finishes = 0;         // zones made full by a Finish Zone action
  uint64_t resets = 0;           // zones made empty by a Reset Zone action
  uint64_t filled = 0;           // zones made full by a write reaching their capacity
};

class Zones {
 public:
  // Throws std::invalid_argument when the limits break a rule above.
  explicit Zones(const ZoneLimits& limits);

  // A write of `blocks` blocks from `lba` (one zone's, from its write pointer).
  ZoneOutcome write(uint64_t lba, uint64_t blocks);
  // A zone append of `blocks` blocks to the zone starting at `zslba`: written at its write
  // pointer, which the outcome's lba gives.
  ZoneOutcome append(uint64_t zslba, uint64_t blocks);
  // Whether a read of `blocks` blocks from `lba` may go: blocks past a write pointer read as
  // never written (no error).
  ZoneStatus read(uint64_t lba, uint64_t blocks) const;
  // A Zone Management Send action on the zone starting at `zslba`.
  ZoneOutcome manage(uint64_t zslba, ZoneAction action);
  // The action with Select All: every zone in a state it applies to (Close: opened ones;
  // Finish: opened and closed; Open: closed, all or none when open resources are short; Reset:
  // opened, closed and full; Offline: read-only ones). `changed` receives those it changed.
  ZoneStatus manage_all(ZoneAction action, std::vector<uint32_t>* changed = nullptr);
  // Zone Management Receive, Report Zones: from the zone holding `lba` on, the zones `filter`
  // selects, at most `most` of them listed (what the host's buffer holds). Number of Zones
  // counts the listed ones with `partial` (the Partial Report bit), else every one selected.
  ZoneReport report(uint64_t lba, ZoneReportFilter filter, uint32_t most, bool partial) const;
  // Controller events (media failures): the zone becomes read only, or offline, giving up its
  // resources; an offline zone stays offline.
  void make_read_only(uint32_t zone);
  void make_offline(uint32_t zone);

  const ZoneDescriptor& zone(uint32_t z) const { return zones_[z]; }
  uint32_t zones() const { return uint32_t(zones_.size()); }
  uint32_t zone_of(uint64_t lba) const { return uint32_t(lba / limits_.zone_size); }
  const ZoneLimits& limits() const { return limits_; }
  uint32_t open_zones() const { return open_; }
  uint32_t active_zones() const { return active_; }
  uint32_t count(ZoneState s) const { return by_state_[int(s)]; }
  const ZoneCounts& counts() const { return counts_; }

 private:
  ZoneOutcome write_at(uint32_t z, uint64_t lba, uint64_t blocks);
  // The resources the zone needs to become opened (explicitly or not), taking the oldest
  // implicitly opened zone's open resource if need be (`closed` names it).
  ZoneStatus take_open_resources(uint32_t z, uint32_t& closed);
  void set_state(uint32_t z, ZoneState to);
  ZoneStatus apply(uint32_t z, ZoneAction action, ZoneOutcome& out);
  bool opened(ZoneState s) const {
    return s == ZoneState::ImplicitlyOpened || s == ZoneState::ExplicitlyOpened;
  }
  bool active(ZoneState s) const { return opened(s) || s == ZoneState::Closed; }
  uint64_t end_of_capacity(uint32_t z) const { return zones_[z].start + limits_.zone_capacity; }

  ZoneLimits limits_;
  std::vector<ZoneDescriptor> zones_;
  std::vector<uint32_t> implicit_order_;  // implicitly opened zones, oldest first
  uint32_t open_ = 0;
  uint32_t active_ = 0;
  uint32_t by_state_[kZoneStates] = {};
  ZoneCounts counts_;
};

}  // namespace ssd::fw::zns
