#include "report/HostStats.h"

namespace ssd::report {

void HostStats::record(const model::HostCommandExt& ext, const sc_core::sc_time& start,
                       const sc_core::sc_time& now) {
  const fw::HostCommand& cmd = ext.cmd;
  const sc_core::sc_time latency = now - start;
  last_completion = now;
  if (ext.status == uint16_t(fw::MediaStatus::WriteFault)) {
    ++failed_write_fault;
    return;
  }
  if (ext.status != 0) {
    ++failed_status;
    return;
  }
  if (!ext.ok && cmd.op != fw::CommandOp::Read) {
    ++failed_read_only;
    return;
  }
  if (ext.lost) {
    ++failed_lost;
    return;
  }
  count(cmd.op, cmd.length_bytes, latency);
  if (cmd.op == fw::CommandOp::Read) {
    read_gc_wait.add(ext.gc_wait);
    read_refresh_wait.add(ext.refresh_wait);
  }
  if (cmd.op == fw::CommandOp::Write || cmd.op == fw::CommandOp::Append) {
    if (cmd.fua) ++fua_writes;
    write_gc_wait.add(ext.gc_wait);
    write_refresh_wait.add(ext.refresh_wait);
  }
  breakdown[kind(cmd.op)].add(latency, ext.breakdown);
}

void HostStats::record_request(fw::CommandOp op, uint64_t bytes, const sc_core::sc_time& start,
                               const sc_core::sc_time& now, bool ok) {
  last_completion = now;
  if (ok)
    count(op, bytes, now - start);
  else
    ++failed_status;
}

void HostStats::count(fw::CommandOp op, uint64_t bytes, const sc_core::sc_time& latency) {
  switch (op) {
    case fw::CommandOp::Read:
      ++reads;
      read_bytes += bytes;
      read_latency.add(latency);
      break;
    case fw::CommandOp::Append:
      ++appends;
      [[fallthrough]];
    case fw::CommandOp::Write:
      ++writes;
      write_bytes += bytes;
      write_latency.add(latency);
      break;
    case fw::CommandOp::Trim:
      ++trims;
      trim_latency.add(latency);
      break;
    case fw::CommandOp::Flush:
      ++flushes;
      flush_latency.add(latency);
      break;
    case fw::CommandOp::ZoneManage:
      ++zone_actions;
      zone_action_latency.add(latency);
      break;
    case fw::CommandOp::PlacementUpdate:
      ++placement_updates;
      placement_update_latency.add(latency);
      break;
    case fw::CommandOp::ZoneReport:
      ++zone_reports;
      zone_report_latency.add(latency);
      break;
  }
}

std::size_t HostStats::kind(fw::CommandOp op) {
  switch (op) {
    case fw::CommandOp::Append:
      return std::size_t(fw::CommandOp::Write);
    case fw::CommandOp::ZoneManage:
      return 4;
    case fw::CommandOp::PlacementUpdate:
      return 5;
    case fw::CommandOp::ZoneReport:
      return 6;
    default:
      return std::size_t(op);
  }
}

}  // namespace ssd::report
