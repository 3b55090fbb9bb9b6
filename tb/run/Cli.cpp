#include "tb/run/Cli.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string_view>

#include <boost/program_options.hpp>

#include "common/DidYouMean.h"
#include "common/Errors.h"
#include "config/Overrides.h"
#include "tb/run/OutputSet.h"
#include "tb/run/StateCache.h"
#include "tb/run/Waveform.h"
#include "tb/trace/TextFields.h"
#include "tb/trace/TraceCli.h"
#include "tb/workload/WorkloadGenerator.h"

namespace po = boost::program_options;

namespace ssd::tb {
namespace {

// Random overwrites beyond this many times the capacity change nothing a run measures (the
// drive reaches its steady state long before) and would only take hours.
constexpr double kMaxPreconditionRandom = 100;
// timeline.csv's interval in us: a nanosecond at least (finer is below any modelled step), and
// at most what picoseconds in 64 bits hold with room.
constexpr double kMinTimelineUs = 1e-3, kMaxTimelineUs = 1e12;

po::options_description general_options() {
  po::options_description general(
      "Usage: ssdtlm --config FILE (--trace FILE [--format F] | --workload SPEC |\n"
      "              --workload-file FILE.json) --out DIR [options]\n"
      "       ssdtlm trace-stats FILE [--format F] [--json] (see trace-stats --help)\n"
      "       ssdtlm config-keys [--json] (every config key: type, default, range, choices)\n"
      "       ssdtlm state-cache [list | clear] [--dir DIR] (the aged drives kept)\n"
      "       ssdtlm explain [KEY | SECTION] [--config FILE] (what a config key means)"
      "\n\nOptions");
  // One option per line:
  // clang-format off
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
      ("trace-namespaces", po::value<std::string>(),
       "with --trace: N1,N2,...: the namespace (by name, config namespaces) each trace (volume, "
       "with --volume-flows) addresses, in order (default the first)")
      ("trace-placement", po::value<std::string>(),
       "with --trace: H1,H2,...: the placement handle (ftl.fdp) each trace's (volume's, with "
       "--volume-flows) writes go through, in order (default 0)")
      ("trace-placement-ranges", po::value<std::string>(),
       "with one --trace: FIRST-END:H,...: the writes whose first byte lies in [FIRST, END) of "
       "the trace's namespace (bytes; k, m, g suffixes) go through placement handle H (ftl.fdp); "
       "the others through --trace-placement's")
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
      ("timeline", po::value<std::string>(),
       "US: also write DIR/timeline.csv, a row per US microseconds of simulated time: requests, "
       "latency, queue, write buffer, free blocks, GC, busy fractions, power (docs/report.md), "
       "and DIR/timeline_dies.csv, each die's busy fraction per row; with --vcd or --fst also "
       "as signals in scope ssd.timeline")
      ("request-log", po::value<std::string>(),
       "csv or gz: also write DIR/requests.csv (gz: requests.csv.gz), a line per request: "
       "arrival, start, completion, op, offset, size, latency and where its time went, "
       "stage by stage (docs/report.md#latency-breakdown)")
      ("reproducible", "leave wall-clock figures out of report.json (byte-identical reruns)")
      ("precondition", "fill the drive before measuring: every logical page in order, then "
       "random overwrites (docs/ftl.md)")
      ("precondition-fill", po::value<std::string>()->default_value("1"),
       "with --precondition: the share of the logical capacity (what the namespaces cover) "
       "written, in order from the first page (above 0, at most 1): the drive that full; the "
       "random overwrites land in it")
      ("precondition-random", po::value<std::string>()->default_value("1"),
       "with --precondition: random overwrites as a multiple of the logical capacity written "
       "(0 to 100)")
      ("precondition-mode", po::value<std::string>()->default_value("bulk"),
       "with --precondition: bulk (compute the aged state where the FTL can) or simulate (run "
       "every write through the firmware)")
      ("save-state", po::value<std::string>(),
       "FILE: with --precondition: save the aged drive to FILE before the measured run "
       "(docs/state.md)")
      ("load-state", po::value<std::string>(),
       "FILE: start from the aged drive saved in FILE instead of preconditioning (the config's "
       "geometry and FTL keys must match)")
      ("state-cache", po::value<std::string>(),
       "DIR: with --precondition: where aged drives are kept, one file per config and "
       "preconditioning options; a run finds its drive there or ages it and stores it "
       "(default $SSDTLM_STATE_CACHE, else $XDG_CACHE_HOME/ssdtlm, else ~/.cache/ssdtlm; at "
       "most $SSDTLM_STATE_CACHE_MAX_GB, default 20, least recently used files go first; "
       "`ssdtlm state-cache` lists and clears it; docs/state.md)")
      ("no-state-cache", "with --precondition: age the drive in this run and store nothing")
      ("quiet,q", "no summary, no progress (warnings and errors still go to stderr)")
      ("progress", "the progress line on stderr even when it is not a terminal (a tool reading "
       "it: each update starts with a carriage return); not with --quiet")
      ("bench", "print simulated requests per wall and per CPU second, and peak memory")
      ("set", po::value<std::vector<std::string>>()->composing(),
       "KEY=VALUE: override a config key by its dotted path, e.g. flash.t_prog_us=900, "
       "ftl.type=dftl, power.rails.0.voltage_v=3.3 (repeatable; docs/config.md)")
      ("dump-config", "print the effective config (every default resolved) and exit")
      ("check-overrides", po::value<std::string>(),
       "FILE (- for stdin): --dump-config for many sets of overrides in one process: each "
       "line of FILE a JSON array of \"KEY=VALUE\" strings (after any --set), answered by a "
       "JSON line, {\"config\": the text --dump-config prints} or {\"error\": its refusal}");
  // clang-format on
  return general;
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
  if (const char* reason = parse_double(text, value))
    throw UsageError(std::string("--precondition-random: ") + reason + got(text));
  if (value > kMaxPreconditionRandom)
    throw UsageError("--precondition-random: must be at most 100 (times the logical capacity)" +
                     got(text));
  if (!vm.count("precondition") && !vm["precondition-random"].defaulted())
    throw UsageError("--precondition-random: applies only with --precondition");
  return value;
}

double precondition_fill(const po::variables_map& vm) {
  const std::string& text = vm["precondition-fill"].as<std::string>();
  double value = 0;
  if (const char* reason = parse_double(text, value))
    throw UsageError(std::string("--precondition-fill: ") + reason + got(text));
  if (!(value > 0) || value > 1)
    throw UsageError(
        "--precondition-fill: must be above 0 and at most 1 (of the logical capacity)" + got(text));
  if (!vm.count("precondition") && !vm["precondition-fill"].defaulted())
    throw UsageError("--precondition-fill: applies only with --precondition");
  return value;
}

// --precondition-mode: whether the firmware runs every preconditioning write ("simulate")
// rather than the FTL computing their result ("bulk", where it can).
bool precondition_simulate(const po::variables_map& vm) {
  const std::string& mode = vm["precondition-mode"].as<std::string>();
  if (mode != "bulk" && mode != "simulate")
    throw UsageError("--precondition-mode: must be bulk or simulate" + got(mode));
  if (!vm.count("precondition") && !vm["precondition-mode"].defaulted())
    throw UsageError("--precondition-mode: applies only with --precondition");
  return mode == "simulate";
}

// A per-trace list option's items ("a,b,..."; none given: empty), one per trace (or volume).
std::vector<std::string> per_trace(const po::variables_map& vm, const char* option,
                                   const char* items, std::size_t traces) {
  if (!vm.count(option)) return {};
  const std::string& text = vm[option].as<std::string>();
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (out.size() != traces)
    throw UsageError("--" + std::string(option) + ": " + std::to_string(out.size()) + " " + items +
                     " for " + std::to_string(traces) +
                     (vm.count("volume-flows") ? " volumes" : " traces") + got(text));
  return out;
}

// --trace-queues "0,1,..." (each trace's or volume's submission queue) or --trace-placement
// (its placement handle): indices 0 to 65535 (none given: all 0).
std::vector<uint32_t> trace_indices(const po::variables_map& vm, const char* option,
                                    const char* items, const char* what, std::size_t traces) {
  std::vector<uint32_t> out;
  for (const std::string& item : per_trace(vm, option, items, traces)) {
    uint64_t q = 0;
    if (parse_unsigned(item, q) != nullptr || q > 65535)
      throw UsageError("--" + std::string(option) + ": expected " + what +
                       " 0 to 65535 separated by commas" + got(vm[option].as<std::string>()));
    out.push_back(uint32_t(q));
  }
  return out;
}

// --trace-placement-ranges "FIRST-END:H,...": byte ranges, each with its placement handle, in
// address order and apart.
std::vector<PlacementRange> placement_ranges(const std::string& text) {
  const auto fail = [&text](const std::string& why) {
    throw UsageError("--trace-placement-ranges: " + why + got(text));
  };
  std::vector<PlacementRange> out;
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const std::size_t dash = item.find('-'), colon = item.find(':');
    PlacementRange r;
    uint64_t handle = 0;
    if (dash == std::string_view::npos || colon == std::string_view::npos || colon < dash ||
        parse_bytes(item.substr(0, dash), r.first) != nullptr ||
        parse_bytes(item.substr(dash + 1, colon - dash - 1), r.end) != nullptr ||
        parse_unsigned(item.substr(colon + 1), handle) != nullptr || handle > 65535)
      fail("expected FIRST-END:HANDLE items (bytes, a handle 0 to 65535) separated by commas");
    if (r.end <= r.first) fail("a range ends at or before its first byte");
    if (!out.empty() && r.first < out.back().end) fail("ranges must come in address order, apart");
    r.handle = uint16_t(handle);
    out.push_back(r);
  }
  if (out.empty()) fail("expected FIRST-END:HANDLE items separated by commas");
  return out;
}

// --timeline US: the interval of timeline.csv's rows.
sc_core::sc_time timeline_interval(const std::string& text) {
  double us = 0;
  if (const char* reason = parse_double(text, us))
    throw UsageError(std::string("--timeline: ") + reason + got(text));
  if (us < kMinTimelineUs || us > kMaxTimelineUs)
    throw UsageError("--timeline: the interval must be from 0.001 to 1e12 microseconds" +
                     got(text));
  return sc_core::sc_time::from_value(uint64_t(std::llround(us * 1e6)));
}

std::string out_dir(const po::variables_map& vm) {
  if (!vm.count("out")) throw UsageError("--out is required (see --help)");
  const std::string& dir = vm["out"].as<std::string>();
  check_output_dir(dir);
  return dir;
}

// The input options: exactly one input, and no option that input would ignore.
void check_input(const po::variables_map& vm, const po::options_description& input,
                 const po::options_description& replay, std::size_t traces) {
  if (vm.count("volume-flows") && traces != 1)
    throw UsageError("--volume-flows: applies only to one --trace");
  if (vm.count("trace-queues") && traces < 2 && !vm.count("volume-flows"))
    throw UsageError("--trace-queues: applies only to two --trace or more, or --volume-flows");
  if (vm.count("trace-namespaces") && traces == 0)
    throw UsageError("--trace-namespaces: applies only with --trace");
  if (vm.count("trace-placement") && traces == 0)
    throw UsageError("--trace-placement: applies only with --trace");
  if (vm.count("trace-placement-ranges") && (traces != 1 || vm.count("volume-flows")))
    throw UsageError(
        "--trace-placement-ranges: applies only to one --trace, without --volume-flows");
  if (vm.count("progress") && vm.count("quiet"))
    throw UsageError("--progress: not with --quiet (which drops the progress line)");
  if (!vm.count("dump-config") && !vm.count("check-overrides") &&
      vm.count("trace") + vm.count("workload") + vm.count("workload-file") != 1)
    throw UsageError("give exactly one of --trace and --workload or --workload-file (see --help)");
  if (!vm.count("trace")) {
    // Only --workload-file has a use for one trace option: --max-requests caps it too.
    std::string ignored = given_from(vm, input, vm.count("workload-file") ? "max-requests" : "");
    if (ignored.empty()) ignored = given_from(vm, replay);
    if (!ignored.empty())
      throw UsageError("--" + ignored + ": applies only to --trace" +
                       (ignored == "max-requests" ? " and --workload-file" : ""));
  }
}

RunOptions run_options(const po::variables_map& vm, bool runs, bool quiet) {
  RunOptions run;
  run.out_dir = runs ? out_dir(vm) : "";
  run.waveform = waveform_options(vm);
  run.series = vm.count("no-series") == 0;
  if (vm.count("timeline"))
    run.timeline_interval = timeline_interval(vm["timeline"].as<std::string>());
  if (vm.count("request-log")) {
    const std::string& format = vm["request-log"].as<std::string>();
    if (format != "csv" && format != "gz")
      throw UsageError("--request-log: expected csv or gz" + got(format));
    run.request_log = format == "csv" ? "requests.csv" : "requests.csv.gz";
  }
  run.reproducible = vm.count("reproducible") > 0;
  run.precondition = vm.count("precondition") > 0;
  run.precondition_fill = precondition_fill(vm);
  run.precondition_random = precondition_random(vm);
  run.precondition_simulate = precondition_simulate(vm);
  if (vm.count("save-state")) {
    if (!run.precondition) throw UsageError("--save-state: applies only with --precondition");
    run.save_state = vm["save-state"].as<std::string>();
  }
  if (vm.count("load-state")) {
    if (run.precondition)
      throw UsageError("--load-state: not with --precondition (the state is an aged drive)");
    run.load_state = vm["load-state"].as<std::string>();
  }
  if (vm.count("state-cache") || vm.count("no-state-cache")) {
    const std::string name = vm.count("state-cache") ? "--state-cache" : "--no-state-cache";
    if (!run.precondition) throw UsageError(name + ": applies only with --precondition");
    if (!run.save_state.empty())
      throw UsageError(name + ": not with --save-state (which writes its own file)");
    if (vm.count("state-cache") && vm.count("no-state-cache"))
      throw UsageError("--state-cache: not with --no-state-cache");
  }
  if (run.precondition && run.save_state.empty() && !vm.count("no-state-cache")) {
    run.state_cache =
        vm.count("state-cache") ? vm["state-cache"].as<std::string>() : StateCache::default_dir();
    run.state_cache_max_bytes = StateCache::max_bytes_from_env();
  }
#ifndef SSDTLM_SANITIZE
  run.free_model = false;  // the process exits after the run; sanitizer builds check the frees
#endif
  run.progress = !quiet && (isatty(fileno(stderr)) || vm.count("progress") > 0);
  return run;
}

}  // namespace

