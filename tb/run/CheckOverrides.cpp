#include "tb/run/CheckOverrides.h"

#include <algorithm>
#include <iostream>
#include <sstream>

#include <systemc>

#include "common/Errors.h"
#include "common/InputFile.h"
#include "common/JsonDepth.h"
#include "config/Overrides.h"
#include "config/json/JsonFile.h"
#include "tb/run/Simulation.h"
#include "tb/trace/TextFields.h"

namespace ssd::tb {
namespace {

// The overrides of line `n` of `name`, each checked as --set checks its own; throws
// InputError("<name>:<n>: ...").
std::vector<std::string> overrides_of(const std::string& line, const std::string& name,
                                      std::size_t n) {
  const std::string where = name + ":" + std::to_string(n);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(line, json_depth_limit<InputError>(where));
  } catch (const nlohmann::json::parse_error& e) {  // at a column of the line
    throw InputError(config::parse_error_message(name, line, e, n));
  } catch (const nlohmann::json::exception& e) {  // no position (a number beyond a double)
    throw InputError(config::parse_error_message(where, line, e));
  }
  const auto is_string = [](const nlohmann::json& item) { return item.is_string(); };
  if (!doc.is_array() || !std::all_of(doc.begin(), doc.end(), is_string))
    throw InputError(where + ": expected a JSON array of \"KEY=VALUE\" strings" + got(line));
  std::vector<std::string> out;
  for (const auto& item : doc) {
    try {
      config::check_override(item.get<std::string>());
    } catch (const UsageError& e) {
      throw InputError(where + ": " + e.what());
    }
    out.push_back(item.get<std::string>());
  }
  return out;
}

}  // namespace

config::DriveConfig load_config(nlohmann::json doc, const std::string& path,
                                const std::vector<std::string>& overrides) {
  for (const std::string& assignment : overrides) config::apply_override(doc, assignment);
  const std::string origin = overrides.empty() ? path : path + " with --set";
  config::DriveConfig cfg = config::parse_drive_config(doc, origin);
  check_drive(cfg, origin);
  return cfg;
}

std::string config_text(const config::DriveConfig& cfg) {
  return config::to_json(cfg).dump(2) + "\n";
}

std::string error_text(const std::exception& e) {
  if (const auto* report = dynamic_cast<const sc_core::sc_report*>(&e))
    return std::string(report->get_msg_type()) + ": " + report->get_msg();
  return e.what();
}

void check_overrides(const Cli& cli, std::ostream& out) {
  const bool from_stdin = cli.check_overrides == "-";
  const std::string name = from_stdin ? "<stdin>" : cli.check_overrides;
  std::istringstream file(from_stdin ? "" : read_regular_file<InputError>(name));
  std::istream& in = from_stdin ? std::cin : file;
  const nlohmann::json doc = config::read_config_json(cli.config_path);
  std::string line;
  for (std::size_t n = 1; std::getline(in, line); ++n) {
    std::vector<std::string> overrides = cli.overrides;
    for (std::string& o : overrides_of(line, name, n)) overrides.push_back(std::move(o));
    nlohmann::json answer;
    try {
      answer["config"] = config_text(load_config(doc, cli.config_path, overrides));
    } catch (const std::exception& e) {  // ConfigError, the model's errors: a refusal
      answer["error"] = error_text(e);
    }
    // Flushed: the reader (the soak) waits for each answer before it writes the next line.
    out << answer.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
  }
}

}  // namespace ssd::tb
