#pragma once
// The simulator's command line (README, docs/trace-formats.md): parsed and checked whole,
// before any file is read, into what a run needs. A bad command line is a UsageError (exit 2)
// whatever the files hold.
#include <cstdint>
#include <string>
#include <vector>

#include "tb/run/Simulation.h"
#include "tb/trace/TraceOptions.h"

namespace ssd::tb {

// The exit statuses (README, "Exit status").
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;  // bad input (trace, config, workload), model error, lost data
inline constexpr int kExitUsage = 2;  // bad command line: unknown option, bad value, stray word

struct Cli {
  // NoArguments: the help, as a usage error.
  enum class Action { Run, DumpConfig, CheckOverrides, Help, Version, NoArguments };
  Action action = Action::Run;
  std::string help;  // the --help text (Help, NoArguments)
  std::vector<std::string> argv;
  std::string config_path;
  std::vector<std::string> overrides;  // --set KEY=VALUE, in order, each checked
  std::string check_overrides;         // --check-overrides FILE ("-": stdin)
  // The input: traces (with how they are read and which queue each feeds), a workload spec or
  // a workload file.
  std::vector<std::string> traces;
  TraceOptions trace;
  bool volume_flows = false;
  std::vector<uint32_t> trace_queues;  // empty: all 0
  // Each trace's (volume's) namespace by name, checked against the drive's; empty: the first.
  std::vector<std::string> trace_namespaces;
  // Each trace's (volume's) writes' placement handle (ftl.fdp), checked against the drive's;
  // empty: all 0.
  std::vector<uint32_t> trace_placement;
  std::string workload;
  std::string workload_file;
  bool flows_alone = false;
  bool quiet = false;
  bool bench = false;
  RunOptions run;  // everything but the provenance and flows_alone, known only later
};

// Throws ssd::UsageError naming the option (unknown options with a "did you mean").
Cli parse_cli(int argc, char* argv[]);

}  // namespace ssd::tb
