#pragma once
// One host block request as the testbench's sources produce it.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>
#include <systemc>

#include "firmware/zns/Zones.h"

namespace ssd::tb {

// Block addresses in traces count 512-byte sectors.
inline constexpr uint64_t kSectorBytes = 512;

// A flush carries no data: it asks the drive to make every write completed before it durable.
// Zoned namespaces also take zone appends (to the zone starting at offset_bytes, the data put
// at its write pointer) and zone management actions (length 0; HostRequest::zone_action). A
// placement update (NVMe FDP's Reclaim Unit Handle Update; length 0) moves the handle its
// namespace's placement identifier names (HostRequest::placement) to a new reclaim unit. A zone
// report (Zone Management Receive, Report Zones; length: the host's buffer) asks a zoned
// namespace for its zones' states and write pointers, which the host checks against its own.
enum class IoOp : uint8_t {
  Read,
  Write,
  Trim,
  Flush,
  // A zoned namespace's.
  Append,
  ZoneReport,
  ZoneManage,
  // A conventional namespace's with placement handles (ftl.fdp).
  PlacementUpdate
};

// A 128-bit content fingerprint, e.g. the MD5 of a block.
using Fingerprint = std::array<uint8_t, 16>;

const char* to_string(IoOp op);

struct HostRequest {
  sc_core::sc_time arrival;  // when the host wants to issue it (from trace start)
  IoOp op = IoOp::Read;
  uint64_t offset_bytes = 0;
  uint64_t length_bytes = 0;  // > 0; 0 for a flush
  bool fua = false;           // write: force unit access (durable before it completes)
  // What the data looks like, for the lifetime manager's deduplication and compression
  // (docs/lifetime.md). Requests with equal fingerprints carry equal data. Set by FIU
  // traces (the MD5 they record per block) and by workloads with content settings.
  bool has_fingerprint = false;
  Fingerprint fingerprint{};
  uint8_t compressible_percent = 0;  // share of the bytes a compressor removes; 0 if unknown
  uint64_t volume = 0;               // a trace's record: its volume (ASU, disk, device); else 0
  // The namespace it addresses (namespaces, in config order); offset_bytes is within it.
  uint32_t ns = 0;
  // Write: its placement identifier (ftl.fdp: the reclaim unit handle its data goes to);
  // PlacementUpdate: the one it updates.
  uint16_t placement = 0;
  // ZoneManage: the action on the zone starting at offset_bytes, or on every zone of the
  // namespace it applies to (`select_all`).
  fw::zns::ZoneAction zone_action = fw::zns::ZoneAction::Close;
  bool select_all = false;
  // ZoneReport: the zones from the one holding offset_bytes on that `report_filter` selects
  // (fw::HostCommand::report_filter, partial_report).
  fw::zns::ZoneReportFilter report_filter = fw::zns::ZoneReportFilter::All;
  bool partial_report = false;
};

// A stream of host requests: a trace reader or a synthetic generator. Streams never load a
// whole trace; next() reads on demand.
class RequestSource {
 public:
  virtual ~RequestSource() = default;
  // Fills `out` and returns true, or returns false at the end. Throws ssd::InputError
  // ("file:line: field: reason") on malformed input.
  virtual bool next(HostRequest& out) = 0;
  // Open loop (arrival times honoured) or closed loop (issue as soon as a slot is free).
  virtual bool timed() const = 0;
  // Host-side outstanding-request limit; 0 = only the drive's queue depth limits.
  virtual uint32_t host_queue_depth() const { return 0; }
  // Total requests when known in advance (for progress), else 0.
  virtual uint64_t expected_count() const { return 0; }
  // One line for the summary, e.g. "spc trace traces/x.spc".
  virtual std::string describe() const = 0;
  // Adds what the source knows about its input to report.json (a trace's "trace" object).
  virtual void add_to_report(nlohmann::ordered_json& /*report*/) const {}
  // What makes the source's requests suspect, one sentence each (report.json "warnings").
  virtual void add_warnings(std::vector<std::string>& /*out*/) const {}

  // The flows the host plays side by side, each with its own queue depth, arrival process and
  // submission queue (docs/architecture.md#host-queues-and-arbitration): a workload file's
  // jobs. By default the source is one flow.
  virtual std::vector<RequestSource*> flows() { return {this}; }
  // As a flow: its name in reports and the submission queue it uses (host.queues index).
  virtual std::string flow_name() const { return "host"; }
  virtual uint32_t queue() const { return 0; }
  // Where the queue was given, for messages ("w.json: jobs[1].queue").
  virtual std::string queue_origin() const { return "the request source"; }
};

}  // namespace ssd::tb
