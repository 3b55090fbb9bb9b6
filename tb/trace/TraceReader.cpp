#include "tb/trace/TraceReader.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace ssd::tb {

namespace {

constexpr uint64_t kPsPerSecond = 1'000'000'000'000;
// sc_time(double, ...) stores its value through an int64, so spans stay below 2^63 ps.
constexpr uint64_t kMaxSpanSeconds = std::numeric_limits<int64_t>::max() / kPsPerSecond;
constexpr int64_t kMaxSpanPs = static_cast<int64_t>(kMaxSpanSeconds * kPsPerSecond);
constexpr size_t kSkippedMessagesKept = 5;

}  // namespace

const char* to_string(IoOp op) {
  switch (op) {
    case IoOp::Read:
      return "read";
    case IoOp::Write:
      return "write";
    case IoOp::Trim:
      return "trim";
    case IoOp::Flush:
      return "flush";
    case IoOp::Append:
      return "append";
    case IoOp::ZoneManage:
      return "zone_manage";
    case IoOp::PlacementUpdate:
      return "placement_update";
    case IoOp::ZoneReport:
      return "zone_report";
  }
  return "?";
}

TimeUnit time_unit_named(const std::string& name) {
  for (const TimeUnit& u : {kNanoseconds, kMicroseconds, kMilliseconds, kSeconds}) {
    if (name == u.name) return u;
  }
  throw UsageError("--time-unit: expected ns, us, ms or s" + got(name));
}

TraceReader::TraceReader(std::string path, const char* format, TimeUnit unit,
                         const char* time_field, const TraceOptions& opts)
    : lines_(std::move(path)), unit_(unit), time_field_(time_field), opts_(opts) {
  counters_.format = format;
  selected_ = opts_.volumes;
  std::sort(selected_.begin(), selected_.end());
  selected_.erase(std::unique(selected_.begin(), selected_.end()), selected_.end());
  if (opts_.sector_bytes == 0) throw UsageError("--sector-bytes: expected a positive size");
  if (!(opts_.time_scale >= 0) || !std::isfinite(opts_.time_scale)) {
    throw UsageError("--time-scale: expected a finite non-negative factor");
  }
  if (opts_.start_ps >= opts_.end_ps) throw UsageError("--start-s: expected less than --end-s");
  if (opts_.align_to_page || opts_.capacity_bytes != 0) {
    if (opts_.page_bytes == 0 || opts_.page_bytes % kSectorBytes != 0) {
      throw InputError("trace options: the drive's page size must be a multiple of 512 bytes");
    }
  }
  if (opts_.align_to_page) grain_ = opts_.page_bytes;
  if (opts_.capacity_bytes == 0) return;
  if (opts_.fit == Fit::kScale && opts_.trace_capacity == 0) {
    throw UsageError("--trace-capacity: expected a positive byte count");
  }
  counters_.trace_capacity = opts_.fit == Fit::kScale ? opts_.trace_capacity : 0;
  if (opts_.volume_map == VolumeMap::kConcat) {
    const uint64_t slices =
        opts_.volume_count != 0 ? opts_.volume_count : static_cast<uint64_t>(opts_.volumes.size());
    if (slices == 0) throw UsageError("--volumes: expected the number of volumes to concatenate");
    if (opts_.volumes.size() > slices) {
      throw UsageError("--volumes: " + std::to_string(slices) + " slices for " +
                       std::to_string(opts_.volumes.size()) + " volumes given by --volume");
    }
    // Whole pages, so two volumes never share one.
    slice_bytes_ = opts_.capacity_bytes / slices / opts_.page_bytes * opts_.page_bytes;
    if (slice_bytes_ == 0) {
      throw UsageError("--volumes: " + std::to_string(slices) + " slices of a " +
                       std::to_string(opts_.capacity_bytes) + "-byte drive are below one page");
    }
    counters_.slice_volumes = opts_.volumes;
  }
}

