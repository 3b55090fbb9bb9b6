#pragma once
// Parsing of the text in user input (trace fields, workload keys, command-line values), by
// one set of functions so every number is read the same way, without allocating.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <systemc>

namespace ssd::tb {

// Number parsers. Each returns nullptr on success, else what was expected ("expected an
// unsigned integer"), for the caller to prefix with the place and follow with got(text).
// They reject empty text, signs, surrounding blanks and trailing garbage.
const char* parse_unsigned(std::string_view text, uint64_t& out);
// Finite and non-negative: no NaN, no infinity.
const char* parse_double(std::string_view text, double& out);
// Bytes with an optional binary suffix k, m or g in either case: 4k = 4096.
const char* parse_bytes(std::string_view text, uint64_t& out);

// `text` with control and non-ASCII bytes as \xNN, and a backslash (and `quote`, if given)
// escaped by a backslash: bytes read from a damaged or binary file cannot garble a message.
std::string escaped(std::string_view text, char quote = '\0');
// `, got "text"`, escaped and long text cut.
std::string got(std::string_view text);

// ASCII case-insensitive equality (op names), without allocating.
bool iequals(std::string_view a, std::string_view b);

// `s` without leading and trailing spaces and tabs.
std::string_view trim_blanks(std::string_view s);

// Splits `line` at every character of `delims` into at most `max_fields` fields, each trimmed
// of spaces and tabs. Returns the number of fields in the line, which may exceed max_fields
// (only the first max_fields are stored), so callers can report the real count.
size_t split(std::string_view line, std::string_view delims, std::string_view* fields,
             size_t max_fields);
// The same for fields separated by runs of spaces and tabs (leading and trailing ones ignored).
size_t split_blanks(std::string_view line, std::string_view* fields, size_t max_fields);

// `ps` picoseconds as an sc_time, exact below 2^63 ps.
sc_core::sc_time picoseconds_time(uint64_t ps);

}  // namespace ssd::tb
