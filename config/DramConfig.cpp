#include "config/DramConfig.h"

#include <set>

namespace ssd::config {

void validate(const DramConfig& d, Problems& problems) {
  if (d.write_buffer_mb >= d.size_mb)
    problems.add("dram.write_buffer_mb", "must leave room for the mapping table in dram.size_mb (" +
                                             std::to_string(d.size_mb) + ")");
  std::set<std::string> part_names;
  for (size_t i = 0; i < d.parts.size(); ++i) {
    const DramPart& p = d.parts[i];
    const std::string path = "dram.parts[" + std::to_string(i) + "]";
    if (p.name.empty()) problems.add(path + ".name", "must not be empty");
    if (!part_names.insert(p.name).second)
      problems.add(path + ".name", "\"" + p.name + "\" names two parts");
    if (p.source.empty()) problems.add(path + ".source", "must name where the figures come from");
  }
  if (d.self_refresh.enabled && !(d.self_refresh.idle_us > 0))
    problems.add("dram.self_refresh.idle_us", "must be positive when self-refresh is enabled");
}

}  // namespace ssd::config