std::string TraceReader::describe() const { return counters_.format + " trace " + path(); }

bool TraceReader::next_line() {
  std::string_view l;
  while (lines_.next(l)) {
    const std::string_view content = trim_blanks(l);
    if (content.empty() || content.front() == '#') continue;
    line_ = l;
    return true;
  }
  return false;
}

bool TraceReader::fail(std::string_view field, const std::string& reason) {
  return fail_at(lines_.line_number(), field, reason);
}

bool TraceReader::fail(std::string_view field, const char* expected, std::string_view text) {
  return fail(field, expected + got(text));
}

std::string TraceReader::where(std::string_view field, const std::string& reason) const {
  return message(lines_.line_number(), field, reason);
}

bool TraceReader::fail_at(uint64_t line, std::string_view field, const std::string& reason) {
  error_ = message(line, field, reason);
  return false;
}

std::string TraceReader::message(uint64_t line, std::string_view field,
                                 const std::string& reason) const {
  std::string msg = path();
  msg += ':';
  msg += std::to_string(line);
  msg += ": ";
  msg += field;
  msg += ": ";
  msg += reason;
  return msg;
}

bool TraceReader::split_record(std::string_view* fields, size_t count) {
  const size_t n = split(line_, ",", fields, count);
  return n == count || fail("record", "expected " + std::to_string(count) +
                                          " comma-separated fields, got " + std::to_string(n));
}

bool TraceReader::split_blank_record(std::string_view* fields, size_t count) {
  const size_t n = split_blanks(line_, fields, count);
  return n == count || fail("record", "expected " + std::to_string(count) +
                                          " blank-separated fields, got " + std::to_string(n));
}

bool TraceReader::unsigned_field(std::string_view text, std::string_view field, uint64_t& out) {
  const char* reason = parse_unsigned(text, out);
  return reason == nullptr || fail(field, reason, text);
}

bool TraceReader::sectors_field(std::string_view text, std::string_view field, uint64_t& out) {
  uint64_t sectors = 0;
  if (!unsigned_field(text, field, sectors)) return false;
  if (sectors > std::numeric_limits<uint64_t>::max() / opts_.sector_bytes) {
    return fail(field, "request ends beyond 2^64 bytes", text);
  }
  out = sectors * opts_.sector_bytes;
  return true;
}

bool TraceReader::check_extent(const TraceRecord& r, std::string_view offset_field,
                               std::string_view offset_text, std::string_view length_field,
                               std::string_view length_text, const char* what) {
  if (r.length_bytes == 0) {
    return fail(length_field, std::string("expected a positive ") + what + got(length_text));
  }
  return r.offset_bytes <= std::numeric_limits<uint64_t>::max() - r.length_bytes ||
         fail(offset_field, "request ends beyond 2^64 bytes", offset_text);
}

bool TraceReader::op_field(std::string_view text, std::string_view field, std::string_view read,
                           std::string_view write, const char* expected, IoOp& out) {
  const bool is_read = iequals(text, read);
  if (!is_read && !iequals(text, write)) return fail(field, expected, text);
  out = is_read ? IoOp::Read : IoOp::Write;
  return true;
}

Timestamp TraceReader::time_of_units(uint64_t units) const {
  const uint64_t per_second = kPsPerSecond / unit_.ps;
  return {units / per_second, units % per_second * unit_.ps};
}

bool TraceReader::time_field(std::string_view text, Timestamp& out) {
  // Parsed as integers rather than through a double, so 0.026214 s is exactly 26214 us.
  const size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction =
      dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  bool ok = !whole.empty() || !fraction.empty();
  uint64_t units = 0;
  if (ok && !whole.empty()) ok = parse_unsigned(whole, units) == nullptr;
  Timestamp t = time_of_units(units);
  uint64_t scale = unit_.ps;
  for (size_t i = 0; ok && i < fraction.size(); ++i) {
    const char c = fraction[i];
    ok = c >= '0' && c <= '9';
    scale /= 10;  // 0 once past the picosecond: further digits add nothing
    t.ps += static_cast<uint64_t>(c - '0') * scale;
  }
  if (!ok) {
    return fail(time_field_, (unit_.ps == kSeconds.ps
                                  ? std::string("expected decimal seconds")
                                  : std::string("expected a decimal time in ") + unit_.name) +
                                 got(text));
  }
  out = t;
  return true;
}

