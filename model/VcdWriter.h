#pragma once
// current.vcd: one real-valued signal per component (its supply current in mA), one per input
// rail and the drive's total supply current, timescale 1 ps. Written directly rather than through
// sc_trace because transitions are known (and committed) after the simulation time has passed them.
//
// Values are rounded to whole nanoamps and printed as exact decimals of mA ("r180.5"), so
// writing one is integer formatting into a large buffer, and a change that does not move the
// rounded value is not written. A window keeps only the changes in [start, end) of simulated
// time, the values at start as $dumpvars; a selection keeps only the signals it names.
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
  // "rail_<name>" per rail and "drive_total" (in the file each gets the suffix "_ma").
  // With a thermal model, "temp_<node>" per node follows (in the file with the suffix "_c").
  static std::vector<std::string> signal_names(const std::vector<std::string>& component_names,
                                               const std::vector<std::string>& rail_names,
                                               const std::vector<std::string>& node_names = {});
  // Throws ssd::UsageError naming `option` when a pattern matches none of `names`.
  static void check_patterns(const std::vector<std::string>& patterns,
                             const std::vector<std::string>& names, const std::string& option);

  // Writes `path` (empty: no file) and streams the same bytes into `fd` (-1: none; the
  // caller's, left open: a socket to vcd2fst). A stream whose reader has gone is dropped: the
  // reader's exit status tells why.
  VcdWriter(const std::string& path, int fd, Selection selection);
  // Declares the signals: dotted names become VCD scopes. Call once, before any change.
  // Rails are (name, initial current) and become rail_<name>_ma.
  // Thermal nodes are (name, initial temperature in C) and become temp_<name>_c.
  void declare(const std::vector<std::string>& component_names,
               const std::vector<double>& initial_ma,
               const std::vector<std::pair<std::string, double>>& rails, double initial_drive_ma,
               const std::vector<std::pair<std::string, double>>& nodes = {});
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
    set(t_ps, drive_ + 1 + node, celsius);
  }
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
  struct Signal {
    std::string id;       // empty: not selected
    bool writes = false;  // selected, and not another signal's alias
    int64_t na = 0;       // the value at the last change kept
    std::array<Line, 2> recent{};
    uint8_t replace = 0;  // the one of recent the next new line takes
  };
  void set(uint64_t t_ps, std::size_t signal, double current_ma);
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
  std::size_t drive_ = 0;  // the drive total's signal; thermal nodes follow it
  bool dumped_ = false;    // $dumpvars written: changes after it go out as they come
  uint64_t last_stamp_ = UINT64_MAX;
  std::vector<char> buf_;
  std::size_t used_ = 0;
};

}  // namespace ssd::model
