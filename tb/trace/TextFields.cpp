#include "tb/trace/TextFields.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace ssd::tb {

namespace {

constexpr uint64_t kPsPerSecond = 1'000'000'000'000;
constexpr size_t kMaxQuoted = 60;

bool is_blank(char c) { return c == ' ' || c == '\t'; }

}  // namespace

// By hand: find_first_not_of(" \t") would call memchr for every character.
std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

// At the model's 1 ps resolution the count is the time's own value: no conversion (a synthetic
// workload makes one per request). At another resolution, exact for any span below 2^63 ps,
// whereas one double of picoseconds is exact only below 2^53 ps (2.5 hours): seconds * 1e12 is
// computed exactly (seconds * 5^12 < 2^24 * 2^28 fits a double's mantissa; * 2^12 is exact),
// and the remainder is below 1e12 < 2^53.
sc_core::sc_time picoseconds_time(uint64_t ps) {
  // Fixed from the first time made on (this one, if no other was).
  static const bool ps_resolution =
      sc_core::sc_get_time_resolution() == sc_core::sc_time(1, sc_core::SC_PS);
  if (ps_resolution) return sc_core::sc_time::from_value(ps);
  const uint64_t seconds = ps / kPsPerSecond;
  return sc_core::sc_time(static_cast<double>(seconds), sc_core::SC_SEC) +
         sc_core::sc_time(static_cast<double>(ps % kPsPerSecond), sc_core::SC_PS);
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

const char* parse_bytes(std::string_view text, uint64_t& out) {
  int shift = 0;
  if (!text.empty()) {
    switch (text.back() | 0x20) {
      case 'k':
        shift = 10;
        break;
      case 'm':
        shift = 20;
        break;
      case 'g':
        shift = 30;
        break;
    }
  }
  uint64_t value = 0;
  if (parse_unsigned(text.substr(0, text.size() - (shift ? 1 : 0)), value) != nullptr ||
      value > (std::numeric_limits<uint64_t>::max() >> shift)) {
    return "expected a byte count below 2^64 with an optional k, m or g suffix";
  }
  out = value << shift;
  return nullptr;
}

std::string escaped(std::string_view text, char quote) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\\' || (quote != '\0' && c == quote)) {
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
  return s;
}

std::string got(std::string_view text) {
  return ", got \"" + escaped(text.substr(0, kMaxQuoted), '"') +
         (text.size() > kMaxQuoted ? "...\"" : "\"");
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

size_t split_blanks(std::string_view line, std::string_view* fields, size_t max_fields) {
  size_t count = 0;
  size_t i = 0;
  const size_t n = line.size();
  for (;;) {
    while (i < n && is_blank(line[i])) ++i;
    if (i == n) return count;
    const size_t start = i;
    while (i < n && !is_blank(line[i])) ++i;
    if (count < max_fields) fields[count] = line.substr(start, i - start);
    ++count;
  }
}

}  // namespace ssd::tb
