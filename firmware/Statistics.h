#pragma once
// Figures a module owns, each registered once with its name, unit and description, so that
// the writers (report.json, the check of docs/report.md) walk them instead of copying each by
// hand: a new figure is added where its counter lives. The counters stay the owner's plain
// integers, read only when walked; registration happens when the owner is built.
#include <cstddef>
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
  Seconds,
  Bytes,
  MegabytesPerSecond
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

// A counter declared where it is counted: a constant at namespace scope in the owner's .cpp
// names its group, name, unit and meaning, the owner's Statistics holds its value (add() in
// the constructor, then ++statistics[key]). A new figure so touches that one file, and the
// docs' table. Each key gets a small number of its own, so finding its counter costs an index.
class StatKey {
 public:
  StatKey(std::string group, std::string name, StatUnit unit, std::string description);
  StatKey(const StatKey&) = delete;
  StatKey& operator=(const StatKey&) = delete;
  const std::string group;
  const std::string name;
  const StatUnit unit;
  const std::string description;
  const std::size_t id;
};

// A module's groups, in the order they were first named. Its figures point at counters (the
// owner's, or its own for keys): not copyable.
class Statistics {
 public:
  Statistics() = default;
  Statistics(const Statistics&) = delete;
  Statistics& operator=(const Statistics&) = delete;
  StatGroup& group(const std::string& name);  // created on first use
  const StatGroup* find(std::string_view name) const;
  const std::deque<StatGroup>& groups() const { return groups_; }
  // Registers the counter of `key`, at zero, in its group; throws std::logic_error if the
  // group already has a figure of that name.
  void add(const StatKey& key);
  // The counter of `key`; throws std::logic_error if `key` was not added.
  uint64_t& operator[](const StatKey& key) {
    if (key.id >= by_key_.size() || !by_key_[key.id]) unknown(key);
    return *by_key_[key.id];
  }
  void reset();
  // The counters' and totals' values, in walk order: work that must not count (a replay) puts
  // them back after it.
  struct Snapshot {
    std::vector<uint64_t> counters;
    std::vector<double> totals;
  };
  Snapshot snapshot() const;
  void restore(const Snapshot& values);

 private:
  [[noreturn]] static void unknown(const StatKey& key);
  std::deque<StatGroup> groups_;  // a deque: group() references stay valid
  std::deque<uint64_t> held_;     // the keys' counters (a deque: they do not move)
  std::vector<uint64_t*> by_key_;
};

}  // namespace ssd
