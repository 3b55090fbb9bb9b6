#pragma once
// The fuzz input as a file the parsers can open by path, without touching the disk: an
// in-memory file (memfd, a regular file to fstat) rewritten for every input.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "config/NamespaceConfig.h"
#include "tb/host/HostRequest.h"

namespace ssd::fuzz {

inline const std::string& as_file(const uint8_t* data, size_t size) {
  static const int fd = memfd_create("ssdtlm-fuzz", 0);
  static const std::string path = "/proc/self/fd/" + std::to_string(fd);
  if (fd < 0 || ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) {
    std::abort();  // the harness itself failed, not the code under test
  }
  return path;
}

// The drive capacity the workload parsers validate against: the default config's.
inline constexpr uint64_t kCapacityBytes = uint64_t{36} << 30;
// The namespaces the workload parsers address: the capacity split in two ("ns1", "logs"),
// "zns", zoned: 64 zones of 64 MiB holding 48 MiB each, in 4 KiB logical blocks, and "zt", 16
// such zones the host's zone translation layer serves (3 spare: 13 x 48 MiB for the host).
inline const std::vector<config::NamespaceRange>& namespaces() {
  constexpr uint64_t kZone = uint64_t{64} << 20;
  static const std::vector<config::NamespaceRange> ns = [] {
    std::vector<config::NamespaceRange> out = {
        {"ns1", 0, kCapacityBytes / 4},
        {"logs", kCapacityBytes / 4, kCapacityBytes / 4 * 3},
        {"zns", 2 * kCapacityBytes, 64 * kZone, config::NamespaceKind::Zoned, kZone, kZone / 4 * 3,
         4096},
        {"zt", 2 * kCapacityBytes + 64 * kZone, 16 * kZone, config::NamespaceKind::Zoned, kZone,
         kZone / 4 * 3, 4096, config::HostTranslationConfig{true, 4096, 1, 3}, 13 * kZone / 4 * 3}};
    // Flexible data placement with four handles: the first namespace lists them all, the second
    // two of them.
    out[0].placement_handles = {0, 1, 2, 3};
    out[1].placement_handles = {3, 1};
    return out;
  }();
  return ns;
}
// Whether a generated request lies within the namespace it names: a zone management action, of
// no bytes, at a zone's first byte; a zone report, from a byte of a zoned namespace, with a
// buffer for a header and at most a descriptor per zone; a placement update, of no bytes, of a
// namespace with placement handles and one of its identifiers.
inline bool within_its_namespace(const tb::HostRequest& r) {
  if (r.ns >= namespaces().size()) return false;
  const config::NamespaceRange& n = namespaces()[r.ns];
  if (r.op == tb::IoOp::ZoneManage)
    return n.zone_bytes != 0 && r.offset_bytes % n.zone_bytes == 0 && r.offset_bytes < n.size_bytes;
  // A Report Zones' length is the host's buffer: a header and a descriptor per zone at most.
  if (r.op == tb::IoOp::ZoneReport)
    return n.zone_bytes != 0 && r.offset_bytes < n.size_bytes &&
           r.length_bytes >= fw::zns::kZoneReportEntryBytes &&
           r.length_bytes <= fw::zns::kZoneReportEntryBytes * (n.size_bytes / n.zone_bytes + 1);
  if (r.op == tb::IoOp::PlacementUpdate)
    return r.offset_bytes == 0 && r.length_bytes == 0 && r.placement < n.placement_handles.size();
  return r.length_bytes != 0 && r.offset_bytes + r.length_bytes <= n.host_bytes();
}
// Enough requests to run every generator path, few enough to keep executions fast.
inline constexpr uint64_t kMaxRequests = 256;

}  // namespace ssd::fuzz
