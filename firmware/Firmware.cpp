#include "firmware/Firmware.h"

#include <algorithm>

namespace ssd::fw {

Firmware::Firmware(const config::DriveConfig& cfg, Hal& hal)
    : hal_(hal),
      page_bytes_(cfg.flash.page_bytes),
      t_cmd_(cfg.controller.t_fw_per_cmd_us, sc_core::SC_US),
      t_page_(cfg.controller.t_fw_per_page_us, sc_core::SC_US),
      ftl_(make_ftl(cfg, hal)) {}

const std::vector<OpId>& Firmware::execute(const HostCommand& cmd,
                                           std::vector<PageToken>* read_data) {
  ++stats_.commands;
  waits_.clear();
  hal_.compute(t_cmd_);
  if (read_data) read_data->clear();
  if (cmd.length_bytes == 0) return waits_;
  const uint64_t end = cmd.offset_bytes + cmd.length_bytes;
  const Lpn first = cmd.offset_bytes / page_bytes_;
  const Lpn last = (end - 1) / page_bytes_;
  for (Lpn lpn = first; lpn <= last; ++lpn) {
    hal_.compute(t_page_);
    const bool whole = cmd.offset_bytes <= lpn * page_bytes_ && (lpn + 1) * page_bytes_ <= end;
    switch (cmd.op) {
      case CommandOp::Read: {
        PageToken t;
        const Ftl::ReadResult r = ftl_->read(lpn, t);
        if (r.op != kNoOp) waits_.push_back(r.op);
        if (!r.mapped) ++stats_.unmapped_reads;
        if (read_data) read_data->push_back(t);
        ++stats_.page_reads;
        break;
      }
      case CommandOp::Write: {
        // A partial page keeps the rest of its old data: read it before programming.
        OpId data_from = kNoOp;
        if (!whole) {
          PageToken old;
          const Ftl::ReadResult r = ftl_->read(lpn, old);
          if (r.mapped) {
            ++stats_.rmw_reads;
            data_from = r.op;
          }
        }
        hal_.host_data_through(std::min(end, (lpn + 1) * page_bytes_) - cmd.offset_bytes);
        const OpId program = ftl_->write(lpn, PageToken{lpn, cmd.version}, data_from);
        if (program != kNoOp) waits_.push_back(program);
        ++stats_.page_writes;
        break;
      }
      case CommandOp::Trim:
        // Only whole pages can be unmapped; a partial trim is a no-op, as on real drives.
        if (whole) {
          ftl_->trim(lpn);
          ++stats_.page_trims;
        }
        break;
    }
  }
  return waits_;
}

}  // namespace ssd::fw
