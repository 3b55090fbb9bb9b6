#pragma once
// The vocabulary of the config's field tables (config/*Config.h): a numeric field's accepted
// range, whether a key is required, and the ranges shared by many fields.
#include <cmath>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "config/json/Problems.h"

namespace ssd::config {

// A double as a config file would write it (up to 15 significant digits).
std::string format_number(double x);
// "string \"50us\"", "number 2.5", "array": what a wrong value was, for error messages.
std::string describe(const nlohmann::json& v);
// Throws ConfigError("<origin>: <path>: <reason>").
[[noreturn]] void fail(const std::string& origin, const std::string& path,
                       const std::string& reason);
// A name that becomes a report key or a VCD signal's: 1 to 16 characters of a-z, 0-9 and _.
// Otherwise a problem naming `path`.
void require_short_identifier(Problems& problems, const std::string& path, const std::string& name);

// Accepted range of a numeric field; an open end excludes its bound.
struct Bounds {
  double lo = -std::numeric_limits<double>::infinity();
  bool lo_open = false;
  double hi = std::numeric_limits<double>::infinity();
  bool hi_open = false;

  bool contains(double x) const {
    return (lo_open ? x > lo : x >= lo) && (hi_open ? x < hi : x <= hi);
  }
  std::string rule() const;
};
constexpr Bounds at_least(double lo) { return Bounds{lo}; }
constexpr Bounds up_to(double hi) { return Bounds{0.0, false, hi, false}; }
constexpr Bounds positive_up_to(double hi) { return Bounds{0.0, true, hi, false}; }
constexpr Bounds between(double lo, double hi) { return Bounds{lo, false, hi, false}; }

// Upper bounds of what a drive can physically be. Beyond them the model's arithmetic (integer
// nanowatts, picosecond times) would overflow long before the figure meant anything; values
// that are merely unusual (a 100 V rail) are accepted and the run warns about its power.
constexpr Bounds kVoltage = positive_up_to(1e4);  // V: no drive electronics run on more
constexpr Bounds kCurrent = up_to(1e5);           // mA: 100 A per component
constexpr Bounds kStepTime = up_to(1e6);          // us: no single step takes a second
constexpr Bounds kPositiveStepTime = positive_up_to(1e6);
constexpr Bounds kHardwareTime = up_to(1e9);  // ns: a second
constexpr Bounds kIdleTime = up_to(3.6e9);    // us: an hour
constexpr Bounds kPower = up_to(1e5);         // mW: 100 W per unit
constexpr Bounds kClock = up_to(1e5);         // MHz: 100 GHz
constexpr Bounds kCycles = up_to(1e12);       // a million seconds at 1 MHz; a step takes less
// Below 1 ns a window is shorter than any state the model holds; above an hour one row
// averages away everything the series is for.
constexpr Bounds kWindow = between(1e-3, 3.6e9);  // us
// Every component at its highest current together: the drive-level sum is kept in integer
// nanowatts (int64), exact up to about 9e9 W; a megawatt is far beyond any drive.
constexpr double kMaxDrivePowerW = 1e6;

enum class Presence { kOptional, kRequired };

}  // namespace ssd::config
