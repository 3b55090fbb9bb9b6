#pragma once
// Figures a module owns, each registered once with its name, unit and description, so that
// the writers (report.json, the check of docs/report.md) walk them instead of copying each by
// hand: a new figure is added where its counter lives. The counters stay the owner's plain
// integers, read only when walked; registration happens when the owner is built.
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ssd {

// As docs/report.md's tables spell them (to_string).
enum class StatUnit : uint8_t {
  None,
  Pages,
  Blocks,
  Merges,
  Reads,
  Lookups,
  Units,
  Writes,
  Commands,
  Seconds
};
const char* to_string(StatUnit unit);

struct Figure {
  // The owner's counter or total, or a value derived from them (nullopt: undefined, written
  // as null).
  using Source = std::variant<uint64_t*, double*, std::function<std::optional<double>()>>;
  std::string name;
  StatUnit unit;
  std::string description;
  Source value;
};

// The figures of one report object ("merges", "gc", ...), in registration order.
class StatGroup {
 public:
  explicit StatGroup(std::string name) : name_(std::move(name)) {}
  const std::string& name() const { return name_; }
  // Each throws std::logic_error if the group already has a figure of that name.
  StatGroup& counter(std::string name, StatUnit unit, std::string description, uint64_t& value);
  StatGroup& total(std::string name, StatUnit unit, std::string description, double& value);
  StatGroup& derived(std::string name, StatUnit unit, std::string description,
                     std::function<std::optional<double>()> value);
  const std::vector<Figure>& figures() const { return figures_; }
  const Figure* find(std::string_view name) const;
  void reset();  // zeroes the counters and totals

 private:
  void add(std::string name, StatUnit unit, std::string description, Figure::Source value);
  std::string name_;
  std::vector<Figure> figures_;
};

// A module's groups, in the order they were first named.
class Statistics {
 public:
  StatGroup& group(const std::string& name);  // created on first use
  const StatGroup* find(std::string_view name) const;
  const std::deque<StatGroup>& groups() const { return groups_; }
  void reset();

 private:
  std::deque<StatGroup> groups_;  // a deque: group() references stay valid
};

}  // namespace ssd
