#include "tb/run/Timeline.h"

#include <algorithm>
#include <array>
#include <iterator>

#include "common/Format.h"
#include "common/SanitizerStack.h"
#include "firmware/ftl/PageLevelFtl.h"

namespace ssd::tb {
namespace {

// The groups whose busy fraction is a column (the monitor's group names), and its name.
constexpr std::pair<const char*, const char*> kBusyColumns[] = {{model::kNandGroup, "dies_busy"},
                                                                {"channel", "channels_busy"},
                                                                {"controller", "controller_busy"}};

// A rate, a latency or a busy fraction of a row; undefined where it has no requests (or the
// drive no such hardware).
struct Cell {
  bool defined = false;
  double value = 0;
};

// Empty (NaN to a CSV reader) where undefined.
void cell(std::ostream& out, const Cell& c) {
  out << ',';
  if (c.defined) out << format_double(c.value);
}

// The columns of a row's host figures and of the drive's, each also a probe (vcd_probes()).
constexpr const char* kHostColumns[] = {"read_iops",     "write_iops",   "read_mbps",
                                        "write_mbps",    "read_mean_us", "read_p99_us",
                                        "write_mean_us", "write_p99_us"};
constexpr const char* kDriveColumns[] = {"outstanding",      "write_buffer_pages", "free_blocks",
                                         "gc_victims",       "gc_pages_copied",    "gc_waited",
                                         "slc_pages_folded", "slc_dynamic_blocks"};

// The dynamic SLC cache's blocks now: 0 without one (ftl.slc_dynamic empty, or an FTL
// without an SLC cache).
uint64_t dynamic_slc_blocks(const fw::Ftl& ftl) {
  const auto* page_level = dynamic_cast<const fw::PageLevelFtl*>(&ftl);
  return page_level ? page_level->dynamic_slc().blocks() : 0;
}

}  // namespace

std::vector<std::string> Timeline::vcd_probes() {
  std::vector<std::string> names;
  for (const char* c : kHostColumns) names.push_back(std::string("timeline.") + c);
  for (const char* c : kDriveColumns) names.push_back(std::string("timeline.") + c);
  for (const auto& [group, column] : kBusyColumns)
    names.push_back(std::string("timeline.") + column);
  names.emplace_back("timeline.power_w");
  return names;
}

Timeline::Timeline(const std::string& dir, const sc_core::sc_time& interval, const Host& host,
                   const model::Ssd& ssd, model::EnergyMonitor& monitor)
    : file_(dir + "/timeline.csv"),
      interval_ps_(interval.value()),
      host_(host),
      ssd_(ssd),
      monitor_(monitor),
      aging_(ssd.channels() != 0 && ssd.channel(0).ecc() != nullptr),
      zoned_(!ssd.controller().firmware().zoned().empty()) {
  const std::vector<std::string>& groups = monitor.groups();
  const std::vector<model::EnergyMonitor::ComponentPower> components = monitor.component_powers();
  last_.drive.busy_ps.assign(groups.size(), 0);  // every counter starts at 0
  last_.drive.component_busy_ps.assign(components.size(), 0);
  std::vector<uint32_t> sizes(groups.size(), 0);
  for (std::size_t i = 0; i < components.size(); ++i) {
    const auto& c = components[i];
    ++sizes[std::size_t(std::find(groups.begin(), groups.end(), c.group) - groups.begin())];
    if (c.group == model::kNandGroup) dies_.push_back(uint32_t(i));
  }
  if (!dies_.empty()) {
    dies_file_.emplace(dir + "/timeline_dies.csv");
    auto& out = dies_file_->stream();
    out << "t_start_s,t_end_s";
    for (const uint32_t i : dies_) out << ',' << components[i].name;
    out << '\n';
  }
  auto& out = file_.stream();
  out << "t_start_s,t_end_s,reads,writes,trims,flushes,read_bytes,write_bytes";
  for (const char* c : kHostColumns) out << ',' << c;
  for (const char* c : kDriveColumns) out << ',' << c;
  for (const auto& [group, column] : kBusyColumns) {
    const auto g = std::find(groups.begin(), groups.end(), group);
    BusyGroup b;
    if (g != groups.end()) {
      b.index = int(g - groups.begin());
      b.components = sizes[std::size_t(b.index)];
    }
    busy_.push_back(b);
    out << ',' << column;
  }
  out << ",energy_j,power_w";
  if (aging_) out << ",retry_steps_mean,retry_reads,uncorrectable_reads";
  if (zoned_) out << ",open_zones,zones_reset";
  if (monitor.thermal())
    for (const auto& n : monitor.thermal()->nodes()) out << ",temp_" << n.name << "_c";
  out << '\n';
}

void Timeline::run() {
  using namespace sc_core;
  uint64_t next = interval_ps_;
  for (;;) {
    // Every event before the boundary; the kernel's time stays at the last one. Not when none
    // is due before it (an idle stretch): that sc_start would only warn (W571).
    const uint64_t to_boundary = next - sc_time_stamp().value();
    if (sc_get_status() == SC_ELABORATION || sc_time_to_pending_activity().value() < to_boundary)
      sc_start(sc_time::from_value(to_boundary), SC_EXIT_ON_STARVATION);
    sanitizer_on_thread_stack();  // row() may throw (a full disk)
    if (sc_get_status() == SC_STOPPED || !sc_pending_activity()) return;  // the run is over
    // Nothing is due before the boundary: time moves to it, no event runs.
    if (sc_time_stamp().value() < next)
      sc_start(sc_time::from_value(next - sc_time_stamp().value()), SC_RUN_TO_TIME);
    sanitizer_on_thread_stack();
    row(next, true);
    // The next boundary, or the last before the kernel's next event when whole intervals
    // pass without one.
    const uint64_t event = next + sc_time_to_pending_activity().value();
    next = std::max(next + interval_ps_, event - event % interval_ps_);
  }
}

void Timeline::finish(const sc_core::sc_time& end) {
  if (end.value() > start_ps_) row(end.value(), false);
  file_.commit();
  if (dies_file_) dies_file_->commit();
}

void Timeline::read(uint64_t t_ps, Counters& out) {
  const HostStats& h = host_.stats();
  const fw::FtlStats& gc = ssd_.controller().firmware().ftl().stats();
  out.reads = h.reads;
  out.writes = h.writes;
  out.trims = h.trims;
  out.flushes = h.flushes;
  out.read_bytes = h.read_bytes;
  out.write_bytes = h.write_bytes;
  out.gc_victims = gc.gc_blocks_reclaimed;
  out.gc_pages_copied = gc.gc_pages_copied;
  out.gc_waited = h.read_gc_wait.waited() + h.write_gc_wait.waited();
  out.slc_pages_folded = gc.slc_pages_folded;
  if (aging_) {
    out.unit_reads = out.retry_steps = out.retry_reads = out.uncorrectable_reads = 0;
    for (uint32_t ch = 0; ch < ssd_.channels(); ++ch) {
      const model::FlashChannel::Usage& u = ssd_.channel(ch).usage();
      for (std::size_t steps = 0; steps < u.reads_by_retries.size(); ++steps) {
        out.unit_reads += u.reads_by_retries[steps];
        out.retry_steps += steps * u.reads_by_retries[steps];
      }
      out.retry_reads += u.retry_reads;
      out.uncorrectable_reads += u.uncorrectable_reads;
    }
  }
  if (zoned_) out.zones_reset = ssd_.controller().firmware().zoned().zones_reset();
  monitor_.totals_at(t_ps, out.drive);
}

void Timeline::row(uint64_t end_ps, bool probe) {
  read(end_ps, now_);
  const Counters& a = last_;
  const Counters& b = now_;
  const double span_s = double(end_ps - start_ps_) / 1e12;
  const HostStats& h = host_.stats();
  const report::LatencyStats::Recent rd = h.read_latency.recent(a.reads, scratch_);
  const report::LatencyStats::Recent wr = h.write_latency.recent(a.writes, scratch_);
  const uint64_t reads = b.reads - a.reads, writes = b.writes - a.writes;
  const uint64_t read_bytes = b.read_bytes - a.read_bytes;
  const uint64_t write_bytes = b.write_bytes - a.write_bytes;
  const fw::Firmware& fw = ssd_.controller().firmware();
  // The probes' values, in vcd_probes()' order; a figure a row leaves undefined (an empty
  // cell) is 0 there.
  const std::array<Cell, std::size(kHostColumns)> host = {
      {{true, double(reads) / span_s},
       {true, double(writes) / span_s},
       {true, double(read_bytes) / 1e6 / span_s},
       {true, double(write_bytes) / 1e6 / span_s},
       {reads > 0, rd.mean_us},
       {reads > 0, rd.p99_us},
       {writes > 0, wr.mean_us},
       {writes > 0, wr.p99_us}}};
  const std::array<uint64_t, std::size(kDriveColumns)> drive = {
      host_.outstanding(),
      fw.write_buffer().dirty_pages(),
      fw.ftl().free_blocks(),
      b.gc_victims - a.gc_victims,
      b.gc_pages_copied - a.gc_pages_copied,
      b.gc_waited - a.gc_waited,
      b.slc_pages_folded - a.slc_pages_folded,
      dynamic_slc_blocks(fw.ftl())};
  std::array<Cell, std::size(kBusyColumns)> busy{};
  for (std::size_t k = 0; k < busy.size(); ++k) {
    if (busy_[k].index < 0) continue;
    const auto i = std::size_t(busy_[k].index);
    busy[k] = {true, double(b.drive.busy_ps[i] - a.drive.busy_ps[i]) / double(busy_[k].components) /
                         double(end_ps - start_ps_)};
  }
  const double energy_j = double(b.drive.energy_nwps - a.drive.energy_nwps) / 1e21;

  auto& out = file_.stream();
  out << format_double(double(start_ps_) / 1e12) << ',' << format_double(double(end_ps) / 1e12)
      << ',' << reads << ',' << writes << ',' << b.trims - a.trims << ',' << b.flushes - a.flushes
      << ',' << read_bytes << ',' << write_bytes;
  for (const Cell& c : host) cell(out, c);
  for (const uint64_t v : drive) out << ',' << v;
  for (const Cell& c : busy) cell(out, c);
  out << ',' << format_double(energy_j) << ',' << format_double(energy_j / span_s);
  if (aging_) {
    const uint64_t unit_reads = b.unit_reads - a.unit_reads;
    cell(out, {unit_reads > 0, double(b.retry_steps - a.retry_steps) / double(unit_reads)});
    out << ',' << b.retry_reads - a.retry_reads << ','
        << b.uncorrectable_reads - a.uncorrectable_reads;
  }
  if (zoned_) out << ',' << fw.zoned().open_zones() << ',' << b.zones_reset - a.zones_reset;
  for (double t : b.drive.temps_c) out << ',' << format_double(t);
  out << '\n';
  if (dies_file_) {
    auto& dies = dies_file_->stream();
    dies << format_double(double(start_ps_) / 1e12) << ',' << format_double(double(end_ps) / 1e12);
    for (const uint32_t i : dies_)
      dies << ','
           << format_double(double(b.drive.component_busy_ps[i] - a.drive.component_busy_ps[i]) /
                            double(end_ps - start_ps_));
    dies << '\n';
  }
  if (probe) {
    uint32_t p = 0;
    for (const Cell& c : host) monitor_.probe(end_ps, p++, c.defined ? c.value : 0);
    for (const uint64_t v : drive) monitor_.probe(end_ps, p++, double(v));
    for (const Cell& c : busy) monitor_.probe(end_ps, p++, c.defined ? c.value : 0);
    monitor_.probe(end_ps, p, energy_j / span_s);
  }
  std::swap(last_, now_);
  start_ps_ = end_ps;
}

}  // namespace ssd::tb
