#include "firmware/Firmware.h"

#include <algorithm>
#include <limits>

namespace ssd::fw {

namespace {
std::unique_ptr<FlashWindow> window(const config::DriveConfig& cfg, Hal& hal) {
  if (!cfg.has_zoned()) return nullptr;
  return std::make_unique<FlashWindow>(hal, cfg.flash.blocks_per_plane,
                                       cfg.ftl_flash().blocks_per_plane);
}
}  // namespace

Firmware::Firmware(const config::DriveConfig& cfg, Hal& hal)
    : hal_(hal),
      window_(window(cfg, hal)),
      page_bytes_(cfg.unit_bytes()),
      t_cmd_(cfg.controller.fw_per_cmd_us(), sc_core::SC_US),
      t_page_(cfg.controller.fw_per_page_us(), sc_core::SC_US),
      ftl_(make_ftl(window_ ? cfg.ftl_view() : cfg, window_ ? *window_ : hal)),
      buffer_(cfg.write_buffer_units(), cfg.unit_bytes(),
              cfg.flash.dies() * ftl_->die_set_pages() * cfg.units_per_page(), cfg.units_per_page(),
              cfg.logical_units(), cfg.dram.write_buffer_mb == 0, window_ ? *window_ : hal, *ftl_,
              std::max<uint32_t>(1, cfg.placement_handles())),
      zoned_(cfg, hal),
      maintains_(cfg.ftl.read_refresh.enabled || cfg.flash.faults.program_fail_probability > 0 ||
                 cfg.flash.faults.dead_die_at_ms > 0),
      read_engine_(cfg.controller.hw_read_path.enabled),
      handles_(cfg.placement_handles()) {
  if (handles_ != 0) {
    for (const config::NamespaceRange& n : cfg.namespace_layout())
      if (n.kind == config::NamespaceKind::Conventional)
        placement_lists_.push_back({n.first_byte + n.size_bytes, n.placement_handles});
    // Bytes past them (the embedded IP may write there): every handle in order.
    PlacementList rest{std::numeric_limits<uint64_t>::max(), std::vector<uint8_t>(handles_)};
    for (uint32_t h = 0; h < handles_; ++h) rest.handles[h] = uint8_t(h);
    placement_lists_.push_back(std::move(rest));
  }
  // With the lifetime manager the buffer is only the units' packing buffer (no DRAM buffer):
  // it holds the manager's slots, not host pages.
  if (cfg.lifetime.enabled())
    lifetime_ = std::make_unique<lifetime::LifetimeManager>(cfg, hal, *ftl_,
                                                            buffer_.enabled() ? &buffer_ : nullptr);
  FirmwareStats& s = stats_;
  statistics_.group("firmware")
      .counter("commands", StatUnit::Commands, "Host commands the firmware processed.", s.commands)
      .counter("page_reads", StatUnit::Pages, "Logical pages host reads covered.", s.page_reads)
      .counter("page_writes", StatUnit::Pages, "Logical pages host writes covered.", s.page_writes)
      .counter("page_trims", StatUnit::Pages, "Logical pages trims covered whole.", s.page_trims)
      .counter("rmw_reads", StatUnit::Pages, "Partial-page writes that read the old page.",
               s.rmw_reads)
      .counter("unmapped_reads", StatUnit::Pages, "Host page reads answered without flash.",
               s.unmapped_reads);
  if (cfg.ftl.fdp.enabled)
    statistics_.group("fdp")
        .counter("invalid_placement_ids", StatUnit::Commands,
                 "Writes whose placement identifier named no placement handle of their namespace "
                 "(placed by its first).",
                 s.invalid_placement_ids)
        .counter("placement_updates", StatUnit::Commands,
                 "Reclaim Unit Handle Updates done (NVMe I/O Management Send).",
                 s.placement_updates);
}

void Firmware::prefetch(const HostCommand& cmd) const {
  if (cmd.length_bytes == 0 || zoned_.owns(cmd.offset_bytes)) return;
  constexpr Lpn kPages = 4;  // enough to cover a look-up's latency; more would crowd the cache
  const Lpn first = cmd.offset_bytes / page_bytes_;
  const Lpn last = (cmd.offset_bytes + cmd.length_bytes - 1) / page_bytes_;
  for (Lpn lpn = first; lpn <= last && lpn < first + kPages; ++lpn) ftl_->prefetch(lpn);
}

const Completion& Firmware::execute(const HostCommand& cmd, std::vector<PageToken>* read_data) {
  ++stats_.commands;
  Completion& done = cmd.op == CommandOp::Read ? read_completion_ : completion_;
  std::vector<OpId>& waits = done.ops;
  waits.clear();
  done.at = sc_core::SC_ZERO_TIME;
  hal_.compute(t_cmd_);
  if (lifetime_) lifetime_->tick();
  if (read_data) read_data->clear();
  done.failed = false;
  done.status = 0;
  done.appended_lba = 0;
  done.zones_reported = 0;
  done.zones.clear();
  if (cmd.op == CommandOp::PlacementUpdate) {
    update_placement(cmd, done);
    return done;
  }
  if (cmd.op != CommandOp::Flush && zoned_.owns(cmd.offset_bytes)) {
    zoned_.execute(cmd, done, read_data);
    return done;
  }
  if (cmd.op == CommandOp::Append || cmd.op == CommandOp::ZoneManage ||
      cmd.op == CommandOp::ZoneReport) {
    done.failed = true;
    done.status = uint16_t(zns::ZoneStatus::InvalidOpcode);
    return done;
  }
  // Out of spare, the drive fails what would write (NVMe: the namespace write protected).
  done.failed = (cmd.op == CommandOp::Write || cmd.op == CommandOp::Trim) && ftl_->read_only();
  if (done.failed) return done;
  // A write to logical blocks the FTL lost with their die fails with NVMe's Write Fault.
  if (cmd.op == CommandOp::Write && cmd.length_bytes > 0 &&
      ftl_->refuses(cmd.offset_bytes / page_bytes_,
                    (cmd.offset_bytes + cmd.length_bytes - 1) / page_bytes_)) {
    done.failed = true;
    done.status = uint16_t(MediaStatus::WriteFault);
    return done;
  }
  if (cmd.op == CommandOp::Flush) {
    hal_.ftl_work(Hal::kAllUnits);
    if (buffer_.enabled()) buffer_.flush(waits);
    return done;
  }
  if (cmd.length_bytes == 0) return done;
  const uint64_t end = cmd.offset_bytes + cmd.length_bytes;
  const Lpn first = cmd.offset_bytes / page_bytes_;
  const Lpn last = (end - 1) / page_bytes_;
  // Buffered pages reach the FTL later, one destage at a time.
  const bool request = cmd.op == CommandOp::Write && !buffer_.enabled();
  if (request) ftl_->begin_request();
  uint8_t handle = 0;
  if (cmd.op == CommandOp::Write && handles_ != 0) {
    handle = placement_handle(cmd);
    if (!buffer_.enabled()) ftl_->place_by(handle);
  }
  for (Lpn lpn = first; lpn <= last; ++lpn) {
    hal_.ftl_work(lpn);
    // Upkeep the host waits for (read refresh), on the core that does its first unit's FTL work;
    // not on the read engine, whose reads may run while the core's command is inside the FTL.
    if (lpn == first && maintains_ && !(cmd.op == CommandOp::Read && read_engine_))
      ftl_->maintain();
    hal_.compute(t_page_);
    const bool whole = cmd.offset_bytes <= lpn * page_bytes_ && (lpn + 1) * page_bytes_ <= end;
    switch (cmd.op) {
      case CommandOp::Read: {
        PageToken t;
        ++stats_.page_reads;
        if (buffer_.enabled() && !lifetime_) {
          if (const auto at = buffer_.read(lpn, t)) {
            done.at = std::max(done.at, *at);
            if (read_data) read_data->push_back(t);
            break;
          }
        }
        bool mapped;
        if (lifetime_) {
          mapped = lifetime_->read(lpn, t, done);
        } else {
          const Ftl::ReadResult r = ftl_->read(lpn, t);
          if (r.op != kNoOp) waits.push_back(r.op);
          mapped = r.mapped;
          done.failed |= r.lost;
        }
        if (!mapped && !done.failed) ++stats_.unmapped_reads;
        if (read_data) read_data->push_back(t);
        break;
      }
      case CommandOp::Write: {
        if (lifetime_) {
          write_managed(cmd, lpn, first, whole, end);
          break;
        }
        // A partial page keeps the rest of its old data: read it from flash unless the write
        // buffer holds it (merged there).
        OpId data_from = kNoOp;
        if (!whole && !buffer_.contains(lpn)) {
          PageToken old;
          const Ftl::ReadResult r = ftl_->read(lpn, old);
          if (r.mapped) {
            ++stats_.rmw_reads;
            data_from = r.op;
          }
        }
        const sc_core::sc_time data_at =
            hal_.host_data_at(std::min(end, (lpn + 1) * page_bytes_) - cmd.offset_bytes);
        const PageToken token{lpn, cmd.version};
        ++stats_.page_writes;
        if (buffer_.enabled()) {
          done.at = std::max(done.at, buffer_.write(lpn, token, data_at, data_from, handle));
          if (cmd.fua) buffer_.write_through(lpn, waits);
          break;
        }
        hal_.program_data_at(data_at);
        const OpId program = ftl_->write(lpn, token, data_from);
        if (program != kNoOp) waits.push_back(program);
        break;
      }
      case CommandOp::Trim:
        // Only whole pages can be unmapped; a partial trim is a no-op, as on real drives.
        if (whole) {
          if (lifetime_) {
            lifetime_->trim(lpn);
          } else {
            buffer_.trim(lpn);
            ftl_->trim(lpn);
          }
          ++stats_.page_trims;
        }
        break;
      case CommandOp::Flush:
      case CommandOp::Append:
      case CommandOp::ZoneManage:
      case CommandOp::PlacementUpdate:
      case CommandOp::ZoneReport:
        break;
    }
  }
  if (lifetime_ && cmd.op == CommandOp::Write) {
    lifetime_->end_command(done);
    // FUA: the packing buffer's units reach flash before the command completes.
    if (cmd.fua && buffer_.enabled()) buffer_.flush(waits);
  }
  if (request) ftl_->end_request();
  return done;
}

// Flexible data placement (NVMe FDP): a write's placement identifier indexes its namespace's
// placement handle list; one past its end goes to the namespace's first handle, an Invalid
// Placement Identifier event.
uint8_t Firmware::placement_handle(const HostCommand& cmd) {
  const std::vector<uint8_t>& handles = placement_list(cmd.offset_bytes);
  if (cmd.placement < handles.size()) return handles[cmd.placement];
  ++stats_.invalid_placement_ids;
  return handles[0];
}

const std::vector<uint8_t>& Firmware::placement_list(uint64_t offset_bytes) const {
  return std::upper_bound(
             placement_lists_.begin(), placement_lists_.end(), offset_bytes,
             [](uint64_t offset, const PlacementList& l) { return offset < l.end_byte; })
      ->handles;
}

void Firmware::update_placement(const HostCommand& cmd, Completion& done) {
  const auto refuse = [&done](PlacementStatus s) {
    done.failed = true;
    done.status = uint16_t(s);
  };
  if (handles_ == 0 || zoned_.owns(cmd.offset_bytes)) return refuse(PlacementStatus::FdpDisabled);
  const std::vector<uint8_t>& handles = placement_list(cmd.offset_bytes);
  if (cmd.placement >= handles.size()) return refuse(PlacementStatus::InvalidPlacementHandleList);
  // Out of spare, the drive fails what would write (the update pads open word lines).
  done.failed = ftl_->read_only();
  if (done.failed) return;
  hal_.ftl_work(Hal::kAllUnits);
  if (buffer_.enabled()) buffer_.flush(done.ops);
  ftl_->update_handle(handles[cmd.placement]);
  ++stats_.placement_updates;
}

void Firmware::write_managed(const HostCommand& cmd, Lpn lpn, Lpn first, bool whole, uint64_t end) {
  OpId data_from = kNoOp;
  if (!whole) {
    data_from = lifetime_->read_old(lpn);
    if (data_from != kNoOp) ++stats_.rmw_reads;
  }
  const sc_core::sc_time data_at =
      hal_.host_data_at(std::min(end, (lpn + 1) * page_bytes_) - cmd.offset_bytes);
  const PageToken token{lpn, cmd.version};
  ++stats_.page_writes;
  if (whole)
    lifetime_->write(lpn, token, page_content(cmd.content, lpn - first), cmd.compressible_percent,
                     data_at, completion_);
  else
    lifetime_->write_partial(lpn, token, data_from, data_at, completion_);
}

void Firmware::state(StateArchive& a) {
  if (lifetime_) throw StateError("the lifetime manager's state cannot be saved");
  if (!zoned_.empty()) throw StateError("zoned namespaces' state cannot be saved yet");
  a.section(ftl_->name().c_str());
  ftl_->state(a);
  buffer_.state(a);
}

}  // namespace ssd::fw
