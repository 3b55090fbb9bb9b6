#pragma once
// Shared machinery of the text trace readers: line streaming, field splitting and parsing,
// arrival times and "file:line: field: reason" errors. The parsers are also used by the
// workload spec, so every number in user input is parsed by the same code.
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>

#include <systemc>

#include "tb/HostRequest.h"

namespace ssd::tb {

// Number parsers. Each returns nullptr on success, else what was expected ("expected an
// unsigned integer"), for the caller to prefix with the place and follow with got(text).
// They reject empty text, signs, surrounding blanks and trailing garbage.
const char* parse_unsigned(std::string_view text, uint64_t& out);
// Finite and non-negative: no NaN, no infinity.
const char* parse_double(std::string_view text, double& out);

// `, got "text"`, with control and non-ASCII bytes escaped and long text cut, so a binary
// file cannot garble the message.
std::string got(std::string_view text);

// ASCII case-insensitive equality (op names), without allocating.
bool iequals(std::string_view a, std::string_view b);

// Splits `line` at every character of `delims` into at most `max_fields` fields, each trimmed
// of spaces and tabs. Returns the number of fields in the line, which may exceed max_fields
// (only the first max_fields are stored), so callers can report the real count.
size_t split(std::string_view line, std::string_view delims, std::string_view* fields,
             size_t max_fields);

// A streamed text trace. Subclasses parse one record per line in next(); this class gives
// them the lines (blank lines and '#' comments skipped) and turns timestamps into arrivals:
// the first record arrives at time zero.
class TraceReader : public RequestSource {
 public:
  bool timed() const override { return true; }
  std::string describe() const override;

 protected:
  // The unit the format writes timestamps in, used to print them back in errors.
  enum class TimeUnit { kSeconds, kNanoseconds };

  // A trace timestamp as whole seconds plus picoseconds, so absolute (epoch) timestamps do
  // not overflow; only the span from the first record must fit in an sc_time.
  struct Timestamp {
    uint64_t s = 0;
    uint64_t ps = 0;  // < 1e12
  };

  // Opens `path`; throws ssd::InputError("<path>: cannot open: <reason>").
  TraceReader(std::string path, const char* format, TimeUnit unit);

  // Moves to the next line that is neither blank nor a comment and returns true, or returns
  // false at the end of the file. The line excludes a trailing '\r'.
  bool next_line();
  std::string_view line() const { return line_; }

  // Throws ssd::InputError("<path>:<line>: <field>: <reason>").
  [[noreturn]] void fail(std::string_view field, const std::string& reason) const;

  // Splits line() at commas into exactly `count` fields, else fails naming the count.
  void split_record(std::string_view* fields, size_t count) const;
  uint64_t unsigned_field(std::string_view text, std::string_view field) const;
  // Decimal seconds ("12.026214"), exact to the picosecond; further digits are dropped.
  Timestamp seconds_field(std::string_view text, std::string_view field) const;
  // The arrival time of a record stamped `t`; fails if `t` is earlier than the previous one.
  sc_core::sc_time arrival(Timestamp t, std::string_view field);

 private:
  std::string format_time(Timestamp t) const;

  std::string path_;
  const char* format_;
  TimeUnit unit_;
  std::ifstream in_;
  std::string buffer_;     // reused for every line, so reading does not allocate
  std::string_view line_;  // buffer_ without its '\r'
  uint64_t line_number_ = 0;
  bool started_ = false;  // a record has set first_
  Timestamp first_;
  Timestamp previous_;
};

}  // namespace ssd::tb
