#include "tb/run/Provenance.h"

#include <vector>

#include "common/Sha256.h"

namespace ssd::tb {

nlohmann::ordered_json provenance(const Cli& cli, const Build& build,
                                  const std::string& effective_config) {
  nlohmann::ordered_json p;
  p["version"] = build.version;
  p["git"] = build.git;
  // The command line names the output directory: --reproducible runs into two directories
  // write the same report.
  if (!cli.run.reproducible) p["argv"] = cli.argv;
  p["config"] = cli.config_path;
  p["overrides"] = cli.overrides;
  p["config_sha256"] = sha256_hex(effective_config);
  if (!cli.traces.empty()) {
    p["input"] = "trace";
    if (cli.traces.size() == 1) {
      p["input_sha256"] = sha256_file(cli.traces.front());
    } else {
      std::vector<std::string> digests;
      for (const std::string& t : cli.traces) digests.push_back(sha256_file(t));
      p["input_sha256"] = digests;
    }
  } else if (!cli.workload_file.empty()) {
    p["input"] = "workload_file";
    p["input_sha256"] = sha256_file(cli.workload_file);
  } else {
    p["input"] = "workload";
    p["input_sha256"] = sha256_hex(cli.workload);
  }
  return p;
}

}  // namespace ssd::tb
