#include "tb/run/Explain.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <regex>
#include <sstream>

#include <boost/program_options.hpp>

#include "common/DidYouMean.h"
#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "tb/run/ConfigDocText.h"
#include "tb/run/ConfigKeys.h"

namespace po = boost::program_options;

namespace ssd::tb {
namespace {

constexpr std::size_t kWidth = 100;      // of the printed lines
constexpr std::size_t kSuggestions = 5;  // closest keys named for an unknown word
constexpr std::size_t kFar = std::numeric_limits<std::size_t>::max();  // not a suggestion

// The page's links as paths a terminal reader can open: "[ftl.md](ftl.md#gc-modes)" becomes
// "docs/ftl.md#gc-modes", "[below](#layout)" "below (docs/config.md#layout)".
std::string plain(const std::string& markdown) {
  static const std::regex link(R"(\[([^\]]+)\]\(([^)]+)\))");
  std::string out;
  auto from = markdown.cbegin();
  for (std::sregex_iterator it(markdown.begin(), markdown.end(), link), end; it != end; ++it) {
    out.append(from, (*it)[0].first);
    const std::string text = (*it)[1], target = (*it)[2];
    const std::string path = target.find("://") != std::string::npos ? target
                             : target[0] == '#'                      ? "docs/config.md" + target
                                                                     : "docs/" + target;
    out += target.substr(0, target.find('#')) == text ? path : text + " (" + path + ")";
    from = (*it)[0].second;
  }
  return out.append(from, markdown.cend());
}

// `text` in lines of at most kWidth columns: the first after `first`, the others indented as
// far.
void wrapped(const std::string& text, const std::string& first, std::ostream& out) {
  std::istringstream words(text);
  std::string word, line = first;
  const std::string indent(first.size(), ' ');
  bool empty = true;  // nothing but the indent on the line yet
  while (words >> word) {
    if (!empty && line.size() + 1 + word.size() > kWidth) {
      out << line << '\n';
      line = indent;
      empty = true;
    }
    line += (empty ? "" : " ") + word;
    empty = false;
  }
  if (!empty) out << line << '\n';
}

// `text` cut to `width` columns, "..." where it was cut.
std::string clipped(std::string text, std::size_t width) {
  if (text.size() > width) text = text.substr(0, width - 3) + "...";
  return text;
}

std::string padded(std::string text, std::size_t width) {
  if (text.size() < width) text.resize(width, ' ');
  return text;
}

std::string leaf(const std::string& key) { return key.substr(key.rfind('.') + 1); }

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// A key's value in a config: the key's path followed through objects, a list's items ("[i]")
// each. nullopt where the config does not hold it.
template <class Json>
std::optional<Json> value_at(const Json& doc, const std::string& key) {
  const std::size_t dot = key.find('.');
  std::string part = key.substr(0, dot);
  const bool each = part.size() > 3 && part.compare(part.size() - 3, 3, "[i]") == 0;
  if (each) part.resize(part.size() - 3);
  if (!doc.is_object() || !doc.contains(part)) return std::nullopt;
  const Json& value = doc[part];
  if (dot == std::string::npos) return value;
  if (!each) return value_at(value, key.substr(dot + 1));
  Json items = Json::array();
  for (const Json& item : value)
    if (auto v = value_at(item, key.substr(dot + 1))) items.push_back(std::move(*v));
  return items;
}

std::string default_of(const nlohmann::ordered_json& entry) {
  if (entry.value("required", false)) return "none: the key is required";
  if (!entry.contains("default")) return "none: free commentary, checked for type and not read";
  const bool item = entry["key"].get<std::string>().find("[i]") != std::string::npos;
  return value_text(entry["default"]) + (item ? " (built in: what an item without the key gets)"
                                              : " (built in: what a config without the key gets)");
}

std::string in_config(const std::string& key, const ConfigFile& config) {
  const std::optional<nlohmann::ordered_json> value = value_at(config.effective, key);
  const bool written = value_at(config.written, key).has_value();
  std::string text = config.path + ": " +
                     (value     ? value_text(*value)
                      : written ? "given, and not read"
                                : "-");
  if (key.find("[i]") == std::string::npos && !written) text += " (not in the file: the default)";
  return text;
}

std::string section_of(const std::string& key) {
  const std::size_t dot = key.find('.');
  return dot == std::string::npos ? "" : key.substr(0, dot);
}

}  // namespace

Explainer::Explainer(std::string_view config_doc)
    : table_(config::config_key_table()), docs_(config_doc) {}

const nlohmann::ordered_json* Explainer::entry(const std::string& key) const {
  for (const auto& e : table_)
    if (e["key"] == key) return &e;
  return nullptr;
}

Explanation Explainer::key(const std::string& key, const ConfigFile* config) const {
  const nlohmann::ordered_json& e = *entry(key);
  Explanation out;
  out.key = key;
  out.type = e["type"].get<std::string>();
  out.range = accepted(e);
  out.default_value = default_of(e);
  for (const auto& item : table_) {
    const std::string name = item["key"].get<std::string>();
    if (starts_with(name, key + "[i].") && name.find('.', key.size() + 4) == std::string::npos)
      out.items += (out.items.empty() ? "" : ", ") + name.substr(key.size() + 4);
  }
  if (!out.items.empty()) out.items += " (`ssdtlm explain " + key + "[i]` lists them)";
  if (config != nullptr) out.in_config = in_config(key, *config);
  const KeyDocs::Found found = docs_.find(key);
  if (found.doc == nullptr) return out;
  out.docs = "docs/config.md#" + found.doc->section;
  out.meaning = plain(found.doc->meaning);
  out.rule = plain(found.doc->rule);
  // The top-level table's second column is a type, and "-" no unit.
  if (found.row_key == key && found.doc->unit != "-" && key.find('.') != std::string::npos)
    out.unit = found.doc->unit;
  if (found.row_key != key) out.row_key = found.row_key;
  return out;
}

void print(const Explanation& e, std::ostream& out) {
  out << e.key << (e.docs.empty() ? "" : "  (" + e.docs + ")") << '\n';
  if (!e.row_key.empty()) out << "  documented in the row of " << e.row_key << ":\n";
  wrapped(e.meaning.empty() ? "(docs/config.md has no row for it)" : e.meaning, "  ", out);
  const auto field = [&](const char* name, const std::string& value) {
    if (!value.empty()) wrapped(value, padded(std::string("  ") + name, 11), out);
  };
  field("type", e.type);
  field("unit", e.unit);
  field(e.type == "choice" ? "choices" : "range", e.range);
  field("rule", e.rule);
  field("default", e.default_value);
  field("items", e.items);
  if (!e.in_config.empty()) wrapped(e.in_config, "  ", out);
}

void Explainer::explain(const std::string& given, std::ostream& out,
                        const ConfigFile* config) const {
  // A list item as --set names it, power.rails.0.voltage_v or power.rails[0].voltage_v, is
  // power.rails[i].voltage_v here.
  static const std::regex index(R"(\.\d+(\.|$)|\[\d+\])");
  const std::string word = std::regex_replace(given, index, "[i]$1");
  if (entry(word) != nullptr) {
    print(key(word, config), out);
    return;
  }
  const bool lists = word.empty() || std::any_of(table_.begin(), table_.end(), [&](const auto& e) {
                       return starts_with(e["key"].template get<std::string>(), word + ".");
                     });
  if (lists && config != nullptr)
    throw UsageError("explain: --config: applies only to a key (--dump-config prints the config)");
  if (word.empty()) {
    list_sections(out);
  } else if (lists) {
    list_keys(word + ".", out);
  } else {
    std::string names;
    for (const std::string& k : closest(word)) names += (names.empty() ? "" : ", ") + k;
    throw UsageError("explain: unknown key \"" + given + "\"" +
                     (names.empty() ? "" : "; did you mean " + names + "?") +
                     " (`ssdtlm explain` lists the sections)");
  }
}

void Explainer::list_sections(std::ostream& out) const {
  struct Section {
    std::string name, first_key;
    std::size_t keys = 0;
  };
  std::vector<Section> sections;  // in the field tables' order
  std::string top;
  for (const auto& e : table_) {
    const std::string key = e["key"].get<std::string>(), section = section_of(key);
    if (section.empty())
      top += (top.empty() ? "" : ", ") + key;
    else if (sections.empty() || sections.back().name != section)
      sections.push_back({section, key, 1});
    else
      ++sections.back().keys;
  }
  out << "The config's sections (docs/config.md#keys); `ssdtlm explain SECTION` lists one's keys,\n"
         "`ssdtlm explain KEY` explains a key:\n";
  for (const Section& s : sections) {
    const KeyDocs::Found found = docs_.find(s.first_key);
    out << "  " << padded(s.name, 14) << padded(std::to_string(s.keys) + " keys", 10)
        << (found.doc ? "docs/config.md#" + found.doc->section : "") << '\n';
  }
  out << "Top-level keys: " << top << '\n';
}

void Explainer::list_keys(const std::string& prefix, std::ostream& out) const {
  std::vector<const nlohmann::ordered_json*> keys;
  std::size_t width = 0;
  for (const auto& e : table_) {
    const std::string key = e["key"].get<std::string>();
    if (!starts_with(key, prefix)) continue;
    keys.push_back(&e);
    width = std::max(width, key.size() - prefix.size());
  }
  const std::string holder = prefix.substr(0, prefix.size() - 1);
  out << holder << ": " << keys.size() << " keys; `ssdtlm explain " << holder
      << ".KEY` explains one\n";
  const std::string list = holder.substr(0, holder.rfind("[i]"));  // its row documents the items
  if (const auto it = docs_.rows().find(list); it != docs_.rows().end())
    wrapped(plain(it->second.meaning), "  ", out);
  for (const nlohmann::ordered_json* e : keys) {
    const std::string key = (*e)["key"].get<std::string>();
    const KeyDocs::Found found = docs_.find(key);
    std::string summary = found.doc == nullptr   ? "(no row in docs/config.md)"
                          : found.row_key != key ? "(in the row of " + found.row_key + ")"
                                                 : plain(found.doc->meaning);
    if (const std::size_t end = summary.find(". "); end != std::string::npos)
      summary.resize(end + 1);  // its first sentence
    const std::string line =
        "  " + padded(key.substr(prefix.size()), width) + "  " +
        padded(clipped(e->contains("default") ? value_text((*e)["default"]) : "-", 14), 14) + "  ";
    out << line << clipped(summary, kWidth - line.size()) << '\n';
  }
}

// The keys and sections nearest `word`: those it begins, and those within a slip of the
// fingers of it (did_you_mean's distance), whole or by their last part ("t_prog_us" is
// flash.t_prog_us), nearest first; not those much further than the nearest.
std::vector<std::string> Explainer::closest(const std::string& word) const {
  std::vector<std::pair<std::size_t, std::string>> scored;
  const std::size_t whole_limit = std::max<std::size_t>(1, word.size() / 3);
  const std::size_t leaf_limit = std::max<std::size_t>(1, leaf(word).size() / 3);
  std::vector<std::string> names;
  for (const auto& e : table_) {
    const std::string key = e["key"].get<std::string>();
    if (const std::string s = section_of(key);
        !s.empty() && std::find(names.begin(), names.end(), s) == names.end())
      names.push_back(s);
    names.push_back(key);
  }
  for (const std::string& name : names) {
    std::size_t d = edit_distance(word, name);
    if (d > whole_limit) d = kFar;
    if (const std::size_t by_leaf = edit_distance(leaf(word), leaf(name)); by_leaf <= leaf_limit)
      d = std::min(d, by_leaf);
    if (starts_with(name, word)) d = std::min<std::size_t>(d, 1);
    if (d != kFar) scored.emplace_back(d, name);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;  // the nearest, and those a letter further
  for (std::size_t i = 0; i < scored.size() && i < kSuggestions; ++i)
    if (scored[i].first <= scored[0].first + 1) out.push_back(scored[i].second);
  return out;
}

void explain_main(const std::vector<std::string>& args, std::ostream& out) {
  po::options_description visible(
      "Usage: ssdtlm explain [KEY | SECTION] [--config FILE]\n\n"
      "What a drive config key means, in docs/config.md's words, with its type, unit, range or\n"
      "choices and built-in default (what a config without the key gets); --config FILE adds\n"
      "the value FILE gives it. A SECTION (controller, flash.die_power_down, ...) lists its keys,\n"
      "a line each; no word lists the sections.\n\n"
      "Options");
  visible.add_options()("help,h", "show this help")(
      "config,c", po::value<std::string>(), "FILE: also show the key's value in this config");
  po::options_description all;
  all.add(visible).add_options()("word", po::value<std::string>());
  po::positional_options_description word;
  word.add("word", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(word).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(std::string("explain: ") + e.what() + " (see explain --help)");
  }
  if (vm.count("help")) {
    out << visible << '\n';
    return;
  }
  std::optional<ConfigFile> config;
  if (vm.count("config")) {
    const std::string path = vm["config"].as<std::string>();
    nlohmann::json written = config::read_config_json(path);
    nlohmann::ordered_json effective = config::to_json(config::parse_drive_config(written, path));
    config = ConfigFile{path, std::move(written), std::move(effective)};
  }
  const Explainer explainer(config_doc_text());
  explainer.explain(vm.count("word") ? vm["word"].as<std::string>() : "", out,
                    config ? &*config : nullptr);
}

}  // namespace ssd::tb
