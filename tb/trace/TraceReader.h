#pragma once
// Shared machinery of the text trace readers: line streaming (plain or gzip), field parsing,
// timestamps, "file:line: field: reason" errors, and the options every format shares
// (docs/trace-formats.md): volume selection and mapping, reordering, time window, time scale,
// alignment and fitting to the drive.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <queue>
#include <string>
#include <string_view>
#include <vector>
#include <systemc>

#include "common/Errors.h"
#include "tb/host/HostRequest.h"
#include "tb/trace/LineReader.h"
#include "tb/trace/TextFields.h"
#include "tb/trace/TraceOptions.h"

namespace ssd::tb {

// A malformed record: the error --skip-bad-lines skips. Other input errors (a file that cannot
// be read, corrupt compressed data) always stop the run.
struct BadLineError : InputError {
  using InputError::InputError;
};

// What a reader's parse() found.
enum class Parsed {
  kRecord,   // a record
  kEnd,      // the end of the trace
  kBadLine,  // a malformed line, its message recorded by TraceReader::fail()
};

// A trace timestamp as whole seconds plus picoseconds, so absolute (epoch) timestamps do not
// overflow; only spans between records must fit in an sc_time.
struct Timestamp {
  uint64_t s = 0;
  uint64_t ps = 0;  // < 1e12
};
inline bool operator<(const Timestamp& a, const Timestamp& b) {
  return a.s < b.s || (a.s == b.s && a.ps < b.ps);
}

// The unit a format writes timestamps in.
struct TimeUnit {
  const char* name;  // as printed after a value in messages
  uint64_t ps;       // picoseconds per unit: a power of ten up to 1e12
};
inline constexpr TimeUnit kSeconds{"s", 1'000'000'000'000};
inline constexpr TimeUnit kMilliseconds{"ms", 1'000'000'000};
inline constexpr TimeUnit kMicroseconds{"us", 1'000'000};
inline constexpr TimeUnit kNanoseconds{"ns", 1'000};
inline constexpr TimeUnit kFiletimeTicks{"x 100 ns", 100'000};
// "ns", "us", "ms" or "s"; throws ssd::InputError naming --time-unit otherwise.
TimeUnit time_unit_named(const std::string& name);

// One record as its format gives it, before the shared options apply.
struct TraceRecord {
  Timestamp time;
  uint64_t volume = 0;  // ASU, disk or device number; 0 where the format has none
  IoOp op = IoOp::Read;
  uint64_t offset_bytes = 0;
  uint64_t length_bytes = 0;  // > 0; offset + length <= 2^64 - 1; a flush: 0 and 0
  bool fua = false;
  bool has_fingerprint = false;
  Fingerprint fingerprint{};
};

// A streamed text trace. Subclasses parse one record at a time in parse(); this class gives
// them the lines (blank lines and '#' comments skipped) and applies the shared options in
// next(). Arrival times count from the first request passed on, which arrives at time zero.
//
// A bad line is no exception until it stops the run: fail() records its message and returns
// false, which the helpers and parse() pass up, so skipping one costs no unwinding (a trace
// with many bad lines, the fuzzers' inputs). Without --skip-bad-lines the first one is thrown
// as a BadLineError.
class TraceReader : public RequestSource {
 public:
  bool next(HostRequest& out) final;
  bool timed() const override { return !opts_.closed_loop; }
  uint32_t host_queue_depth() const override { return opts_.queue_depth; }
  std::string describe() const override;
  void add_to_report(nlohmann::ordered_json& report) const override;
  void add_warnings(std::vector<std::string>& out) const override;

  // The next record as parsed, with bad lines skipped (if asked) and unselected volumes left
  // out, but no order, window or address option applied: the first pass of the options that
  // need the whole trace's extent. Not to be mixed with next().
  bool next_record(TraceRecord& out);

  const TraceCounters& counters() const { return counters_; }
  void set_detected() { counters_.detected = true; }
  const std::string& path() const { return lines_.path(); }
  // The namespace its requests address (--trace-namespaces; by default the first).
  void set_namespace(uint32_t ns) { ns_ = ns; }
  // The placement handle its writes go through (--trace-placement; by default 0).
  void set_placement(uint16_t handle) { placement_ = handle; }
  // The handle of a request at `offset` (of its namespace): its placement range's, else the
  // reader's.
  uint16_t placement_of(uint64_t offset) const {
    const std::vector<PlacementRange>& ranges = opts_.placement_ranges;
    if (ranges.empty()) return placement_;
    const auto it = std::upper_bound(ranges.begin(), ranges.end(), offset,
                                     [](uint64_t o, const PlacementRange& r) { return o < r.end; });
    return it != ranges.end() && offset >= it->first ? it->handle : placement_;
  }

 protected:
  // Opens `path`; throws ssd::InputError("<path>: cannot open: <reason>") or for options that
  // contradict each other. `time_field` names the timestamp field in messages.
  TraceReader(std::string path, const char* format, TimeUnit unit, const char* time_field,
              const TraceOptions& opts);

  // Parses the next record into `out`; Parsed::kBadLine once fail() has recorded why not.
  virtual Parsed parse(TraceRecord& out) = 0;

  // Moves to the next line that is neither blank nor a comment and returns true, or returns
  // false at the end of the file. The line excludes a trailing '\r'.
  bool next_line();
  std::string_view line() const { return line_; }
  // A line that is not a request (blkparse: events other than the issue).
  void ignore_line() { ++counters_.ignored; }

  // Records "<path>:<line>: <field>: <reason>" as the line's error and returns false, so a
  // check reads `return ok || fail(...)`. Cold, so the compiler keeps the paths that build
  // messages out of the way of good lines.
  [[nodiscard, gnu::cold]] bool fail(std::string_view field, const std::string& reason);
  // The same, the reason being `expected` then got(text): built here rather than at each check.
  [[nodiscard, gnu::cold]] bool fail(std::string_view field, const char* expected,
                                     std::string_view text);
  // The same message, for an error that must stop the run whatever the options.
  std::string where(std::string_view field, const std::string& reason) const;
  // The end of a parse() that has checked every field: `ok` is false once one failed.
  static Parsed record_if(bool ok) { return ok ? Parsed::kRecord : Parsed::kBadLine; }

  // The field parsers: each stores its value through its last parameter and returns true, or
  // returns fail() naming the field.
  //
  // Splits line() at commas, or at runs of blanks, into exactly `count` fields, else fails
  // naming the count.
  [[nodiscard]] bool split_record(std::string_view* fields, size_t count);
  [[nodiscard]] bool split_blank_record(std::string_view* fields, size_t count);
  [[nodiscard]] bool unsigned_field(std::string_view text, std::string_view field, uint64_t& out);
  // A positive length, or an offset, counted in --sector-bytes sectors, as bytes.
  [[nodiscard]] bool sectors_field(std::string_view text, std::string_view field, uint64_t& out);
  // Fails unless length > 0 ("expected a positive <what>") and offset + length < 2^64.
  [[nodiscard]] bool check_extent(const TraceRecord& r, std::string_view offset_field,
                                  std::string_view offset_text, std::string_view length_field,
                                  std::string_view length_text, const char* what);
  // Read if `text` is `read`, write if it is `write` (any case), else fails with `expected`.
  [[nodiscard]] bool op_field(std::string_view text, std::string_view field, std::string_view read,
                              std::string_view write, const char* expected, IoOp& out);
  // A timestamp in the format's unit: decimal digits with an optional fraction, exact to the
  // picosecond (further digits are dropped).
  [[nodiscard]] bool time_field(std::string_view text, Timestamp& out);
  // A whole number of the format's units.
  Timestamp time_of_units(uint64_t units) const;

  const TraceOptions& options() const { return opts_; }

 private:
  // A record waiting in the reorder window, with what is needed to report it.
  struct Pending {
    TraceRecord record;
    int64_t from_origin_ps;  // time after the first record of the file
    uint64_t line;
    uint64_t sequence;  // file order, so equal timestamps keep it
  };
  struct Later {
    bool operator()(const Pending& a, const Pending& b) const;
  };

  [[nodiscard, gnu::cold]] bool fail_at(uint64_t line, std::string_view field,
                                        const std::string& reason);
  std::string message(uint64_t line, std::string_view field, const std::string& reason) const;
  // The bad line fail() recorded: counted, its message kept among the first few, if bad lines
  // are skipped; else thrown as the BadLineError that stops the run.
  void skip();
  // Reads records into the window until it holds more than reorder_window of them, then takes
  // the earliest; false when everything has been taken.
  bool take(Pending& out);
  // Puts a record in the window; false (through fail()) if it cannot be replayed in order.
  [[nodiscard]] bool admit(const TraceRecord& r);
  // False for a record before --start-s and, marking the replay done, for one past --end-s
  // or --max-requests.
  bool in_replay(const Pending& p);
  // Turns a record into a request; false (through fail()) if it cannot be replayed.
  [[nodiscard]] bool emit(const Pending& p, HostRequest& out);
  [[nodiscard]] bool map_address(const Pending& p, HostRequest& out);
  [[nodiscard]] bool slice_of(uint64_t volume, uint64_t line, uint64_t& slice);
  std::string format_time(Timestamp t) const;

  LineReader lines_;
  TimeUnit unit_;
  const char* time_field_;
  TraceOptions opts_;
  TraceCounters counters_;
  std::string_view line_;
  std::string error_;  // the message of the last bad line (fail())

  std::vector<uint64_t> selected_;  // the --volume list, sorted
  std::priority_queue<Pending, std::vector<Pending>, Later> window_;
  bool input_done_ = false;
  bool done_ = false;
  uint64_t sequence_ = 0;
  bool started_ = false;  // origin_ is set
  Timestamp origin_;      // the file's first record
  Timestamp newest_;      // the latest timestamp admitted
  bool emitted_ = false;  // last_ is set
  Timestamp last_;        // the latest timestamp taken from the window
  bool arrivals_started_ = false;
  int64_t first_arrival_ps_ = 0;  // from_origin_ps of the first request passed on

  uint64_t grain_ = kSectorBytes;  // offsets stay multiples of this when moved
  uint64_t slice_bytes_ = 0;       // concat: each volume's share of the drive
  size_t last_slice_ = 0;          // concat: the previous record's slice, checked first
  uint32_t ns_ = 0;
  uint16_t placement_ = 0;
};

}  // namespace ssd::tb
