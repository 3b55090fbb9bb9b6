#pragma once
// The drive's namespaces (namespaces): NVMe namespaces, each its own range of logical blocks that
// commands address from its own block 0. A conventional namespace is carved out of the logical
// capacity the FTL serves; a zoned one (NVMe ZNS) takes its zones' blocks at the end of every
// plane, out of the FTL's reach. Absent: one conventional namespace of the whole capacity, as a
// drive ships. The struct, its field table and its rules. docs/config.md#namespaces documents
// each key.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/Choices.h"
#include "config/FlashConfig.h"
#include "config/FtlConfig.h"
#include "config/ZoneConfig.h"
#include "config/json/Bounds.h"
#include "config/json/Problems.h"

namespace ssd::config {

// The testbench host's zone translation layer on a zoned namespace (tb/host/ZoneTranslation.h,
// as Linux's dm-zoned): the host's block reads, writes and trims of the namespace, log-structured
// into its zones in chunks, with the host's own garbage collection. Host software, not the
// drive's: the embedded IP's drive has none (a platform brings its own host).
struct HostTranslationConfig {
  bool enabled = false;
  uint64_t chunk_bytes = 4096;  // the map's granularity: a power of two of whole mapping units
  uint32_t open_zones = 1;      // open for host chunks at once, each with a write in flight
  uint32_t gc_zones = 1;        // open for GC's copies at once: collections take them in turn
  uint32_t free_zones = 1;      // kept free: a write opening a zone collects until more are
  uint32_t spare_zones = 3;     // not in the capacity the host sees (open + gc + free at least)
};

struct NamespaceConfig {
  std::string name;  // a short identifier: the report's and the workloads' name for it
  NamespaceKind kind = NamespaceKind::Conventional;
  uint64_t size_bytes = 0;  // conventional: a whole number of flash pages; zoned: its zones'
  ZoneConfig zones;         // zoned only
  HostTranslationConfig host_translation{};  // zoned only
  // Conventional with ftl.fdp: the namespace's placement handle list (NVMe FDP), the reclaim unit
  // handle each of its placement handles names; a write without one uses its first. Empty: every
  // handle in order.
  std::vector<uint32_t> placement_handles{};
};

// Where a namespace lies in the drive's logical byte space. Conventional namespaces follow one
// another from byte 0 in the order listed (what a drive's namespace management allocates), so
// capacity left over lies past the last one and is never written (over-provisioning the FTL
// sees). Zoned namespaces follow one another from twice the FTL's flash bytes (past every unit
// the FTL's data tokens name: its logical units, DFTL's translation pages, padding), each
// `zones.count` zone sizes long: the host, the scoreboard and the per-namespace figures tell
// every namespace's units apart, and the firmware sends a command there to its zoned namespace.
struct NamespaceRange {
  std::string name;
  uint64_t first_byte = 0;
  uint64_t size_bytes = 0;
  NamespaceKind kind = NamespaceKind::Conventional;
  // Zoned: a zone's size and capacity and the logical block (config::zone_geometry), in bytes.
  uint64_t zone_bytes = 0;
  uint64_t zone_capacity_bytes = 0;
  uint32_t lba_bytes = 0;
  // Zoned with host_translation: the chunk and the bytes the host sees (its translation layer's
  // capacity: the zones but the spare ones, each up to its capacity).
  HostTranslationConfig translation{};
  uint64_t translated_bytes = 0;
  // Conventional with ftl.fdp: the reclaim unit handle of each of its placement handles (a
  // write's placement identifier indexes it); empty without FDP.
  std::vector<uint8_t> placement_handles{};
  // The bytes the host's requests address: the translated capacity, or the namespace's size.
  uint64_t host_bytes() const { return translation.enabled ? translated_bytes : size_bytes; }
};

// At most this many: each has its own figures in report.json.
inline constexpr std::size_t kMaxNamespaces = 64;

template <class Ns, class V>
void visit_namespace(Ns& n, V& v) {
  v("name", n.name, Presence::kRequired);  // a short identifier: validate_namespaces()
  v("kind", n.kind);
  // Required of a conventional namespace, not given for a zoned one: validate_namespaces().
  v("size_bytes", n.size_bytes, between(0, 0x1p56));
  v.section("zones", n.zones, [](auto& z, auto& zv) { visit_zones(z, zv); });
  v.section("host_translation", n.host_translation, [](auto& t, auto& tv) {
    tv("enabled", t.enabled);
    tv("chunk_bytes", t.chunk_bytes, between(512, 0x1p40));
    tv("open_zones", t.open_zones, between(1, 0x1p16));
    tv("gc_zones", t.gc_zones, between(1, 0x1p16));
    tv("free_zones", t.free_zones, between(1, 0x1p16));
    tv("spare_zones", t.spare_zones, between(3, 0x1p32 - 1));
  });
  // Each below ftl.fdp.handles, distinct: validate_namespace_placement().
  v("placement_handles", n.placement_handles, up_to(kMaxFdpHandles - 1));
}

// The namespaces' own rules and the zoned ones against the flash: names distinct, a conventional
// one sized, a zoned one's zones sound; the zoned namespaces' blocks (zoned_blocks_per_plane)
// leave the FTL `ftl_blocks_per_plane` blocks of every plane.
void validate_namespaces(const std::vector<NamespaceConfig>& namespaces, const FlashConfig& flash,
                         uint32_t ftl_blocks_per_plane, Problems& problems);
// Once those hold, the conventional ones against the logical capacity the FTL serves: each a
// whole number of pages (no page holds two namespaces' data), all of them within it.
void validate_namespace_sizes(const std::vector<NamespaceConfig>& namespaces, uint64_t page_bytes,
                              uint64_t logical_bytes, Problems& problems);

// A zoned namespace's host_translation against its zones and the mapping unit (`unit_bytes`):
// chunks of a power of two of whole units and logical blocks dividing the zone capacity, spare
// zones at least open_zones + gc_zones + free_zones and fewer than the zones, open_zones +
// gc_zones zones open and active allowed (those for host chunks and for the copies).
void validate_host_translation(const NamespaceConfig& n, const FlashConfig& flash,
                               uint32_t unit_bytes, const std::string& key, Problems& problems);

// The namespaces' placement handle lists against ftl.fdp's `handles` (0: FDP off): given only
// with FDP and of a conventional namespace, 1 to `handles` distinct handles of the drive.
void validate_namespace_placement(const std::vector<NamespaceConfig>& namespaces, uint32_t handles,
                                  Problems& problems);

// Blocks of every plane the zoned namespaces take (ZoneGeometry::blocks_per_plane each).
uint32_t zoned_blocks_per_plane(const std::vector<NamespaceConfig>& namespaces,
                                const FlashConfig& flash);

// The ranges, in config order; one conventional "ns1" of the whole capacity when none is listed.
// `handles`: ftl.fdp's reclaim unit handles (0: FDP off), the conventional ones' default list.
std::vector<NamespaceRange> namespace_layout(const std::vector<NamespaceConfig>& namespaces,
                                             const FlashConfig& flash, uint64_t logical_bytes,
                                             uint32_t handles);

// Why `handle` names none of the placement handles of `ns`, for a job's placement key or
// --trace-placement; empty if it names one.
std::string placement_handle_problem(const NamespaceRange& ns, uint64_t handle);

// The index of the namespace `name` names in `layout`; nullopt when none does.
std::optional<uint32_t> find_namespace(const std::vector<NamespaceRange>& layout,
                                       std::string_view name);
// Why `name` names none: "the drive has no namespace \"x\" (it has a, b); did you mean ...".
std::string no_such_namespace(const std::vector<NamespaceRange>& layout, std::string_view name);

}  // namespace ssd::config
