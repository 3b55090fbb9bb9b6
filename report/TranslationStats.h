#pragma once
// What the host's zone translation layer did on a zoned namespace (namespaces[].host_translation,
// tb/host/TranslatedNamespace.h): the host requests it served, with their latency from arrival
// (or issue) to the last of their zone commands, and the commands it sent the drive for them:
// whole chunks, its garbage collection's copies and resets. report.json's
// namespaces[].zone_translation (docs/report.md#namespaces).
#include <cstdint>

#include "report/LatencyStats.h"

namespace ssd::report {

struct TranslationStats {
  uint64_t chunk_bytes = 0;
  uint32_t open_zones = 0, gc_zones = 0, free_zones = 0, spare_zones = 0;
  uint64_t capacity_bytes = 0;  // what the host sees
  uint64_t reads = 0, writes = 0, trims = 0;
  uint64_t reads_unmapped = 0;  // reads of nothing written: zeroes, with no command
  uint64_t failed = 0;          // requests and collections a zone command of failed
  uint64_t read_bytes = 0, write_bytes = 0;
  LatencyStats read_latency, write_latency;
  // The layer's own, in bytes: what the host's writes wrote, what it sent the drive (whole
  // chunks and GC's copies), its GC's copies, the rest of partly written chunks it read, and the
  // zones its GC reset.
  uint64_t host_bytes_written = 0, bytes_sent = 0, gc_bytes_copied = 0, rmw_bytes_read = 0;
  uint64_t zones_reset = 0;
};

}  // namespace ssd::report
