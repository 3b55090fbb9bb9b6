// ssdtlm: simulate a drive described by a JSON config on a block trace or a synthetic
// workload, and write report.json, energy.csv and (with --vcd, --fst) current.vcd, current.fst.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "GitDescribe.h"
#include "common/CpuTime.h"
#include "common/DidYouMean.h"
#include "common/Errors.h"
#include "common/Sha256.h"
#include "config/DriveConfig.h"
#include "config/Overrides.h"
#include "tb/run/OutputSet.h"
#include "tb/run/Simulation.h"
#include "tb/run/Waveform.h"
#include "tb/trace/TextFields.h"
#include "tb/trace/TraceCli.h"
#include "tb/trace/TraceFactory.h"
#include "tb/trace/TraceSet.h"
#include "tb/trace/TraceStats.h"
#include "tb/trace/VolumeFlows.h"
#include "tb/workload/JsonWorkload.h"
#include "tb/workload/WorkloadGenerator.h"

namespace po = boost::program_options;

namespace {

// The exit statuses (README, "Exit status").
constexpr int kExitOk = 0;
constexpr int kExitError = 1;  // bad input (trace, config, workload file), model error, lost data
constexpr int kExitUsage = 2;  // bad command line: unknown option, bad option value, stray word

// Random overwrites beyond this many times the capacity change nothing a run measures (the
// drive reaches its steady state long before) and would only take hours.
constexpr double kMaxPreconditionRandom = 100;

int fail(const std::string& msg, int code = kExitError) {
  std::cerr << "ssdtlm: error: " << msg << '\n';
  return code;
}

double peak_rss_mb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return double(ru.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

// The option given on the command line (not a default) of `group` that a run without a trace
// would silently ignore, or "".
std::string given_from(const po::variables_map& vm, const po::options_description& group,
                       const char* except = "") {
  for (const auto& option : group.options()) {
    const std::string& name = option->long_name();
    if (name != except && vm.count(name) && !vm[name].defaulted()) return name;
  }
  return "";
}

double precondition_random(const po::variables_map& vm) {
  const std::string& text = vm["precondition-random"].as<std::string>();
  double value = 0;
  if (const char* reason = ssd::tb::parse_double(text, value)) {
    throw ssd::UsageError(std::string("--precondition-random: ") + reason + ssd::tb::got(text));
  }
  if (value > kMaxPreconditionRandom) {
    throw ssd::UsageError("--precondition-random: must be at most 100 (times the logical "
                          "capacity)" + ssd::tb::got(text));
  }
  if (!vm.count("precondition") && !vm["precondition-random"].defaulted()) {
    throw ssd::UsageError("--precondition-random: applies only with --precondition");
  }
  return value;
}

// report.json's `provenance` (docs/report.md#provenance): what built the binary, how it was
// called, and digests of the effective config and of the input, so a result can be matched
// to exactly what produced it.
nlohmann::ordered_json provenance(int argc, char* argv[], const po::variables_map& vm,
                                  const std::vector<std::string>& overrides,
                                  const std::string& effective_config) {
  nlohmann::ordered_json p;
  p["version"] = SSDTLM_VERSION;
  p["git"] = SSDTLM_GIT_DESCRIBE;
  // The command line names the output directory: --reproducible runs into two directories
  // write the same report.
  if (!vm.count("reproducible")) p["argv"] = std::vector<std::string>(argv, argv + argc);
  p["config"] = vm["config"].as<std::string>();
  p["overrides"] = overrides;
  p["config_sha256"] = ssd::sha256_hex(effective_config);
  if (vm.count("trace")) {
    p["input"] = "trace";
    const auto& traces = vm["trace"].as<std::vector<std::string>>();
    if (traces.size() == 1) {
      p["input_sha256"] = ssd::sha256_file(traces.front());
    } else {
      std::vector<std::string> digests;
      for (const std::string& t : traces) digests.push_back(ssd::sha256_file(t));
      p["input_sha256"] = digests;
    }
  } else if (vm.count("workload-file")) {
    p["input"] = "workload_file";
    p["input_sha256"] = ssd::sha256_file(vm["workload-file"].as<std::string>());
  } else {
    p["input"] = "workload";
    p["input_sha256"] = ssd::sha256_hex(vm["workload"].as<std::string>());
  }
  return p;
}

// --trace-queues "0,1,...": each trace's submission queue (none given: all 0).
std::vector<uint32_t> trace_queues(const po::variables_map& vm, std::size_t traces) {
  if (!vm.count("trace-queues")) return {};
  const std::string& text = vm["trace-queues"].as<std::string>();
  std::vector<uint32_t> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    uint64_t q = 0;
    if (ssd::tb::parse_unsigned(text.substr(start, end - start), q) != nullptr || q > 65535)
      throw ssd::UsageError("--trace-queues: expected queue indices 0 to 65535 separated by "
                            "commas" + ssd::tb::got(text));
    out.push_back(uint32_t(q));
    start = end + 1;
  }
  if (out.size() != traces)
    throw ssd::UsageError("--trace-queues: " + std::to_string(out.size()) + " queues for " +
                          std::to_string(traces) + (vm.count("volume-flows") ? " volumes" : " traces") +
                          ssd::tb::got(text));
  return out;
}

// --precondition-mode: whether the firmware runs every preconditioning write ("simulate")
// rather than the FTL computing their result ("bulk", where it can).
bool precondition_simulate(const po::variables_map& vm) {
  const std::string& mode = vm["precondition-mode"].as<std::string>();
  if (mode != "bulk" && mode != "simulate")
    throw ssd::UsageError("--precondition-mode: must be bulk or simulate" + ssd::tb::got(mode));
  if (!vm.count("precondition") && !vm["precondition-mode"].defaulted())
    throw ssd::UsageError("--precondition-mode: applies only with --precondition");
  return mode == "simulate";
}

std::string out_dir(const po::variables_map& vm) {
  if (!vm.count("out")) throw ssd::UsageError("--out is required (see --help)");
  const std::string& dir = vm["out"].as<std::string>();
  ssd::tb::check_output_dir(dir);
  return dir;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  // A subcommand with its own options; it simulates nothing.
  if (argc > 1 && std::string(argv[1]) == "trace-stats") {
    return ssd::tb::trace_stats_main(std::vector<std::string>(argv + 2, argv + argc), std::cout,
                                     std::cerr);
  }
  po::options_description general(
      "Usage: ssdtlm --config FILE (--trace FILE [--format F] | --workload SPEC |\n"
      "              --workload-file FILE.json) --out DIR [options]\n"
      "       ssdtlm trace-stats FILE [--format F] [--json] (see trace-stats --help)"
      "\n\nOptions");
  general.add_options()
      ("help,h", "show this help")
      ("version", "print the version and exit")
      ("config,c", po::value<std::string>(), "drive description (JSON, see docs/config.md)")
      ("trace,t", po::value<std::vector<std::string>>(),
       "block trace to replay (see docs/trace-formats.md); given more than once, the traces "
       "replay side by side, each a flow")
      ("trace-queues", po::value<std::string>(),
       "with several --trace (or --volume-flows): Q1,Q2,...: the submission queue (host.queues "
       "index) of each trace (volume), in order (default 0)")
      ("volume-flows", "with one --trace and a --volume list of two or more: each volume is a "
       "flow of its own")
      ("workload,w", po::value<std::string>(), "synthetic workload instead of a trace (SPEC below)")
      ("workload-file", po::value<std::string>(),
       "synthetic workload of several jobs from a JSON spec (docs/trace-formats.md, workloads/)")
      ("flows-alone", "with a --workload-file of several jobs: first run each job alone on the "
       "same drive, for each flow's slowdown and the fairness across flows (docs/report.md#flows)")
      ("out,o", po::value<std::string>(),
       "output directory (created if missing); the outputs of an earlier run there are replaced")
      ("no-series", "do not write DIR/energy.csv")
      ("request-log", po::value<std::string>(),
       "csv or gz: also write DIR/requests.csv (gz: requests.csv.gz), a line per request: "
       "arrival, start, completion, op, offset, size, latency")
      ("reproducible", "leave wall-clock figures out of report.json (byte-identical reruns)")
      ("precondition", "fill the drive before measuring: every logical page in order, then "
       "random overwrites (docs/ftl.md)")
      ("precondition-random", po::value<std::string>()->default_value("1"),
       "with --precondition: random overwrites as a multiple of the logical capacity (0 to 100)")
      ("precondition-mode", po::value<std::string>()->default_value("bulk"),
       "with --precondition: bulk (compute the aged state where the FTL can) or simulate (run "
       "every write through the firmware)")
      ("quiet,q", "no summary, no progress (warnings and errors still go to stderr)")
      ("bench", "print simulated requests per wall and per CPU second, and peak memory")
      ("set", po::value<std::vector<std::string>>()->composing(),
       "KEY=VALUE: override a config key by its dotted path, e.g. flash.t_prog_us=900, "
       "ftl.type=dftl, power.rails.0.voltage_v=3.3 (repeatable; docs/config.md)")
      ("dump-config", "print the effective config (every default resolved) and exit");
  const po::options_description input = ssd::tb::trace_input_options();
  const po::options_description replay = ssd::tb::trace_replay_options();
  const po::options_description waveform = ssd::tb::waveform_options();
  po::options_description opts;
  opts.add(general).add(waveform).add(input).add(replay);
  const auto help = [&](std::ostream& out) {
    out << opts << "\nOutputs: DIR/report.json (docs/report.md), DIR/energy.csv (energy per "
                   "window of power.window_us), DIR/current.vcd with --vcd and\n"
                   "DIR/current.fst with --fst (open with gtkwave).\n\n"
        << ssd::tb::WorkloadGenerator::help() << '\n';
  };
  if (argc == 1) {
    help(std::cerr);
    return kExitUsage;
  }
  po::variables_map vm;
  try {
    // Words that belong to no option are collected, so the error can name them.
    po::options_description all;
    all.add(opts).add_options()("stray", po::value<std::vector<std::string>>());
    po::positional_options_description words;
    words.add("stray", -1);
    po::store(po::command_line_parser(argc, argv).options(all).positional(words).run(), vm);
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    std::vector<std::string> names;
    for (const auto& o : opts.options()) names.push_back("--" + o->long_name());
    return fail(std::string(e.what()) + ssd::did_you_mean(e.get_option_name(), names) +
                    " (see --help)",
                kExitUsage);
  } catch (const po::error& e) {
    return fail(std::string(e.what()) + " (see --help)", kExitUsage);
  }
  if (vm.count("stray")) {
    return fail("unexpected word \"" + vm["stray"].as<std::vector<std::string>>().front() +
                    "\" (options start with --; see --help)",
                kExitUsage);
  }
  if (vm.count("help")) {
    help(std::cout);
    return kExitOk;
  }
  if (vm.count("version")) {
    std::cout << "ssdtlm " << SSDTLM_VERSION << " (" << SSDTLM_GIT_DESCRIBE << ")\n";
    return kExitOk;
  }

  try {
    // The command line is checked whole before any file is read, so a usage error is always
    // reported as one (exit 2), whatever the files hold.
    if (!vm.count("config")) throw ssd::UsageError("--config is required (see --help)");
    const bool dump_config = vm.count("dump-config") > 0;
    const std::size_t traces =
        vm.count("trace") ? vm["trace"].as<std::vector<std::string>>().size() : 0;
    if (vm.count("volume-flows") && traces != 1)
      throw ssd::UsageError("--volume-flows: applies only to one --trace");
    if (vm.count("trace-queues") && traces < 2 && !vm.count("volume-flows"))
      throw ssd::UsageError("--trace-queues: applies only to two --trace or more, or --volume-flows");
    if (!dump_config && vm.count("trace") + vm.count("workload") + vm.count("workload-file") != 1)
      throw ssd::UsageError(
          "give exactly one of --trace and --workload or --workload-file (see --help)");
    if (!vm.count("trace")) {
      // Only --workload-file has a use for one trace option: --max-requests caps it too.
      std::string ignored = given_from(vm, input, vm.count("workload-file") ? "max-requests" : "");
      if (ignored.empty()) ignored = given_from(vm, replay);
      if (!ignored.empty()) {
        throw ssd::UsageError("--" + ignored + ": applies only to --trace" +
                              (ignored == "max-requests" ? " and --workload-file" : ""));
      }
    }
    const std::vector<std::string> overrides =
        vm.count("set") ? vm["set"].as<std::vector<std::string>>() : std::vector<std::string>{};
    for (const std::string& assignment : overrides) ssd::config::check_override(assignment);
    ssd::tb::TraceOptions topts = ssd::tb::trace_options(vm);
    ssd::tb::RunOptions run;
    run.out_dir = dump_config ? "" : out_dir(vm);
    run.waveform = ssd::tb::waveform_options(vm);
    run.series = vm.count("no-series") == 0;
    if (vm.count("request-log")) {
      const std::string& format = vm["request-log"].as<std::string>();
      if (format != "csv" && format != "gz")
        throw ssd::UsageError("--request-log: expected csv or gz" + ssd::tb::got(format));
      run.request_log = format == "csv" ? "requests.csv" : "requests.csv.gz";
    }
    run.reproducible = vm.count("reproducible") > 0;
    run.precondition = vm.count("precondition") > 0;
    run.precondition_random = precondition_random(vm);
    run.precondition_simulate = precondition_simulate(vm);
#ifndef SSDTLM_SANITIZE
    run.free_model = false;  // the process exits after the run; sanitizer builds check the frees
#endif
    const bool quiet = vm.count("quiet") > 0;
    run.progress = !quiet && isatty(fileno(stderr));

    const std::string config_path = vm["config"].as<std::string>();
    nlohmann::json doc = ssd::config::read_config_json(config_path);
    for (const std::string& assignment : overrides) ssd::config::apply_override(doc, assignment);
    const ssd::config::DriveConfig cfg = ssd::config::parse_drive_config(
        doc, overrides.empty() ? config_path : config_path + " with --set");
    // Exactly what --dump-config prints: the bytes provenance.config_sha256 digests.
    const std::string effective_config = ssd::config::to_json(cfg).dump(2) + "\n";
    if (dump_config) {
      std::cout << effective_config;
      return kExitOk;
    }

    std::unique_ptr<ssd::tb::RequestSource> source;
    if (vm.count("trace")) {
      topts.capacity_bytes = cfg.logical_bytes();
      topts.page_bytes = cfg.flash.page_bytes;
      std::vector<std::unique_ptr<ssd::tb::TraceReader>> readers;
      for (const std::string& path : vm["trace"].as<std::vector<std::string>>()) {
        readers.push_back(ssd::tb::open_trace(path, topts));
        if (readers.back()->counters().detected && !quiet)
          std::cerr << "ssdtlm: trace format: " << readers.back()->counters().format
                    << " (detected" << (readers.size() > 1 ? ", " + path : std::string()) << ")\n";
      }
      if (vm.count("volume-flows")) {
        std::vector<uint64_t> sorted = topts.volumes;
        std::sort(sorted.begin(), sorted.end());
        if (sorted.size() < 2 || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
          throw ssd::UsageError(
              "--volume-flows: needs a --volume list of two volumes or more, each once");
        source = std::make_unique<ssd::tb::VolumeFlows>(
            std::move(readers.front()), topts.volumes, trace_queues(vm, topts.volumes.size()));
      } else if (readers.size() == 1)
        source = std::move(readers.front());
      else
        source = std::make_unique<ssd::tb::TraceSet>(
            std::move(readers), trace_queues(vm, readers.size()));
    } else if (vm.count("workload-file")) {
      source = std::make_unique<ssd::tb::JsonWorkload>(vm["workload-file"].as<std::string>(),
                                                       cfg.logical_bytes(), topts.max_requests);
    } else {
      try {
        source = ssd::tb::make_workload(vm["workload"].as<std::string>(), cfg.logical_bytes());
      } catch (const ssd::InputError& e) {
        // The spec is an option value, so its errors are usage errors.
        throw ssd::UsageError(std::string("--") + e.what());
      }
    }

    if (vm.count("flows-alone")) {
      const auto* file = dynamic_cast<const ssd::tb::JsonWorkload*>(source.get());
      if (file == nullptr || file->jobs() < 2)
        throw ssd::UsageError("--flows-alone: needs a --workload-file of two jobs or more");
      // Each job alone on the same drive, written nowhere; the model freed after each.
      ssd::tb::RunOptions alone = run;
      alone.out_dir.clear();
      alone.progress = false;
      alone.free_model = true;
      alone.provenance = nullptr;
      for (std::size_t i = 0; i < file->jobs(); ++i) {
        ssd::tb::JsonWorkload one(vm["workload-file"].as<std::string>(), cfg.logical_bytes(),
                                  topts.max_requests, int(i));
        const ssd::tb::RunResult r = ssd::tb::run_simulation(cfg, one, alone);
        if (!quiet)
          std::cerr << "ssdtlm: flow " << r.report["flows"][0]["name"].get<std::string>()
                    << " alone: mean latency " << r.report["flows"][0]["mean_latency_us"].get<double>()
                    << " us\n";
        run.flows_alone.push_back(r.report["flows"][0]);
      }
    }
    // After the source is open, so a missing or irregular input is reported by its reader.
    run.provenance = provenance(argc, argv, vm, overrides, effective_config);
    const ssd::tb::RunResult result = ssd::tb::run_simulation(cfg, *source, run);
    for (const auto& w : result.report["warnings"]) {
      std::cerr << "ssdtlm: warning: " << w.get<std::string>() << '\n';
    }
    if (!quiet) std::cout << result.summary << "  outputs    " << run.out_dir << "/\n";
    if (vm.count("bench")) {
      const auto& req = result.report["requests"];
      const double count = double(req["count"].get<uint64_t>());
      const double cpu = ssd::cpu_seconds();
      std::printf("bench: %.0f host requests in %.3f wall s: %.0f requests per wall second\n",
                  count, result.wall_time_s, count / result.wall_time_s);
      std::printf("bench: %.3f CPU s in the whole process: %.0f requests per CPU second\n", cpu,
                  count / cpu);
      std::printf("bench: peak memory (max RSS) %.1f MB\n", peak_rss_mb());
      // The requests alone: the simulated run less starting up, preconditioning and outputs.
      if (result.precondition_cpu_s >= 0)
        std::printf("bench: preconditioning %.3f CPU s\n", result.precondition_cpu_s);
      std::printf("bench: the simulated run %.3f CPU s: %.0f requests per CPU second\n",
                  result.run_cpu_s, count / result.run_cpu_s);
      // The kernel's rounds of evaluation (one per time step and delta): what the model asks
      // of SystemC per request.
      const double deltas = double(sc_core::sc_delta_count());
      std::printf("bench: %.0f SystemC delta cycles: %.2f per request\n", deltas, deltas / count);
    }
    if (!result.data_intact)
      return fail("the scoreboard found lost or corrupted data (see report)");
    return kExitOk;
  } catch (const ssd::UsageError& e) {
    return fail(e.what(), kExitUsage);
  } catch (const ssd::ConfigError& e) {
    return fail(e.what());
  } catch (const ssd::InputError& e) {
    return fail(e.what());
  } catch (const sc_core::sc_report& e) {
    return fail(std::string(e.get_msg_type()) + ": " + e.get_msg());
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}

// Our own entry point: the SystemC banner is printed before sc_main runs, so it can only be
// silenced here (stdout carries the summary).
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
