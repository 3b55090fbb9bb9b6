#pragma once
// The options every trace reader shares (docs/trace-formats.md, "Options shared by every
// format"), and what a reader counts while it applies them (report.json "trace").
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ssd::tb {

// How the volumes (ASUs, disks, devices) of a trace map onto the one simulated drive.
enum class VolumeMap {
  kOverlap,  // every volume addresses the whole drive: equal offsets of two volumes collide
  kConcat,   // each volume gets its own equal slice of the drive
};

// What happens to a request beyond the region it maps to.
enum class Fit {
  kWrap,   // offset modulo the region
  kScale,  // offsets scaled by region / trace capacity, so the trace's layout shrinks evenly
};

// --trace-placement-ranges: the writes whose first byte lies in [first, end) of the trace's
// namespace go through placement handle `handle` (ftl.fdp).
struct PlacementRange {
  uint64_t first = 0, end = 0;
  uint16_t handle = 0;
};

struct TraceOptions {
  // Parsing.
  std::string format = "auto";   // or a format name (trace_formats())
  uint64_t sector_bytes = 512;   // unit of the formats that count sectors
  std::string time_unit = "ns";  // DiskSim timestamps: ns, us, ms or s
  char blkparse_event = 'Q';     // the blkparse action that issues a request: Q or D
  bool skip_bad_lines = false;   // count and skip malformed lines instead of stopping
  uint64_t reorder_window = 0;   // sort within this many records; 0: out of order is an error

  // Selection.
  std::vector<uint64_t> volumes;  // keep only these volumes; empty: all
  uint64_t start_ps = 0;          // window from the first record's timestamp, [start, end)
  uint64_t end_ps = std::numeric_limits<uint64_t>::max();
  uint64_t max_requests = 0;  // 0: no limit

  // Replay.
  double time_scale = 1.0;   // multiplies the inter-arrival times
  bool closed_loop = false;  // ignore timestamps, keep queue_depth requests outstanding
  uint32_t queue_depth = 0;  // host outstanding-request limit; 0: only the drive's

  // Addressing; needs the drive. capacity_bytes == 0 keeps the trace's own addresses.
  uint64_t capacity_bytes = 0;
  uint64_t page_bytes = 0;
  VolumeMap volume_map = VolumeMap::kOverlap;
  uint32_t volume_count = 0;  // concat slices; 0: the --volume list, else a first pass counts
  Fit fit = Fit::kWrap;
  uint64_t trace_capacity = 0;  // scale: bytes the trace addresses; 0: a first pass measures
  bool align_to_page = false;   // round requests out to whole pages
  // Placement by address, in address order, not overlapping; requests elsewhere take the
  // reader's handle (--trace-placement, or 0).
  std::vector<PlacementRange> placement_ranges;
};

// What a reader did with its input, for report.json and trace-stats.
struct TraceCounters {
  std::string format;
  bool detected = false;  // by --format auto
  uint64_t records = 0;   // well-formed records read
  uint64_t ignored = 0;   // lines that are not requests (blkparse events other than the issue)
  uint64_t skipped = 0;   // bad lines skipped (--skip-bad-lines)
  std::vector<std::string> skipped_messages;  // the first few
  uint64_t other_volumes = 0;                 // records of volumes not selected
  uint64_t before_start = 0;                  // records before --start-s
  uint64_t reordered = 0;       // records emitted ahead of an earlier line (--reorder-window)
  uint64_t requests = 0;        // requests passed on
  uint64_t aligned = 0;         // requests rounded out to whole pages
  uint64_t wrapped = 0;         // requests wrapped into their region
  uint64_t scaled = 0;          // requests whose offset was scaled
  bool stopped_early = false;   // --end-s or --max-requests stopped reading before the end
  uint64_t trace_capacity = 0;  // the one --fit scale used
  std::vector<uint64_t> slice_volumes;  // concat: the volume of each slice, in order
};

}  // namespace ssd::tb
