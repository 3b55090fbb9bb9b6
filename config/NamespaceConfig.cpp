#include "config/NamespaceConfig.h"

#include <algorithm>

#include "common/DidYouMean.h"

namespace ssd::config {

namespace {
// A conventional namespace's zone keys, left at their defaults.
bool no_zone_keys(const ZoneConfig& z) {
  const ZoneConfig d;
  return z.count == d.count && z.stripe == d.stripe && z.group_dies == d.group_dies &&
         z.planes == d.planes && z.size == d.size &&
         z.spare_blocks_per_plane == d.spare_blocks_per_plane && z.max_open == d.max_open &&
         z.max_active == d.max_active && z.lba_bytes == d.lba_bytes;
}
}  // namespace

void validate_namespaces(const std::vector<NamespaceConfig>& namespaces, const FlashConfig& flash,
                         uint32_t ftl_blocks_per_plane, Problems& problems) {
  if (namespaces.size() > kMaxNamespaces)
    problems.add("namespaces", "lists " + std::to_string(namespaces.size()) + "; at most " +
                                   std::to_string(kMaxNamespaces));
  uint64_t zoned_blocks = 0;  // per plane; each below 2^32, at most 64 of them: no overflow
  for (std::size_t i = 0; i < namespaces.size(); ++i) {
    const std::string path = "namespaces[" + std::to_string(i) + "]";
    const NamespaceConfig& n = namespaces[i];
    require_short_identifier(problems, path + ".name", n.name);
    for (std::size_t j = 0; j < i; ++j)
      if (namespaces[j].name == n.name)
        problems.add(path + ".name", "\"" + n.name + "\" names two namespaces");
    if (n.kind == NamespaceKind::Conventional) {
      if (!no_zone_keys(n.zones))
        problems.add(path + ".zones", "only a zoned namespace (kind zoned) has zones");
      if (n.host_translation.enabled)
        problems.add(path + ".host_translation.enabled",
                     "only a zoned namespace (kind zoned) is translated: the FTL serves a "
                     "conventional one's blocks");
      if (n.size_bytes == 0)
        problems.add(path + ".size_bytes", "a conventional namespace needs its size (> 0)");
      continue;
    }
    if (n.size_bytes != 0)
      problems.add(path + ".size_bytes",
                   "not given for a zoned namespace: its size is zones.count zones");
    if (n.zones.count == 0)
      problems.add(path + ".zones.count", "a zoned namespace needs at least one zone");
    const std::size_t before = problems.size();
    check_zones(n.zones, flash, path + ".zones", problems);
    if (problems.size() == before && n.zones.count != 0)
      zoned_blocks += zone_geometry(n.zones, flash).blocks_per_plane;
  }
  if (zoned_blocks + ftl_blocks_per_plane > flash.blocks_per_plane)
    problems.add("namespaces",
                 "the zoned namespaces take " + std::to_string(zoned_blocks) +
                     " blocks of every plane (a block for each zone dealt to the plane, and the "
                     "spares); of flash.blocks_per_plane " +
                     std::to_string(flash.blocks_per_plane) + " the FTL needs at least " +
                     std::to_string(ftl_blocks_per_plane));
}

void validate_namespace_sizes(const std::vector<NamespaceConfig>& namespaces, uint64_t page_bytes,
                              uint64_t logical_bytes, Problems& problems) {
  uint64_t total = 0;
  for (std::size_t i = 0; i < namespaces.size(); ++i) {
    const NamespaceConfig& n = namespaces[i];
    if (n.kind != NamespaceKind::Conventional) continue;
    if (n.size_bytes % page_bytes != 0)
      problems.add("namespaces[" + std::to_string(i) + "].size_bytes",
                   "must be a whole number of flash pages (" + std::to_string(page_bytes) +
                       " bytes), got " + std::to_string(n.size_bytes));
    // Each below 2^56, added only while the sum is within the capacity: no overflow.
    if (total <= logical_bytes) total += n.size_bytes;
  }
  if (total > logical_bytes)
    problems.add("namespaces",
                 "the conventional ones' sizes add up to more than the drive's logical capacity "
                 "of " +
                     std::to_string(logical_bytes) +
                     " bytes (flash, ftl.overprovisioning and the zoned namespaces' blocks)");
}

void validate_host_translation(const NamespaceConfig& n, const FlashConfig& flash,
                               uint32_t unit_bytes, const std::string& key, Problems& problems) {
  const HostTranslationConfig& t = n.host_translation;
  if (!t.enabled) return;
  const ZoneGeometry g = zone_geometry(n.zones, flash);
  const uint64_t chunk = t.chunk_bytes;  // the unit is whole logical blocks (lba_bytes)
  if ((chunk & (chunk - 1)) != 0 || chunk % unit_bytes != 0 || g.capacity_bytes % chunk != 0)
    problems.add(key + ".chunk_bytes",
                 "must be a power of two of whole mapping units (" + std::to_string(unit_bytes) +
                     " bytes) dividing the zone capacity (" + std::to_string(g.capacity_bytes) +
                     " bytes), got " + std::to_string(chunk));
  else if (g.capacity_bytes / chunk * n.zones.count >= 0xffffffffu)
    problems.add(key + ".chunk_bytes", "gives 2^32 chunks or more; take larger chunks (got " +
                                           std::to_string(chunk) + ")");
  // Each at most 2^16: no overflow below.
  const uint64_t streams = uint64_t(t.open_zones) + t.gc_zones;
  const uint64_t least = streams + t.free_zones;
  if (t.spare_zones >= n.zones.count || t.spare_zones < least)
    problems.add(key + ".spare_zones",
                 "must be at least open_zones + gc_zones + free_zones (" + std::to_string(least) +
                     ") and fewer than the namespace's " + std::to_string(n.zones.count) +
                     " zones, got " + std::to_string(t.spare_zones));
  const auto allows = [streams](uint32_t limit) { return limit == 0 || limit >= streams; };
  if (!allows(n.zones.max_open) || !allows(n.zones.max_active))
    problems.add(key + ".open_zones",
                 "the translation keeps " + std::to_string(streams) +
                     " zones open (open_zones for host chunks, gc_zones for its copies); the "
                     "namespace allows " +
                     std::to_string(n.zones.max_open) + " open and " +
                     std::to_string(n.zones.max_active) + " active (zones.max_open, max_active)");
}

uint32_t zoned_blocks_per_plane(const std::vector<NamespaceConfig>& namespaces,
                                const FlashConfig& flash) {
  uint32_t blocks = 0;
  for (const NamespaceConfig& n : namespaces)
    if (n.kind == NamespaceKind::Zoned)
      blocks += uint32_t(zone_geometry(n.zones, flash).blocks_per_plane);
  return blocks;
}

void validate_namespace_placement(const std::vector<NamespaceConfig>& namespaces, uint32_t handles,
                                  Problems& problems) {
  for (std::size_t i = 0; i < namespaces.size(); ++i) {
    const std::vector<uint32_t>& list = namespaces[i].placement_handles;
    if (list.empty()) continue;
    const std::string key = "namespaces[" + std::to_string(i) + "].placement_handles";
    if (handles == 0) {
      problems.add(key, "needs ftl.fdp.enabled (the drive has no reclaim unit handles)");
      continue;
    }
    if (namespaces[i].kind != NamespaceKind::Conventional) {
      problems.add(key,
                   "only a conventional namespace places data by handle (a zoned one's "
                   "zones are its placement)");
      continue;
    }
    for (std::size_t j = 0; j < list.size(); ++j) {
      const std::string item = key + "[" + std::to_string(j) + "]";
      if (list[j] >= handles)
        problems.add(item, "handle " + std::to_string(list[j]) + ": expected 0 to " +
                               std::to_string(handles - 1) + " (ftl.fdp.handles " +
                               std::to_string(handles) + ")");
      else if (std::find(list.begin(), list.begin() + long(j), list[j]) != list.begin() + long(j))
        problems.add(item, "handle " + std::to_string(list[j]) + " listed twice");
    }
  }
}

std::vector<NamespaceRange> namespace_layout(const std::vector<NamespaceConfig>& namespaces,
                                             const FlashConfig& flash, uint64_t logical_bytes,
                                             uint32_t handles) {
  std::vector<uint8_t> every_handle(handles);
  for (uint32_t h = 0; h < handles; ++h) every_handle[h] = uint8_t(h);
  if (namespaces.empty()) {
    NamespaceRange whole{"ns1", 0, logical_bytes};
    whole.placement_handles = every_handle;
    return {whole};
  }
  std::vector<NamespaceRange> out;
  uint64_t conventional = 0;
  // Past every unit the FTL's data tokens name: its logical units, DFTL's translation pages and
  // the padding units, all below twice the units of its flash.
  FlashConfig ftl_flash = flash;
  ftl_flash.blocks_per_plane -= zoned_blocks_per_plane(namespaces, flash);
  uint64_t zoned = 2 * ftl_flash.total_pages() * ftl_flash.page_bytes;
  for (const NamespaceConfig& n : namespaces) {
    if (n.kind == NamespaceKind::Zoned) {
      const ZoneGeometry g = zone_geometry(n.zones, flash);
      const uint64_t size = n.zones.count * g.size_bytes;
      NamespaceRange r{n.name,
                       zoned,
                       size,
                       n.kind,
                       g.size_bytes,
                       g.capacity_bytes,
                       n.zones.lba_bytes,
                       n.host_translation};
      if (r.translation.enabled && n.host_translation.spare_zones < n.zones.count)
        r.translated_bytes = uint64_t(n.zones.count - n.host_translation.spare_zones) *
                             (g.capacity_bytes / r.translation.chunk_bytes) *
                             r.translation.chunk_bytes;
      out.push_back(std::move(r));
      zoned += size;
    } else {
      NamespaceRange r{n.name, conventional, n.size_bytes, n.kind};
      r.placement_handles = every_handle;
      if (handles != 0 && !n.placement_handles.empty())
        r.placement_handles.assign(n.placement_handles.begin(), n.placement_handles.end());
      out.push_back(std::move(r));
      conventional += n.size_bytes;
    }
  }
  return out;
}

std::string placement_handle_problem(const NamespaceRange& ns, uint64_t handle) {
  if (ns.kind != NamespaceKind::Conventional)
    return "applies to conventional namespaces; " + ns.name + " is zoned";
  const std::size_t n = ns.placement_handles.size();
  if (n == 0) return "the drive has no placement handles (ftl.fdp.enabled is false)";
  if (handle < n) return "";
  return "handle " + std::to_string(handle) + ": expected 0 to " + std::to_string(n - 1) +
         " (namespace " + ns.name + "'s " + std::to_string(n) + " placement handles)";
}

std::optional<uint32_t> find_namespace(const std::vector<NamespaceRange>& layout,
                                       std::string_view name) {
  for (std::size_t i = 0; i < layout.size(); ++i)
    if (layout[i].name == name) return uint32_t(i);
  return std::nullopt;
}

std::string no_such_namespace(const std::vector<NamespaceRange>& layout, std::string_view name) {
  std::vector<std::string> names;
  std::string listed;
  for (const NamespaceRange& n : layout) {
    listed += (names.empty() ? "" : ", ") + n.name;
    names.push_back(n.name);
  }
  return "the drive has no namespace \"" + std::string(name) + "\" (it has " + listed + ")" +
         did_you_mean(name, names);
}

}  // namespace ssd::config
