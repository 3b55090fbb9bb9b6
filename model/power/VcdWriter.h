#pragma once
// current.vcd: one real-valued signal per component (its supply current in mA), one per input
// rail and the drive's total supply current, timescale 1 ps. Written directly rather than through
// sc_trace because transitions are known (and committed) after the simulation time has passed them.
//
// Values are rounded to whole nanoamps and printed as exact decimals of mA ("r180.5"), so
// writing one is integer formatting into a large buffer, and a change that does not move the
// rounded value is not written. A window keeps only the changes in [start, end) of simulated
// time, the values at start as $dumpvars; a selection keeps only the signals it names.
//
// Probes are figures their owner sets at times the model has passed (the timeline's, per
// interval: "timeline.read_iops", ...), each in the scope its dotted name gives, with its unit
// in its name, written to the millionth like a current to the nanoamp.
//
// A group of components (a channel: its bus "ch3" and its dies "ch3.w1d0", ...) also gets its
// power, "ch3.power" in mW: its members' currents as written times their voltages (to the mV),
// summed exactly, so a closed group in GTKWave still shows what the channel draws. Power, not
// current: a channel's bus and dies run at different voltages. And how many of the components
// below its name are busy (out of their rest states), "ch3.busy": a channel's dies at work, so
// on a drive of many dies a closed group shows its channel's parallelism as a number; and, for
// a group of dies, how many of them read, program and erase ("ch3.reading", "ch3.programming",
// "ch3.erasing": multi-plane and spare-area work included; the rest of busy is transferring).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/AtomicFile.h"

namespace ssd::model {

class VcdWriter {
 public:
  struct Selection {
    uint64_t start_ps = 0;
    uint64_t end_ps = UINT64_MAX;
    // fnmatch(3) globs on signal_names(); empty: every signal.
    std::vector<std::string> patterns;
  };

  // The names the selection's patterns match: the component names ("ch0.w1d0"), then
  // "rail_<name>" per rail and "drive_total" (in the file each with the suffix "_ma"), then
  // "<group>.power" per group of two or more components (a name and the names below it: "ch0",
  // "ch0.w0d0", ...; suffix "_mw"), then "<group>.busy" per group (no suffix: a count), then
  // "<group>.reading", ".programming", ".erasing" per group with a die below its name (`dies`:
  // which components are; no suffix). With a thermal model, "temp_<node>" per node follows
  // (suffix "_c"), then the probes (no suffix).
  static std::vector<std::string> signal_names(const std::vector<std::string>& component_names,
                                               const std::vector<bool>& dies,
                                               const std::vector<std::string>& rail_names,
                                               const std::vector<std::string>& node_names = {},
                                               const std::vector<std::string>& probe_names = {});
  // Throws ssd::UsageError naming `option` when a pattern matches none of `names`.
  static void check_patterns(const std::vector<std::string>& patterns,
                             const std::vector<std::string>& names, const std::string& option);

  // Writes `path` (empty: no file) and streams the same bytes into `fd` (-1: none; the
  // caller's, left open: a socket to vcd2fst). A stream whose reader has gone is dropped: the
  // reader's exit status tells why.
  VcdWriter(const std::string& path, int fd, Selection selection);
  // Declares the signals: dotted names become VCD scopes. Call once, before any change.
  // `voltage_v`: each component's supply voltage, for its group's power; `dies`: which
  // components are dies, for their groups' counts by activity. Rails are (name,
  // initial current) and become rail_<name>_ma.
  // Thermal nodes are (name, initial temperature in C) and become temp_<name>_c. Probes start
  // at 0.
  void declare(const std::vector<std::string>& component_names, const std::vector<bool>& dies,
               const std::vector<double>& initial_ma, const std::vector<double>& voltage_v,
               const std::vector<std::pair<std::string, double>>& rails, double initial_drive_ma,
               const std::vector<std::pair<std::string, double>>& nodes = {},
               const std::vector<std::string>& probes = {});
  // Changes come in time order.
  void change(uint64_t t_ps, uint32_t component, double current_ma) {
    set(t_ps, component, current_ma);
  }
  void change_rail(uint64_t t_ps, uint32_t rail, double current_ma) {
    set(t_ps, components_ + rail, current_ma);
  }
  void change_drive(uint64_t t_ps, double current_ma) { set(t_ps, drive_, current_ma); }
  // A thermal node's temperature, written to the micro-kelvin like currents to the nanoamp.
  void change_temperature(uint64_t t_ps, uint32_t node, double celsius) {
    set(t_ps, nodes_ + node, celsius);
  }
  void change_probe(uint64_t t_ps, uint32_t probe, double value) {
    set(t_ps, probes_ + probe, value);
  }
  // What a component does, for its group's counts: nothing (at rest), or a die's reading,
  // programming or erasing, or other work (a transfer, a core's).
  enum class Activity : uint8_t { Rest, Read, Program, Erase, Other };
  // A component's activity changed: its group's counts.
  void change_activity(uint64_t t_ps, uint32_t component, Activity activity);
  void finish(uint64_t end_ps);