std::string TraceReader::format_time(Timestamp t) const {
  const uint64_t per_second = kPsPerSecond / unit_.ps;
  std::string text = std::to_string(t.s * per_second + t.ps / unit_.ps);
  if (const uint64_t rest = t.ps % unit_.ps; rest != 0) {
    std::string fraction = std::to_string(rest);
    const size_t digits = std::to_string(unit_.ps).size() - 1;
    fraction.insert(0, digits - fraction.size(), '0');
    fraction.erase(fraction.find_last_not_of('0') + 1);
    text += '.' + fraction;
  }
  return text + ' ' + unit_.name;
}

bool TraceReader::next_record(TraceRecord& out) {
  for (;;) {
    const Parsed parsed = parse(out);
    if (parsed == Parsed::kEnd) return false;
    if (parsed == Parsed::kBadLine) {
      skip();
      continue;
    }
    ++counters_.records;
    if (!selected_.empty() && !std::binary_search(selected_.begin(), selected_.end(), out.volume)) {
      ++counters_.other_volumes;
      continue;
    }
    return true;
  }
}

void TraceReader::skip() {
  if (!opts_.skip_bad_lines) throw BadLineError(error_);
  ++counters_.skipped;
  if (counters_.skipped_messages.size() < kSkippedMessagesKept) {
    counters_.skipped_messages.push_back(error_);
  }
}

bool TraceReader::Later::operator()(const Pending& a, const Pending& b) const {
  if (b.record.time < a.record.time) return true;
  if (a.record.time < b.record.time) return false;
  return a.sequence > b.sequence;
}

bool TraceReader::take(Pending& out) {
  TraceRecord r;
  while (!input_done_ && window_.size() <= opts_.reorder_window) {
    if (!next_record(r)) {
      input_done_ = true;
      break;
    }
    if (!admit(r)) skip();
  }
  if (window_.empty()) return false;
  out = window_.top();
  window_.pop();
  last_ = out.record.time;
  emitted_ = true;
  return true;
}

bool TraceReader::admit(const TraceRecord& r) {
  if (emitted_ && r.time < last_) {
    const std::string times = format_time(r.time) + " after " + format_time(last_);
    if (opts_.reorder_window == 0) return fail(time_field_, "goes back in time (" + times + ")");
    return fail(time_field_, "out of order by more than --reorder-window " +
                                 std::to_string(opts_.reorder_window) + " records (" + times +
                                 ", already replayed)");
  }
  if (!started_) {
    origin_ = newest_ = r.time;
    started_ = true;
  }
  // Signed: with a reorder window a record may precede the file's first one.
  const __int128 from_origin =
      (static_cast<__int128>(r.time.s) - static_cast<__int128>(origin_.s)) * kPsPerSecond +
      static_cast<__int128>(r.time.ps) - static_cast<__int128>(origin_.ps);
  if (from_origin >= kMaxSpanPs || from_origin <= -kMaxSpanPs) {
    return fail(time_field_, "more than " + std::to_string(kMaxSpanSeconds) + " s " +
                                 (from_origin > 0 ? "after" : "before") +
                                 " the first record, beyond the simulated time range");
  }
  if (r.time < newest_) {
    ++counters_.reordered;
  } else {
    newest_ = r.time;
  }
  window_.push(Pending{r, static_cast<int64_t>(from_origin), lines_.line_number(), sequence_++});
  return true;
}

