// ssdtlm: simulate a drive described by a JSON config on a block trace or a synthetic
// workload, and write report.json, energy.csv and (with --vcd, --fst) current.vcd, current.fst.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "GitDescribe.h"
#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "tb/run/BenchOutput.h"
#include "tb/run/CheckOverrides.h"
#include "tb/run/Cli.h"
#include "tb/run/ConfigKeys.h"
#include "tb/run/Explain.h"
#include "tb/run/Inputs.h"
#include "tb/run/Provenance.h"
#include "tb/run/Simulation.h"
#include "tb/run/StateCache.h"
#include "tb/trace/TraceStats.h"

namespace {

using namespace ssd::tb;

// Each line of the message its own error line (a config's problems come one a line).
int fail(const std::string& msg, int code = kExitError) {
  std::size_t at = 0;
  do {
    const std::size_t end = msg.find('\n', at);
    std::cerr << "ssdtlm: error: " << msg.substr(at, end - at) << '\n';
    at = end == std::string::npos ? end : end + 1;
  } while (at != std::string::npos);
  return code;
}

int simulate(Cli cli) {
  // The cache's key names the build: the flows run alone use the cache too.
  if (!cli.run.state_cache.empty())
    cli.run.build = build_identity(std::string(SSDTLM_VERSION) + " " + SSDTLM_GIT_DESCRIBE);
  const ssd::config::DriveConfig cfg =
      load_config(ssd::config::read_config_json(cli.config_path), cli.config_path, cli.overrides);
  const std::string effective_config = config_text(cfg);
  if (cli.action == Cli::Action::DumpConfig) {
    std::cout << effective_config;
    return kExitOk;
  }
  const auto source = open_input(cli, cfg);
  RunOptions run = cli.run;
  if (cli.flows_alone) run.flows_alone = run_flows_alone(cli, cfg, *source);
  // After the source is open, so a missing or irregular input is reported by its reader.
  run.provenance = provenance(cli, {SSDTLM_VERSION, SSDTLM_GIT_DESCRIBE}, effective_config);
  const RunResult result = run_simulation(cfg, *source, run);
  for (const auto& w : result.report["warnings"])
    std::cerr << "ssdtlm: warning: " << w.get<std::string>() << '\n';
  for (const std::string& w : result.cache_warnings) std::cerr << "ssdtlm: warning: " << w << '\n';
  for (const std::string& gone : result.evicted)  // not a warning: the cache at work
    if (!cli.quiet)
      std::cerr << "ssdtlm: state cache: removed " << gone
                << " (least recently used: the cache is kept within "
                   "$SSDTLM_STATE_CACHE_MAX_GB)\n";
  if (!cli.quiet) std::cout << result.summary << "  outputs    " << run.out_dir << "/\n";
  if (cli.bench) print_bench(result);
  if (!result.data_intact) return fail("the scoreboard found lost or corrupted data (see report)");
  return kExitOk;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  // Subcommands with their own options; they simulate nothing.
  if (argc > 1 && std::string(argv[1]) == "trace-stats")
    return trace_stats_main(std::vector<std::string>(argv + 2, argv + argc), std::cout, std::cerr);
  if (argc > 1 && std::string(argv[1]) == "config-keys")
    return config_keys_main(std::vector<std::string>(argv + 2, argv + argc), std::cout, std::cerr);
  if (argc > 1 && std::string(argv[1]) == "state-cache")
    return state_cache_main(std::vector<std::string>(argv + 2, argv + argc), std::cout, std::cerr);
  try {
    // Within the try: an unknown key is a usage error, a --config file's a config error.
    if (argc > 1 && std::string(argv[1]) == "explain") {
      explain_main(std::vector<std::string>(argv + 2, argv + argc), std::cout);
      return kExitOk;
    }
    const Cli cli = parse_cli(argc, argv);
    switch (cli.action) {
      case Cli::Action::NoArguments:
        std::cerr << cli.help;
        return kExitUsage;
      case Cli::Action::Help:
        std::cout << cli.help;
        return kExitOk;
      case Cli::Action::Version:
        std::cout << "ssdtlm " << SSDTLM_VERSION << " (" << SSDTLM_GIT_DESCRIBE << ")\n";
        return kExitOk;
      case Cli::Action::CheckOverrides:
        check_overrides(cli, std::cout);
        return kExitOk;
      default:
        return simulate(cli);
    }
  } catch (const ssd::UsageError& e) {
    return fail(e.what(), kExitUsage);
  } catch (const std::exception& e) {  // ConfigError, InputError, the model's errors
    return fail(error_text(e));
  }
}

// Our own entry point: the SystemC banner is printed before sc_main runs, so it can only be
// silenced here (stdout carries the summary).
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  const int code = sc_core::sc_elab_and_sim(argc, argv);
  // The summary (or a subcommand's answer) redirected to a file on a full disk: an error, not
  // exit 0 with the text cut short.
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout))
    return fail("standard output: write failed", code == kExitOk ? kExitError : code);
  return code;
}
