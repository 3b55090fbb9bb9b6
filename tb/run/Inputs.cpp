#include "tb/run/Inputs.h"

#include <algorithm>
#include <iostream>
#include <optional>
#include <string>

#include "common/Errors.h"
#include "tb/trace/TraceFactory.h"
#include "tb/trace/TraceSet.h"
#include "tb/trace/VolumeFlows.h"
#include "tb/workload/JsonWorkload.h"
#include "tb/workload/WorkloadGenerator.h"

namespace ssd::tb {
namespace {

// --trace-namespaces' names as indices into the drive's namespaces (none given: all the first).
std::vector<uint32_t> namespace_indices(const std::vector<std::string>& names,
                                        const std::vector<config::NamespaceRange>& layout) {
  std::vector<uint32_t> out;
  for (const std::string& name : names) {
    const std::optional<uint32_t> ns = config::find_namespace(layout, name);
    if (!ns) throw UsageError("--trace-namespaces: " + config::no_such_namespace(layout, name));
    out.push_back(*ns);
  }
  return out;
}

// --trace-placement's handles, and --trace-placement-ranges', against their namespaces' (ftl.fdp),
// conventional ones; the ranges within the trace's namespace.
void check_placement(const Cli& cli, const std::vector<config::NamespaceRange>& layout,
                     const std::vector<uint32_t>& ns) {
  for (std::size_t i = 0; i < cli.trace_placement.size(); ++i) {
    const std::string why =
        config::placement_handle_problem(layout[ns.empty() ? 0 : ns[i]], cli.trace_placement[i]);
    if (!why.empty()) throw UsageError("--trace-placement: " + why);
  }
  const config::NamespaceRange& n = layout[ns.empty() ? 0 : ns[0]];
  for (const PlacementRange& r : cli.trace.placement_ranges) {
    if (const std::string why = config::placement_handle_problem(n, r.handle); !why.empty())
      throw UsageError("--trace-placement-ranges: " + why);
    if (r.end > n.host_bytes())
      throw UsageError("--trace-placement-ranges: a range ends at byte " + std::to_string(r.end) +
                       ", past the " + std::to_string(n.host_bytes()) + " bytes of " +
                       (layout.size() == 1 ? std::string("the drive") : "namespace " + n.name));
  }
}

std::unique_ptr<RequestSource> open_traces(const Cli& cli, const config::DriveConfig& cfg) {
  const std::vector<config::NamespaceRange> layout = cfg.namespace_layout();
  const std::vector<uint32_t> ns = namespace_indices(cli.trace_namespaces, layout);
  check_placement(cli, layout, ns);
  TraceOptions topts = cli.trace;
  topts.page_bytes = cfg.flash.page_bytes;
  // A trace fits its addresses (--fit) to its namespace; the volumes of one trace, to the largest
  // of theirs (the host wraps each into its own, requests.wrapped).
  topts.capacity_bytes = layout.front().host_bytes();
  if (cli.volume_flows)
    for (uint32_t n : ns)
      topts.capacity_bytes = std::max(topts.capacity_bytes, layout[n].host_bytes());
  std::vector<std::unique_ptr<TraceReader>> readers;
  for (std::size_t i = 0; i < cli.traces.size(); ++i) {
    const std::string& path = cli.traces[i];
    if (!cli.volume_flows && !ns.empty()) topts.capacity_bytes = layout[ns[i]].host_bytes();
    readers.push_back(open_trace(path, topts));
    if (!cli.volume_flows && !ns.empty()) readers.back()->set_namespace(ns[i]);
    if (!cli.volume_flows && !cli.trace_placement.empty())
      readers.back()->set_placement(uint16_t(cli.trace_placement[i]));
    if (readers.back()->counters().detected && !cli.quiet)
      std::cerr << "ssdtlm: trace format: " << readers.back()->counters().format << " (detected"
                << (readers.size() > 1 ? ", " + path : std::string()) << ")\n";
  }
  if (cli.volume_flows)
    return std::make_unique<VolumeFlows>(std::move(readers.front()), topts.volumes,
                                         cli.trace_queues, ns, cli.trace_placement);
  if (readers.size() == 1) return std::move(readers.front());
  return std::make_unique<TraceSet>(std::move(readers), cli.trace_queues);
}

}  // namespace

std::unique_ptr<RequestSource> open_input(const Cli& cli, const config::DriveConfig& cfg) {
  if (!cli.traces.empty()) return open_traces(cli, cfg);
  if (!cli.workload_file.empty())
    return std::make_unique<JsonWorkload>(cli.workload_file, AddressSpace(cfg.namespace_layout()),
                                          cli.trace.max_requests);
  try {
    return make_workload(cli.workload, AddressSpace(cfg.namespace_layout()));
  } catch (const InputError& e) {
    // The spec is an option value, so its errors are usage errors.
    throw UsageError(std::string("--") + e.what());
  }
}

std::vector<nlohmann::ordered_json> run_flows_alone(const Cli& cli, const config::DriveConfig& cfg,
                                                    const RequestSource& source) {
  const auto* file = dynamic_cast<const JsonWorkload*>(&source);
  if (file == nullptr || file->jobs() < 2)
    throw UsageError("--flows-alone: needs a --workload-file of two jobs or more");
  // The model freed after each run. With --progress, each run's phases and requests show under
  // a line naming the flow, as the measured run's do.
  RunOptions alone = cli.run;
  alone.out_dir.clear();
  alone.free_model = true;
  alone.provenance = nullptr;
  std::vector<nlohmann::ordered_json> flows;
  for (std::size_t i = 0; i < file->jobs(); ++i) {
    JsonWorkload one(cli.workload_file, AddressSpace(cfg.namespace_layout()),
                     cli.trace.max_requests, int(i));
    if (alone.progress)
      std::cerr << "  flow " << one.flows().front()->flow_name() << " alone (" << i + 1 << " of "
                << file->jobs() << "):\n";
    const RunResult r = run_simulation(cfg, one, alone);
    if (!cli.quiet)
      std::cerr << "ssdtlm: flow " << r.report["flows"][0]["name"].get<std::string>()
                << " alone: mean latency " << r.report["flows"][0]["mean_latency_us"].get<double>()
                << " us\n";
    flows.push_back(r.report["flows"][0]);
  }
  return flows;
}

}  // namespace ssd::tb
