#include "config/ControllerConfig.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

namespace ssd::config {

namespace {

// A core's name keys its power-state machine (energy_j, the VCD) and its entry in the report's
// utilisation, beside those of the other components (report/UtilisationReport.cpp).
bool taken_name(const std::string& name) {
  static const std::set<std::string> kTaken = {
      "host_if",           "dram",           "read_engine",
      "issue_engine",      "board",          "span_s",
      "start_s",           "end_s",          "host_link",
      "host_link_to_host", "dies_busy_mean", "bottleneck",
      "channels",          "dies",           "multiplane_groups",
      "cache_programs",    "suspensions",    "merged_reads",
      "host_phase",        "tail",           "word_line_programs"};
  const bool channel = name.size() > 2 && name.compare(0, 2, "ch") == 0 &&
                       name.find_first_not_of("0123456789", 2) == std::string::npos;
  return channel || kTaken.count(name) != 0;
}

// Each core a name of its own (report keys, VCD signals), each kind of work a core.
void validate_cores(const ControllerConfig& c, Problems& problems) {
  if (c.cores.empty()) return;
  if (c.cores.size() > kMaxCores)
    problems.add("controller.cores", "has " + std::to_string(c.cores.size()) + " cores; at most " +
                                         std::to_string(kMaxCores));
  for (std::size_t i = 0; i < c.cores.size(); ++i) {
    const std::string path = "controller.cores[" + std::to_string(i) + "].name";
    require_short_identifier(problems, path, c.cores[i].name);
    if (taken_name(c.cores[i].name))
      problems.add(path, "'" + c.cores[i].name +
                             "' is the name of another part of the drive or of a utilisation "
                             "figure in the report");
    for (std::size_t j = 0; j < i; ++j)
      if (c.cores[j].name == c.cores[i].name)
        problems.add(path, "'" + c.cores[i].name + "' names another core too");
  }
  for (const auto& role : {std::pair{&CoreConfig::host, "host"}, std::pair{&CoreConfig::ftl, "ftl"},
                           std::pair{&CoreConfig::background, "background"}}) {
    const auto runs = [&role](const CoreConfig& k) { return k.*role.first; };
    if (std::none_of(c.cores.begin(), c.cores.end(), runs))
      problems.add("controller.cores", std::string("no core has ") + role.second +
                                           " true: that work would have no core to run on");
  }
}

}  // namespace

// A step's cycles need a clock to take time, and at it no step may take a second (as
// kStepTime bounds the microsecond costs).
void validate(const ControllerConfig& c, Problems& problems) {
  for (const auto& [key, cycles] :
       {std::pair{"controller.cycles.host_command", c.cycles.host_command},
        std::pair{"controller.cycles.ftl_step", c.cycles.ftl_step},
        std::pair{"controller.cycles.flash_command", c.cycles.flash_command}}) {
    if (cycles > 0 && !(c.clock_mhz > 0))
      problems.add(key, "needs controller.clock_mhz (the cycles' clock)");
    else if (cycles > 0 && cycles / c.clock_mhz > kStepTime.hi)
      problems.add(key, "takes over a second at controller.clock_mhz");
  }
  const ClockGatingConfig& gating = c.clock_gating;
  if (gating.enabled && !(gating.idle_us > 0))
    problems.add("controller.clock_gating.idle_us",
                 "must be positive when clock gating is enabled");
  if (gating.enabled && gating.i_gated_ma > c.i_idle_ma)
    problems.add(
        "controller.clock_gating.i_gated_ma",
        "is above controller.i_idle_ma: a core whose clock is stopped draws less than an idle one");
  const HwReadPathConfig& hw = c.hw_read_path;
  if (hw.enabled && hw.i_idle_ma > hw.i_active_ma)
    problems.add(
        "controller.hw_read_path.i_idle_ma",
        "is above controller.hw_read_path.i_active_ma: the engine draws more while it works");
  const IssueEngineConfig& issue = c.issue_engine;
  if (issue.enabled && issue.i_idle_ma > issue.i_active_ma)
    problems.add(
        "controller.issue_engine.i_idle_ma",
        "is above controller.issue_engine.i_active_ma: the engine draws more while it works");
  // In-order issue blocks the issuing core on the channel's bus, which the engine would do in
  // its stead: not modelled.
  if (issue.enabled && c.issue_order == IssueOrder::InOrder)
    problems.add("controller.issue_engine.enabled", "needs controller.issue_order per_die_queues");
  validate_cores(c, problems);
}

}  // namespace ssd::config
