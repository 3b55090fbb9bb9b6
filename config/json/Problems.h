#pragma once
// What validation finds wrong with one config, every problem at once: a config with several
// errors is refused with all of them in one message, each line naming the document and the key
// ("<origin>: <key>: <reason>"), so a user fixes them in one round.
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ssd::config {

// What names a config built in code in its problems: "drive '<name>'".
inline std::string drive_origin(const std::string& drive_name) {
  return "drive '" + drive_name + "'";
}

class Problems {
 public:
  // `origin` names the document in every line: a file name, or "drive '<name>'" for a config
  // built in code and refused when the model is built from it.
  explicit Problems(std::string origin) : origin_(std::move(origin)) {}

  void add(const std::string& key, const std::string& reason);
  bool empty() const { return found_.empty(); }
  std::size_t size() const { return found_.size(); }
  // Whether no problem names one of `keys` or a key under it ("flash" covers
  // "flash.page_bytes"): a rule that reads those values runs only once they are sound.
  bool none_under(std::initializer_list<std::string_view> keys) const;
  // Throws ssd::ConfigError with every problem, one a line, if there is any.
  void raise() const;

 private:
  std::string origin_;
  std::vector<std::pair<std::string, std::string>> found_;  // key, reason
};

}  // namespace ssd::config
