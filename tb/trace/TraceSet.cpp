#include "tb/trace/TraceSet.h"

#include <filesystem>
#include <limits>
#include <utility>
#include <nlohmann/json.hpp>

namespace ssd::tb {

TraceSet::TraceSet(std::vector<std::unique_ptr<TraceReader>> traces,
                   const std::vector<uint32_t>& queues) {
  std::vector<std::string> names;
  for (const auto& t : traces) {
    std::filesystem::path p(t->path());
    if (p.extension() == ".gz") p = p.stem();
    names.push_back(p.stem().string());
  }
  for (std::size_t i = 0; i < traces.size(); ++i) {
    std::string name = names[i];
    for (std::size_t j = 0; j < names.size(); ++j)
      if (j != i && names[j] == names[i]) name += "#" + std::to_string(i);
    flows_.emplace_back(std::move(traces[i]), std::move(name), i < queues.size() ? queues[i] : 0);
  }
}

bool TraceSet::next(HostRequest& out) {
  Flow* pick = nullptr;
  for (Flow& f : flows_) {
    if (!f.started) {
      f.has_head = f.trace->next(f.head);
      f.started = true;
    }
    if (f.has_head && (pick == nullptr || f.head.arrival < pick->head.arrival)) pick = &f;
  }
  if (pick == nullptr) return false;
  out = pick->head;
  pick->has_head = pick->trace->next(pick->head);
  return true;
}

uint32_t TraceSet::host_queue_depth() const {
  uint64_t depth = 0;
  for (const Flow& f : flows_) {
    if (f.trace->host_queue_depth() == 0) return 0;  // one without a limit: none
    depth += f.trace->host_queue_depth();
  }
  return uint32_t(std::min<uint64_t>(depth, std::numeric_limits<uint32_t>::max()));
}

uint64_t TraceSet::expected_count() const {
  uint64_t n = 0;
  for (const Flow& f : flows_) {
    if (f.trace->expected_count() == 0) return 0;
    n += f.trace->expected_count();
  }
  return n;
}

std::string TraceSet::describe() const {
  std::string d = std::to_string(flows_.size()) + " traces:";
  for (const Flow& f : flows_) d += " " + f.trace->path();
  return d;
}

void TraceSet::add_to_report(nlohmann::ordered_json& report) const {
  nlohmann::ordered_json traces = nlohmann::ordered_json::array();
  for (const Flow& f : flows_) {
    nlohmann::ordered_json one;
    f.trace->add_to_report(one);
    traces.push_back(std::move(one["trace"]));
  }
  report["traces"] = std::move(traces);
}

void TraceSet::add_warnings(std::vector<std::string>& out) const {
  for (const Flow& f : flows_) f.trace->add_warnings(out);
}

std::vector<RequestSource*> TraceSet::flows() {
  std::vector<RequestSource*> out;
  for (Flow& f : flows_) out.push_back(&f);
  return out;
}

}  // namespace ssd::tb
