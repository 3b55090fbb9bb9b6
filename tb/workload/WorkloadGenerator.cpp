#include "tb/workload/WorkloadGenerator.h"

#include <string_view>
#include <utility>
#include <vector>

#include "common/Errors.h"
#include "tb/trace/TextFields.h"

namespace ssd::tb {

namespace {

JobSpec parse_spec(std::string_view spec, const AddressSpace& space) {
  std::vector<std::pair<std::string_view, std::string_view>> keys;
  while (!spec.empty()) {
    const size_t comma = spec.find(',');
    const std::string_view item = trim_blanks(spec.substr(0, comma));  // "rw=read, bs=4k"
    spec = comma == std::string_view::npos ? std::string_view() : spec.substr(comma + 1);
    if (item.empty()) continue;  // tolerate "a=1,,b=2" and a trailing comma
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      throw InputError("workload: " + std::string(item) + ": expected key=value");
    }
    keys.emplace_back(trim_blanks(item.substr(0, eq)), trim_blanks(item.substr(eq + 1)));
  }
  return parse_job(keys, space, JobSyntax{"workload: ", false});
}

}  // namespace

WorkloadGenerator::WorkloadGenerator(const std::string& spec, const AddressSpace& space)
    : job_(parse_spec(spec, space)) {}

std::string WorkloadGenerator::help() {
  return "Workload spec: comma-separated key=value pairs, e.g.\n"
         "  rw=randwrite,bs=4k,qd=32,count=1000000,seed=1\nKeys:\n" +
         job_keys_help() +
         "Sequential patterns wrap around to offset at the end of the span. Requests are issued "
         "as\nfast as qd and the drive allow (closed loop).\n\n"
         "Workload file (--workload-file, JSON; docs/trace-formats.md, workloads/):\n"
         "  {\"seed\": 1, \"jobs\": [{\"rw\": \"randread\", \"bs\": \"4k\", ...}, ...]}\n"
         "Each job takes the keys above, as numbers or strings, and:\n" +
         file_keys_help();
}

std::unique_ptr<RequestSource> make_workload(const std::string& spec, const AddressSpace& space) {
  return std::make_unique<WorkloadGenerator>(spec, space);
}

}  // namespace ssd::tb