Cli parse_cli(int argc, char* argv[]) {
  po::options_description opts;
  const po::options_description input = trace_input_options();
  const po::options_description replay = trace_replay_options();
  opts.add(general_options()).add(waveform_options()).add(input).add(replay);
  Cli cli;
  std::ostringstream help;
  help << opts
       << "\nOutputs: DIR/report.json (docs/report.md), DIR/energy.csv (energy per "
          "window of power.window_us), DIR/current.vcd with --vcd and\n"
          "DIR/current.fst with --fst (open with gtkwave), DIR/timeline.csv and "
          "DIR/timeline_dies.csv with --timeline.\n\n"
       << WorkloadGenerator::help() << '\n';
  cli.help = help.str();
  if (argc == 1) {
    cli.action = Cli::Action::NoArguments;
    return cli;
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
    throw UsageError(std::string(e.what()) + did_you_mean(e.get_option_name(), names) +
                     " (see --help)");
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (see --help)");
  }
  if (vm.count("stray"))
    throw UsageError("unexpected word \"" + vm["stray"].as<std::vector<std::string>>().front() +
                     "\" (options start with --; see --help)");
  if (vm.count("help")) {
    cli.action = Cli::Action::Help;
    return cli;
  }
  if (vm.count("version")) {
    cli.action = Cli::Action::Version;
    return cli;
  }

  if (!vm.count("config")) throw UsageError("--config is required (see --help)");
  cli.config_path = vm["config"].as<std::string>();
  if (vm.count("dump-config") && vm.count("check-overrides"))
    throw UsageError("--check-overrides: not with --dump-config (it prints one config)");
  if (vm.count("dump-config")) cli.action = Cli::Action::DumpConfig;
  if (vm.count("check-overrides")) {
    cli.action = Cli::Action::CheckOverrides;
    cli.check_overrides = vm["check-overrides"].as<std::string>();
  }
  if (vm.count("trace")) cli.traces = vm["trace"].as<std::vector<std::string>>();
  check_input(vm, input, replay, cli.traces.size());
  if (vm.count("set")) cli.overrides = vm["set"].as<std::vector<std::string>>();
  for (const std::string& assignment : cli.overrides) config::check_override(assignment);
  cli.trace = trace_options(vm);
  cli.quiet = vm.count("quiet") > 0;
  cli.bench = vm.count("bench") > 0;
  cli.run = run_options(vm, cli.action == Cli::Action::Run, cli.quiet);
  cli.argv.assign(argv, argv + argc);
  cli.volume_flows = vm.count("volume-flows") > 0;
  if (cli.volume_flows) {
    std::vector<uint64_t> sorted = cli.trace.volumes;
    std::sort(sorted.begin(), sorted.end());
    if (sorted.size() < 2 || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      throw UsageError("--volume-flows: needs a --volume list of two volumes or more, each once");
  }
  const std::size_t sources = cli.volume_flows ? cli.trace.volumes.size() : cli.traces.size();
  cli.trace_queues = trace_indices(vm, "trace-queues", "queues", "queue indices", sources);
  cli.trace_placement =
      trace_indices(vm, "trace-placement", "handles", "placement handles", sources);
  if (vm.count("trace-placement-ranges"))
    cli.trace.placement_ranges = placement_ranges(vm["trace-placement-ranges"].as<std::string>());
  // Each trace's (volume's) namespace by name, checked against the drive's as the input opens.
  cli.trace_namespaces = per_trace(vm, "trace-namespaces", "namespaces",
                                   cli.volume_flows ? cli.trace.volumes.size() : cli.traces.size());
  if (vm.count("workload")) cli.workload = vm["workload"].as<std::string>();
  if (vm.count("workload-file")) cli.workload_file = vm["workload-file"].as<std::string>();
  cli.flows_alone = vm.count("flows-alone") > 0;
  return cli;
}

}  // namespace ssd::tb