bool TraceReader::next(HostRequest& out) {
  Pending p;
  while (!done_ && take(p)) {
    if (!in_replay(p)) continue;
    if (emit(p, out)) {
      out.ns = ns_;
      out.placement = placement_of(out.offset_bytes);
      return true;
    }
    skip();
  }
  return false;
}

bool TraceReader::in_replay(const Pending& p) {
  // A start of 0 means from the beginning, including records a reorder window put before
  // the file's first one.
  if (opts_.start_ps != 0 && p.from_origin_ps < static_cast<int64_t>(opts_.start_ps)) {
    ++counters_.before_start;
    return false;
  }
  if ((p.from_origin_ps >= 0 && static_cast<uint64_t>(p.from_origin_ps) >= opts_.end_ps) ||
      (opts_.max_requests != 0 && counters_.requests == opts_.max_requests)) {
    done_ = true;
    counters_.stopped_early = true;
    return false;
  }
  return true;
}

bool TraceReader::emit(const Pending& p, HostRequest& out) {
  // Mapped first, so a record skipped for its size does not become the first arrival. A flush
  // has no address.
  if (p.record.op == IoOp::Flush) {
    out.offset_bytes = 0;
    out.length_bytes = 0;
  } else if (!map_address(p, out)) {
    return false;
  }
  // Both lie within kMaxSpanPs of the origin and come in time order: 0 <= span < 2^64, so the
  // unsigned difference is exact.
  const int64_t first = arrivals_started_ ? first_arrival_ps_ : p.from_origin_ps;
  uint64_t arrival_ps = static_cast<uint64_t>(p.from_origin_ps) - static_cast<uint64_t>(first);
  if (opts_.time_scale != 1.0) {
    const long double scaled = std::round(static_cast<long double>(arrival_ps) * opts_.time_scale);
    arrival_ps = scaled < static_cast<long double>(kMaxSpanPs) ? static_cast<uint64_t>(scaled)
                                                               : static_cast<uint64_t>(kMaxSpanPs);
  }
  if (arrival_ps >= static_cast<uint64_t>(kMaxSpanPs)) {
    return fail_at(p.line, time_field_,
                   "arrives more than " + std::to_string(kMaxSpanSeconds) +
                       " s after the first request, beyond the simulated time range");
  }
  first_arrival_ps_ = first;
  arrivals_started_ = true;
  out.arrival = picoseconds_time(arrival_ps);
  out.op = p.record.op;
  out.fua = p.record.fua;
  out.has_fingerprint = p.record.has_fingerprint;
  out.fingerprint = p.record.fingerprint;
  out.compressible_percent = 0;
  out.volume = p.record.volume;
  ++counters_.requests;
  return true;
}

bool TraceReader::map_address(const Pending& p, HostRequest& out) {
  const TraceRecord& r = p.record;
  uint64_t offset = r.offset_bytes;
  uint64_t length = r.length_bytes;
  if (opts_.align_to_page) {
    const uint64_t page = opts_.page_bytes;
    const uint64_t first = offset / page * page;
    const uint64_t last = (offset + length - 1) / page * page;  // offset + length < 2^64
    if (last > std::numeric_limits<uint64_t>::max() - page) {
      return fail_at(p.line, "offset", "request ends in the last page below 2^64 bytes");
    }
    if (first != offset || last + page != offset + length) ++counters_.aligned;
    offset = first;
    length = last + page - first;
  }
  uint64_t base = 0;
  uint64_t region = opts_.capacity_bytes;
  if (region != 0 && opts_.volume_map == VolumeMap::kConcat) {
    uint64_t slice = 0;
    if (!slice_of(r.volume, p.line, slice)) return false;
    base = slice * slice_bytes_;
    region = slice_bytes_;
  }
  if (region != 0) {
    if (length > region) {
      return fail_at(p.line, "size",
                     "request of " + std::to_string(length) + " bytes is larger than the " +
                         std::to_string(region) + "-byte region it maps to");
    }
    if (opts_.fit == Fit::kScale && opts_.trace_capacity > region) {
      offset = static_cast<uint64_t>(static_cast<unsigned __int128>(offset) * region /
                                     opts_.trace_capacity) /
               grain_ * grain_;
      ++counters_.scaled;
    }
    if (offset + length > region) {
      ++counters_.wrapped;
      offset %= region;
      if (offset + length > region) offset = (region - length) / grain_ * grain_;
    }
  }
  out.offset_bytes = base + offset;
  out.length_bytes = length;
  return true;
}