 private:
  // A line as written ('r', value, ' ', id, '\n'), kept to be copied: a component moves
  // between a few currents, so most of its lines repeat one of its last two.
  static constexpr std::size_t kKeptLineBytes = 31;  // a longer line is not kept
  struct Line {
    int64_t na = 0;
    uint8_t size = 0;  // 0: none
    std::array<char, kKeptLineBytes> text{};
  };
  static constexpr uint32_t kNoGroup = UINT32_MAX;
  struct Signal {
    std::string id;                     // empty: not selected
    bool writes = false;                // selected, and not another signal's alias
    int64_t na = 0;                     // the value at the last change kept
    uint32_t group_power = kNoGroup;    // a member's: its group's power signal, if that is selected
    int64_t mv = 0;                     // a member's: its voltage in mV
    uint32_t group_busy = kNoGroup;     // a member below its group's name: the group's busy count
    uint32_t group_reading = kNoGroup;  // a die's: its group's reading count (then programming,
                                        // erasing)
    Activity activity = Activity::Rest;  // such a member's
    int64_t pw = 0;                      // a group's power, picowatts (na holds it in nanowatts)
    bool pending = false;                // a group's: a member changed at pending_t_
    int64_t shown = 0;                   // a group's: the value last written
    std::array<Line, 2> recent{};
    uint8_t replace = 0;  // the one of recent the next new line takes
  };
  // Each group's name and members (component indices), in the order the groups first appear.
  using Groups = std::vector<std::pair<std::string, std::vector<std::size_t>>>;
  static Groups groups_of(const std::vector<std::string>& component_names);
  void set(uint64_t t_ps, std::size_t signal, double current_ma);
  void add_to_power(uint64_t t_ps, uint32_t total, int64_t delta_pw);
  void write_powers();
  void dump_initial(uint64_t t_ps);
  void stamp(uint64_t t_ps);
  void line(Signal& s);
  void text(const std::string& s);
  void reserve(std::size_t bytes);
  void flush();
  void write_out(const char* p, std::size_t n);

  std::optional<AtomicFile> file_;
  int fd_;
  Selection sel_;
  std::vector<Signal> signals_;  // components, rails, drive total
  std::size_t components_ = 0;
  std::size_t drive_ = 0;          // the drive total's signal; the groups' powers follow it
  std::size_t busy_ = 0;           // the first group's busy count, after the powers
  std::size_t activities_ = 0;     // the first group's reading count, after the busy counts
  std::size_t nodes_ = 0;          // the first thermal node's signal
  std::size_t probes_ = 0;         // the first probe's signal
  std::vector<uint32_t> pending_;  // totals whose members changed at pending_t_
  uint64_t pending_t_ = 0;
  bool dumped_ = false;  // $dumpvars written: changes after it go out as they come
  uint64_t last_stamp_ = UINT64_MAX;
  std::vector<char> buf_;
  std::size_t used_ = 0;
};

}  // namespace ssd::model
