#include "config/HostConfig.h"

namespace ssd::config {
namespace {

// At most as many link states as the model has (model::PowerState::Low1..Low3).
constexpr std::size_t kMaxLinkStates = 3;

void validate_link_states(const std::vector<LinkStateConfig>& states, Problems& problems) {
  if (states.size() > kMaxLinkStates)
    problems.add("host.link_states", "has " + std::to_string(states.size()) + " states; at most " +
                                         std::to_string(kMaxLinkStates));
  for (std::size_t i = 0; i < states.size(); ++i) {
    const std::string path = "host.link_states[" + std::to_string(i) + "]";
    const std::string& n = states[i].name;
    // It becomes a report key.
    require_short_identifier(problems, path + ".name", n);
    for (std::size_t j = 0; j < i; ++j)
      if (states[j].name == n) problems.add(path + ".name", "\"" + n + "\" names two states");
    if (!(states[i].idle_us > 0)) problems.add(path + ".idle_us", "must be positive");
    if (states[i].source.empty())
      problems.add(path + ".source", "must name where the figures come from");
  }
}

}  // namespace

// SATA has one NCQ queue of up to 32 commands; NVMe queues are arbitrated (NVMe base spec,
// "Command Arbitration": a burst of 2^n commands, or no limit).
void validate(const HostConfig& h, Problems& problems) {
  const uint32_t b = h.arbitration_burst;
  if (b != 0 && (b & (b - 1)) != 0)
    problems.add("host.arbitration_burst",
                 "must be a power of two up to 128, or 0 for no limit, got " + std::to_string(b));
  if (h.interface == HostProtocol::Sata) {
    if (h.queue_depth > 32)
      problems.add("host.queue_depth",
                   "SATA NCQ holds at most 32 commands, got " + std::to_string(h.queue_depth));
    if (h.queues.size() > 1)
      problems.add("host.queues",
                   "SATA has one command queue, got " + std::to_string(h.queues.size()));
  }
  validate_link_states(h.link_states, problems);
}

}  // namespace ssd::config
