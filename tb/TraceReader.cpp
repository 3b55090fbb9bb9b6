#include "tb/TraceReader.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "common/Errors.h"

namespace ssd::tb {

namespace {

constexpr uint64_t kPsPerSecond = 1'000'000'000'000;
constexpr int kFractionDigits = 12;  // picoseconds
// sc_time(double, ...) stores its value through an int64, so spans stay below 2^63 ps.
constexpr uint64_t kMaxSpanSeconds = std::numeric_limits<int64_t>::max() / kPsPerSecond;
constexpr size_t kMaxQuoted = 60;

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// By hand: find_first_not_of(" \t") would call memchr for every character.
std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

// Exact for any span below 2^63 ps at the default 1 ps resolution, whereas one double of
// picoseconds is exact only below 2^53 ps (2.5 hours): seconds * 1e12 is computed exactly
// (seconds * 5^12 < 2^24 * 2^28 fits a double's mantissa; * 2^12 is exact), and the
// remainder is below 1e12 < 2^53.
sc_core::sc_time picoseconds(uint64_t s, uint64_t ps) {
  return sc_core::sc_time(static_cast<double>(s), sc_core::SC_SEC) +
         sc_core::sc_time(static_cast<double>(ps), sc_core::SC_PS);
}

}  // namespace

const char* to_string(IoOp op) {
  switch (op) {
    case IoOp::Read:
      return "read";
    case IoOp::Write:
      return "write";
    case IoOp::Trim:
      return "trim";
  }
  return "?";
}

const char* parse_unsigned(std::string_view text, uint64_t& out) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  // On overflow ptr still marks the end of the digits, so garbage is reported first.
  if (ec == std::errc::invalid_argument || ptr != end) return "expected an unsigned integer";
  if (ec == std::errc::result_out_of_range) return "expected an unsigned integer below 2^64";
  return nullptr;
}

const char* parse_double(std::string_view text, double& out) {
  constexpr const char* kExpected = "expected a finite non-negative number";
  // from_chars accepts a leading '-', "nan" and "inf"; none of them is a valid amount here.
  if (text.empty() || text.front() == '-') return kExpected;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  if (ec != std::errc() || ptr != end || !std::isfinite(out)) return kExpected;
  return nullptr;
}

std::string got(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s = ", got \"";
  for (const char c : text.substr(0, kMaxQuoted)) {
    const auto u = static_cast<unsigned char>(c);
    if (u == '"' || u == '\\') {
      s += '\\';
      s += c;
    } else if (u >= 0x20 && u < 0x7f) {
      s += c;
    } else {
      s += "\\x";
      s += kHex[u >> 4];
      s += kHex[u & 0xf];
    }
  }
  if (text.size() > kMaxQuoted) s += "...";
  s += '"';
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    // Folding with | 0x20 is exact for letters; b is always a lowercase name here.
    if ((a[i] | 0x20) != b[i]) return false;
  }
  return true;
}

size_t split(std::string_view line, std::string_view delims, std::string_view* fields,
             size_t max_fields) {
  size_t count = 0;
  size_t start = 0;
  for (;;) {
    // find_first_of calls memchr once per character of the line; one memchr per field is
    // several times faster for the usual single delimiter.
    const size_t end =
        delims.size() == 1 ? line.find(delims.front(), start) : line.find_first_of(delims, start);
    if (count < max_fields) {
      fields[count] = trim_blanks(line.substr(start, end - start));
    }
    ++count;
    if (end == std::string_view::npos) return count;
    start = end + 1;
  }
}

TraceReader::TraceReader(std::string path, const char* format, TimeUnit unit)
    : path_(std::move(path)), format_(format), unit_(unit) {
  // A directory opens fine on Linux and then reads as empty; say what it is instead.
  std::error_code ec;
  if (std::filesystem::is_directory(path_, ec)) {
    throw InputError(path_ + ": cannot open: " + std::strerror(EISDIR));
  }
  errno = 0;
  in_.open(path_, std::ios::binary);
  if (!in_) {
    throw InputError(path_ + ": cannot open: " + (errno ? std::strerror(errno) : "unknown error"));
  }
}

std::string TraceReader::describe() const { return std::string(format_) + " trace " + path_; }

bool TraceReader::next_line() {
  while (std::getline(in_, buffer_)) {
    ++line_number_;
    std::string_view l = buffer_;
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    const std::string_view content = trim_blanks(l);
    if (content.empty() || content.front() == '#') continue;
    line_ = l;
    return true;
  }
  if (in_.bad()) {
    throw InputError(path_ + ": read error after line " + std::to_string(line_number_));
  }
  return false;
}

void TraceReader::fail(std::string_view field, const std::string& reason) const {
  std::string msg = path_;
  msg += ':';
  msg += std::to_string(line_number_);
  msg += ": ";
  msg += field;
  msg += ": ";
  msg += reason;
  throw InputError(msg);
}

void TraceReader::split_record(std::string_view* fields, size_t count) const {
  const size_t n = split(line_, ",", fields, count);
  if (n != count) {
    fail("record",
         "expected " + std::to_string(count) + " comma-separated fields, got " + std::to_string(n));
  }
}

uint64_t TraceReader::unsigned_field(std::string_view text, std::string_view field) const {
  uint64_t value = 0;
  if (const char* reason = parse_unsigned(text, value)) fail(field, reason + got(text));
  return value;
}

TraceReader::Timestamp TraceReader::seconds_field(std::string_view text,
                                                  std::string_view field) const {
  // Parsed as integers rather than through a double, so 0.026214 s is exactly 26214 us.
  Timestamp t;
  const size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction =
      dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  bool ok = !whole.empty() || !fraction.empty();
  if (ok && !whole.empty()) ok = parse_unsigned(whole, t.s) == nullptr;
  uint64_t scale = kPsPerSecond;
  for (size_t i = 0; ok && i < fraction.size(); ++i) {
    const char c = fraction[i];
    ok = c >= '0' && c <= '9';
    if (i < kFractionDigits) {
      scale /= 10;
      t.ps += static_cast<uint64_t>(c - '0') * scale;
    }
  }
  if (!ok) fail(field, "expected decimal seconds" + got(text));
  return t;
}

sc_core::sc_time TraceReader::arrival(Timestamp t, std::string_view field) {
  if (!started_) {
    first_ = t;
    started_ = true;
  } else if (t.s < previous_.s || (t.s == previous_.s && t.ps < previous_.ps)) {
    fail(field, "goes back in time (" + format_time(t) + " after " + format_time(previous_) + ")");
  }
  previous_ = t;
  uint64_t s = t.s - first_.s;
  uint64_t ps = t.ps;
  if (ps < first_.ps) {
    --s;
    ps += kPsPerSecond;
  }
  ps -= first_.ps;
  if (s >= kMaxSpanSeconds) {
    fail(field, "more than " + std::to_string(kMaxSpanSeconds) +
                    " s after the first record, beyond the simulated time range");
  }
  return picoseconds(s, ps);
}

std::string TraceReader::format_time(Timestamp t) const {
  if (unit_ == TimeUnit::kNanoseconds) {
    return std::to_string(t.s * 1'000'000'000 + t.ps / 1000) + " ns";
  }
  std::string text = std::to_string(t.s);
  if (t.ps != 0) {
    std::string fraction = std::to_string(t.ps);
    fraction.insert(0, kFractionDigits - fraction.size(), '0');
    fraction.erase(fraction.find_last_not_of('0') + 1);
    text += '.' + fraction;
  }
  return text + " s";
}

}  // namespace ssd::tb
