#include "config/json/Bounds.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "common/Errors.h"

namespace ssd::config {

std::string format_number(double x) {
  std::ostringstream s;
  s << std::setprecision(15) << x;
  return s.str();
}

std::string describe(const nlohmann::json& v) {
  if (v.is_structured() || v.is_null()) return v.type_name();
  std::string text = v.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return std::string(v.type_name()) + " " + text;
}

void fail(const std::string& origin, const std::string& path, const std::string& reason) {
  throw ConfigError(origin + ": " + path + ": " + reason);
}

void require_short_identifier(Problems& problems, const std::string& path,
                              const std::string& name) {
  const bool ok =
      !name.empty() && name.size() <= 16 && std::all_of(name.begin(), name.end(), [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
      });
  if (!ok) problems.add(path, "must be 1 to 16 characters of a-z, 0-9 and _, got \"" + name + "\"");
}

std::string Bounds::rule() const {
  if (std::isinf(hi)) {
    return (lo_open ? "must be greater than " : "must be at least ") + format_number(lo);
  }
  return std::string("must be in ") + (lo_open ? "(" : "[") + format_number(lo) + ", " +
         format_number(hi) + (hi_open ? ")" : "]");
}

}  // namespace ssd::config
