#pragma once
// `ssdtlm explain [KEY | SECTION] [--config FILE]`: what a config key means, in docs/config.md's
// words (the page is built into the simulator), beside what the field tables say of it (type,
// range or choices, built-in default; config::config_key_table). A section lists its keys, no
// word the sections. No simulation.
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/run/KeyDocs.h"

namespace ssd::tb {

// A config file a key's value is shown from: as written, and with every default resolved.
struct ConfigFile {
  std::string path;
  nlohmann::json written;
  nlohmann::ordered_json effective;
};

// What `explain` says of one key. Empty fields are left out when printed.
struct Explanation {
  std::string key;
  std::string docs;           // where the page documents it: "docs/config.md#flash"
  std::string row_key;        // the key whose row documents it, when not its own (a list's items)
  std::string meaning;        // the row's meaning, its links as paths
  std::string unit;           // the key's own row's unit column
  std::string rule;           // the row's rule column
  std::string type;           // the field table's: bool, choice, integer, number, ...
  std::string range;          // the field table's range ("(0, 1000000]") or choices ("page, dftl")
  std::string default_value;  // the field table's default, and where it comes from
  std::string items;          // a list's item keys
  std::string in_config;      // with --config: "configs/x25m.json: 500"
};

class Explainer {
 public:
  // `config_doc`: docs/config.md's text.
  explicit Explainer(std::string_view config_doc);

  // A key of the field tables (config_keys()); `config` adds its value there.
  Explanation key(const std::string& key, const ConfigFile* config = nullptr) const;
  // What `word` names: a key (explained; a list's item by index too, as --set names it), a
  // section or a part of one (its keys, a line each), "" (the sections). Otherwise a UsageError
  // naming the word and the closest keys.
  void explain(const std::string& word, std::ostream& out,
               const ConfigFile* config = nullptr) const;

 private:
  const nlohmann::ordered_json* entry(const std::string& key) const;
  void list_sections(std::ostream& out) const;
  void list_keys(const std::string& prefix, std::ostream& out) const;
  std::vector<std::string> closest(const std::string& word) const;

  nlohmann::ordered_json table_;
  KeyDocs docs_;
};

void print(const Explanation& e, std::ostream& out);

// `args`: the words after "explain". Throws UsageError (exit 2) for a bad command line or an
// unknown key, ConfigError for a --config file the reader refuses.
void explain_main(const std::vector<std::string>& args, std::ostream& out);

}  // namespace ssd::tb