bool TraceReader::slice_of(uint64_t volume, uint64_t line, uint64_t& slice) {
  std::vector<uint64_t>& order = counters_.slice_volumes;
  if (last_slice_ >= order.size() || order[last_slice_] != volume) {
    const auto it = std::find(order.begin(), order.end(), volume);
    if (it == order.end() && order.size() == opts_.volume_count) {
      return fail_at(line, "volume",
                     "volume " + std::to_string(volume) + " is one more than --volumes " +
                         std::to_string(opts_.volume_count));
    }
    last_slice_ = static_cast<size_t>(it - order.begin());  // order.size() for a new volume
    if (it == order.end()) order.push_back(volume);
  }
  slice = last_slice_;
  return true;
}

void TraceReader::add_warnings(std::vector<std::string>& out) const {
  if (lines_.compressed() && !lines_.gzip_verified()) {
    out.push_back(path() +
                  ": reading stopped before the end of the gzip data, so its "
                  "checksum and length were not verified");
  }
}

void TraceReader::add_to_report(nlohmann::ordered_json& report) const {
  const TraceCounters& c = counters_;
  nlohmann::ordered_json t;
  t["file"] = path();
  t["format"] = c.format;
  t["detected"] = c.detected;
  t["compressed"] = lines_.compressed();
  t["gzip_verified"] = lines_.compressed() ? nlohmann::ordered_json(lines_.gzip_verified())
                                           : nlohmann::ordered_json();
  t["records"] = c.records;
  t["ignored_lines"] = c.ignored;
  t["skipped_lines"] = c.skipped;
  t["skipped_messages"] = c.skipped_messages;
  t["other_volumes"] = c.other_volumes;
  t["before_start"] = c.before_start;
  t["reordered"] = c.reordered;
  t["requests"] = c.requests;
  t["stopped_early"] = c.stopped_early;
  t["aligned"] = c.aligned;
  t["wrapped"] = c.wrapped;
  t["scaled"] = c.scaled;
  t["fit"] = opts_.fit == Fit::kScale ? "scale" : "wrap";
  t["trace_capacity"] =
      c.trace_capacity != 0 ? nlohmann::ordered_json(c.trace_capacity) : nlohmann::ordered_json();
  t["volume_map"] = opts_.volume_map == VolumeMap::kConcat ? "concat" : "overlap";
  nlohmann::ordered_json slices = nlohmann::ordered_json::array();
  for (size_t i = 0; i < c.slice_volumes.size(); ++i) {
    slices.push_back(
        {{"volume", c.slice_volumes[i]}, {"offset", i * slice_bytes_}, {"bytes", slice_bytes_}});
  }
  t["slices"] = slices;
  t["sector_bytes"] = opts_.sector_bytes;
  t["time_scale"] = opts_.time_scale;
  t["closed_loop"] = opts_.closed_loop;
  t["start_s"] = static_cast<double>(opts_.start_ps) / double(kPsPerSecond);
  t["end_s"] =
      opts_.end_ps == std::numeric_limits<uint64_t>::max()
          ? nlohmann::ordered_json()
          : nlohmann::ordered_json(static_cast<double>(opts_.end_ps) / double(kPsPerSecond));
  t["max_requests"] = opts_.max_requests;
  report["trace"] = t;
}

}  // namespace ssd::tb
