#include "firmware/StatisticsJson.h"

#include <variant>

namespace ssd {
namespace {

nlohmann::ordered_json value_of(const Figure& f) {
  if (const auto* counter = std::get_if<uint64_t*>(&f.value)) return **counter;
  if (const auto* total = std::get_if<double*>(&f.value)) return **total;
  const std::optional<double> v = std::get<2>(f.value)();
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

}  // namespace

void add_figures(nlohmann::ordered_json& report, const std::vector<const Statistics*>& owners,
                 const std::string& group) {
  for (const Statistics* owner : owners)
    if (const StatGroup* g = owner->find(group))
      for (const Figure& f : g->figures()) report[group][f.name] = value_of(f);
}

std::optional<double> figure_value(const std::vector<const Statistics*>& owners,
                                   const std::string& group, const std::string& name) {
  for (const Statistics* owner : owners) {
    const StatGroup* g = owner->find(group);
    const Figure* f = g ? g->find(name) : nullptr;
    if (!f) continue;
    const nlohmann::ordered_json v = value_of(*f);
    return v.is_null() ? std::nullopt : std::optional<double>(v.get<double>());
  }
  return std::nullopt;
}

}  // namespace ssd
