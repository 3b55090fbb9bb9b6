#include "firmware/Statistics.h"

#include <stdexcept>

namespace ssd {

const char* to_string(StatUnit unit) {
  switch (unit) {
    case StatUnit::None:
      return "-";
    case StatUnit::Pages:
      return "pages";
    case StatUnit::Blocks:
      return "blocks";
    case StatUnit::Merges:
      return "merges";
    case StatUnit::Reads:
      return "reads";
    case StatUnit::Lookups:
      return "look-ups";
    case StatUnit::Units:
      return "units";
    case StatUnit::Writes:
      return "writes";
    case StatUnit::Commands:
      return "commands";
    case StatUnit::Seconds:
      return "s";
    case StatUnit::Bytes:
      return "bytes";
    case StatUnit::MegabytesPerSecond:
      return "MB/s";
  }
  return "?";
}

void StatGroup::add(std::string name, StatUnit unit, std::string description,
                    Figure::Source value) {
  // Two figures of one name would write one JSON key twice, the second silently winning.
  if (find(name)) throw std::logic_error("statistics: " + name_ + "." + name + " registered twice");
  figures_.push_back({std::move(name), unit, std::move(description), std::move(value)});
}

StatGroup& StatGroup::counter(std::string name, StatUnit unit, std::string description,
                              uint64_t& value) {
  add(std::move(name), unit, std::move(description), &value);
  return *this;
}

StatGroup& StatGroup::total(std::string name, StatUnit unit, std::string description,
                            double& value) {
  add(std::move(name), unit, std::move(description), &value);
  return *this;
}

StatGroup& StatGroup::derived(std::string name, StatUnit unit, std::string description,
                              std::function<std::optional<double>()> value) {
  add(std::move(name), unit, std::move(description), std::move(value));
  return *this;
}

const Figure* StatGroup::find(std::string_view name) const {
  for (const Figure& f : figures_)
    if (f.name == name) return &f;
  return nullptr;
}

void StatGroup::reset() {
  for (Figure& f : figures_) {
    if (auto* c = std::get_if<uint64_t*>(&f.value)) **c = 0;
    if (auto* t = std::get_if<double*>(&f.value)) **t = 0;
  }
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

StatKey::StatKey(std::string group_name, std::string figure, StatUnit figure_unit,
                 std::string meaning)
    : group(std::move(group_name)),
      name(std::move(figure)),
      unit(figure_unit),
      description(std::move(meaning)),
      id([] {
        // Keys are built during static initialisation, each once: a function's static counts
        // them whatever the order of the files.
        static std::size_t next = 0;
        return next++;
      }()) {}

void Statistics::add(const StatKey& key) {
  uint64_t& value = held_.emplace_back(0);
  group(key.group).counter(key.name, key.unit, key.description, value);
  if (key.id >= by_key_.size()) by_key_.resize(key.id + 1, nullptr);
  by_key_[key.id] = &value;
}

void Statistics::unknown(const StatKey& key) {
  throw std::logic_error("statistics: " + key.group + "." + key.name + " counted but not added");
}

void Statistics::reset() {
  for (StatGroup& g : groups_) g.reset();
}

Statistics::Snapshot Statistics::snapshot() const {
  Snapshot s;
  for (const StatGroup& g : groups_)
    for (const Figure& f : g.figures()) {
      if (const auto* c = std::get_if<uint64_t*>(&f.value)) s.counters.push_back(**c);
      if (const auto* t = std::get_if<double*>(&f.value)) s.totals.push_back(**t);
    }
  return s;
}

void Statistics::restore(const Snapshot& values) {
  std::size_t c = 0, t = 0;
  for (const StatGroup& g : groups_)
    for (const Figure& f : g.figures()) {
      if (const auto* counter = std::get_if<uint64_t*>(&f.value))
        **counter = values.counters.at(c++);
      if (const auto* total = std::get_if<double*>(&f.value)) **total = values.totals.at(t++);
    }
}

}  // namespace ssd
