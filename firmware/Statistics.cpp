#include "firmware/Statistics.h"

#include <stdexcept>

namespace ssd {

const char* to_string(StatUnit unit) {
  switch (unit) {
    case StatUnit::None: return "-";
    case StatUnit::Pages: return "pages";
    case StatUnit::Blocks: return "blocks";
    case StatUnit::Merges: return "merges";
    case StatUnit::Reads: return "reads";
    case StatUnit::Lookups: return "look-ups";
    case StatUnit::Units: return "units";
  }
  return "?";
}

void StatGroup::check_new(const std::string& name) const {
  // Two figures of one name would write one JSON key twice, the second silently winning.
  if (find(name)) throw std::logic_error("statistics: " + name_ + "." + name + " registered twice");
}

StatGroup& StatGroup::counter(std::string name, StatUnit unit, std::string description,
                              uint64_t& value) {
  check_new(name);
  figures_.push_back({std::move(name), unit, std::move(description), &value, {}});
  return *this;
}

StatGroup& StatGroup::derived(std::string name, StatUnit unit, std::string description,
                              std::function<std::optional<double>()> value) {
  check_new(name);
  figures_.push_back({std::move(name), unit, std::move(description), nullptr, std::move(value)});
  return *this;
}

const Figure* StatGroup::find(std::string_view name) const {
  for (const Figure& f : figures_)
    if (f.name == name) return &f;
  return nullptr;
}

void StatGroup::reset() {
  for (Figure& f : figures_)
    if (f.counter) *f.counter = 0;
}

StatGroup& Statistics::group(const std::string& name) {
  for (StatGroup& g : groups_)
    if (g.name() == name) return g;
  return groups_.emplace_back(name);
}

const StatGroup* Statistics::find(std::string_view name) const {
  for (const StatGroup& g : groups_)
    if (g.name() == name) return &g;
  return nullptr;
}

void Statistics::reset() {
  for (StatGroup& g : groups_) g.reset();
}

}  // namespace ssd
