#include "config/DriveConfig.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <utility>

#include "common/DidYouMean.h"
#include "common/Errors.h"
#include "common/InputFile.h"
#include "common/JsonDepth.h"
#include "config/ModelMemory.h"

namespace ssd::config {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// Page numbers are 32-bit in the firmware; the all-ones value is reserved as "no page".
constexpr uint64_t kMaxPages = std::numeric_limits<uint32_t>::max() - 1ULL;

// Over-provisioning is applied in millionths (rounded to nearest), so capacities are exact
// integers whatever the binary rounding of the fraction: 0.1 becomes exactly 100000 ppm, where
// the double 0.1 would make 10 x 0.9 come out just below 9.
constexpr uint64_t kPpm = 1000000;
uint64_t to_ppm(double fraction) { return static_cast<uint64_t>(std::llround(fraction * kPpm)); }
// floor(n * ppm / 1e6); exact for n below 2^44 (a validated drive has fewer than 2^32 pages).
uint64_t scale_floor(uint64_t n, uint64_t ppm) { return n * ppm / kPpm; }

std::string format_number(double x) {
  std::ostringstream s;
  s << std::setprecision(15) << x;
  return s.str();
}

// "string \"50us\"", "number 2.5", "array": what a wrong value was, for error messages.
std::string describe(const json& v) {
  if (v.is_structured() || v.is_null()) return v.type_name();
  std::string text = v.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return std::string(v.type_name()) + " " + text;
}

[[noreturn]] void fail(const std::string& origin, const std::string& path,
                       const std::string& reason) {
  throw ConfigError(origin + ": " + path + ": " + reason);
}

// Accepted range of a numeric field; an open end excludes its bound.
struct Bounds {
  double lo = -std::numeric_limits<double>::infinity();
  bool lo_open = false;
  double hi = std::numeric_limits<double>::infinity();
  bool hi_open = false;

  bool contains(double x) const {
    return (lo_open ? x > lo : x >= lo) && (hi_open ? x < hi : x <= hi);
  }
  std::string rule() const {
    if (std::isinf(hi)) {
      return (lo_open ? "must be greater than " : "must be at least ") + format_number(lo);
    }
    return std::string("must be in ") + (lo_open ? "(" : "[") + format_number(lo) + ", " +
           format_number(hi) + (hi_open ? ")" : "]");
  }
};
constexpr Bounds at_least(double lo) { return Bounds{lo}; }
constexpr Bounds up_to(double hi) { return Bounds{0.0, false, hi, false}; }
constexpr Bounds positive_up_to(double hi) { return Bounds{0.0, true, hi, false}; }
constexpr Bounds between(double lo, double hi) { return Bounds{lo, false, hi, false}; }

// Upper bounds of what a drive can physically be. Beyond them the model's arithmetic (integer
// nanowatts, picosecond times) would overflow long before the figure meant anything; values
// that are merely unusual (a 100 V rail) are accepted and the run warns about its power.
constexpr Bounds kVoltage = positive_up_to(1e4);  // V: no drive electronics run on more
constexpr Bounds kCurrent = up_to(1e5);           // mA: 100 A per component
constexpr Bounds kStepTime = up_to(1e6);          // us: no single step takes a second
constexpr Bounds kPositiveStepTime = positive_up_to(1e6);
constexpr Bounds kIdleTime = up_to(3.6e9);  // us: an hour
constexpr Bounds kPower = up_to(1e5);       // mW: 100 W per unit
// Below 1 ns a window is shorter than any state the model holds; above an hour one row
// averages away everything the series is for.
constexpr Bounds kWindow = between(1e-3, 3.6e9);  // us
// Every component at its highest current together: the drive-level sum is kept in integer
// nanowatts (int64), exact up to about 9e9 W; a megawatt is far beyond any drive.
constexpr double kMaxDrivePowerW = 1e6;

enum class Presence { kOptional, kRequired };

// Reads one JSON object of the config. Each visited key is type-checked, range-checked and
// stored (an absent key leaves the struct's default); keys nobody visited are errors.
class Reader {
 public:
  Reader(const json& obj, std::string path, const std::string& origin)
      : obj_(obj), path_(std::move(path)), origin_(origin) {
    if (!obj_.is_object()) {
      fail(path_.empty() ? "(top level)" : path_, "expected an object, got " + describe(obj_));
    }
  }

  void operator()(const char* key, std::string& out, Presence presence = Presence::kOptional) {
    const json* v = find(key);
    if (v == nullptr) {
      if (presence == Presence::kRequired) fail(path_of(key), "required key is missing");
      return;
    }
    out = as_string(*v, path_of(key));
  }

  void operator()(const char* key, bool& out) {
    const json* v = find(key);
    if (v == nullptr) return;
    if (!v->is_boolean()) fail(path_of(key), "expected a boolean, got " + describe(*v));
    out = v->get<bool>();
  }

  void operator()(const char* key, double& out, Bounds bounds,
                  Presence presence = Presence::kOptional) {
    const json* v = find(key);
    if (v == nullptr) {
      if (presence == Presence::kRequired) fail(path_of(key), "required key is missing");
      return;
    }
    if (!v->is_number()) fail(path_of(key), "expected a number, got " + describe(*v));
    out = checked(path_of(key), v->get<double>(), bounds);
  }

  void operator()(const char* key, uint32_t& out, Bounds bounds = {}) {
    read_unsigned(key, out, bounds);
  }
  void operator()(const char* key, uint64_t& out, Bounds bounds,
                  Presence presence = Presence::kOptional) {
    read_unsigned(key, out, bounds, presence);
  }

  // A choice (config/Choices.h): one of its names.
  template <class E, std::enable_if_t<std::is_enum_v<E>, int> = 0>
  void operator()(const char* key, E& out) {
    const json* v = find(key);
    if (v == nullptr) return;
    const std::string name = as_string(*v, path_of(key));
    if (const std::optional<E> value = parse_choice<E>(name)) {
      out = *value;
      return;
    }
    std::vector<std::string> known;
    for (const auto& entry : Choice<E>::kNames) known.emplace_back(entry.second);
    fail(path_of(key), std::string("unknown ") + Choice<E>::kWhat + " \"" + name +
                           "\" (known: " + known_names<E>() + ")" + did_you_mean(name, known));
  }

  void operator()(const char* key, std::vector<double>& out, Bounds bounds) {
    const json* v = find(key);
    if (v == nullptr) return;
    const std::string path = path_of(key);
    if (!v->is_array()) fail(path, "expected an array of numbers, got " + describe(*v));
    out.clear();
    for (size_t i = 0; i < v->size(); ++i) {
      const std::string item = path + "[" + std::to_string(i) + "]";
      if (!(*v)[i].is_number()) fail(item, "expected a number, got " + describe((*v)[i]));
      out.push_back(checked(item, (*v)[i].get<double>(), bounds));
    }
  }

  void operator()(const char* key, std::vector<std::string>& out) {
    const json* v = find(key);
    if (v == nullptr) return;
    out = as_string_array(*v, path_of(key), "an array of strings");
  }

  // A key an earlier version had: its presence is an error naming the replacement.
  void replaced(const char* key, const char* by) {
    if (find(key) != nullptr) fail(path_of(key), std::string("replaced by ") + by);
  }

  // Free-form commentary: checked for shape, then dropped.
  void ignored(const char* key) {
    const json* v = find(key);
    if (v != nullptr && !v->is_string()) {
      as_string_array(*v, path_of(key), "a string or an array of strings");
    }
  }

  template <class Section, class Visit>
  void section(const char* key, Section& out, Visit visit) {
    const json* v = find(key);
    if (v == nullptr) return;
    Reader sub(*v, path_of(key), origin_);
    visit(out, sub);
    sub.reject_unvisited_keys();
  }

  // An array of objects, each read like a section; `min_items` is the fewest allowed.
  template <class Item, class Visit>
  void list(const char* key, std::vector<Item>& out, std::size_t min_items, Visit visit) {
    const json* v = find(key);
    if (v == nullptr) return;
    const std::string path = path_of(key);
    if (!v->is_array()) fail(path, "expected an array of objects, got " + describe(*v));
    if (v->size() < min_items)
      fail(path, "needs at least " + std::to_string(min_items) +
                     (min_items == 1 ? " entry" : " entries"));
    out.clear();
    for (size_t i = 0; i < v->size(); ++i) {
      Reader sub((*v)[i], path + "[" + std::to_string(i) + "]", origin_);
      visit(out.emplace_back(), sub);
      sub.reject_unvisited_keys();
    }
  }

  void reject_unvisited_keys() const {
    for (const auto& item : obj_.items()) {
      if (visited_.count(item.key()) == 0)
        fail(path_of(item.key()), "unknown key" + did_you_mean(item.key(), visited_));
    }
  }

 private:
  // Marks the key as known; nullptr when the document leaves it out.
  const json* find(const std::string& key) {
    visited_.insert(key);
    const auto it = obj_.find(key);
    return it == obj_.end() ? nullptr : &*it;
  }

  std::string path_of(const std::string& key) const {
    return path_.empty() ? key : path_ + "." + key;
  }

  [[noreturn]] void fail(const std::string& path, const std::string& reason) const {
    config::fail(origin_, path, reason);
  }

  std::string as_string(const json& v, const std::string& path) const {
    if (!v.is_string()) fail(path, "expected a string, got " + describe(v));
    return v.get<std::string>();
  }

  std::vector<std::string> as_string_array(const json& v, const std::string& path,
                                           const std::string& expected) const {
    if (!v.is_array()) fail(path, "expected " + expected + ", got " + describe(v));
    std::vector<std::string> out;
    for (size_t i = 0; i < v.size(); ++i) {
      out.push_back(as_string(v[i], path + "[" + std::to_string(i) + "]"));
    }
    return out;
  }

  double checked(const std::string& path, double x, const Bounds& bounds) const {
    if (!bounds.contains(x)) fail(path, bounds.rule());
    return x;
  }

  template <class T>
  void read_unsigned(const char* key, T& out, const Bounds& bounds,
                     Presence presence = Presence::kOptional) {
    const json* v = find(key);
    if (v == nullptr) {
      if (presence == Presence::kRequired) fail(path_of(key), "required key is missing");
      return;
    }
    const std::string path = path_of(key);
    if (!v->is_number_integer()) fail(path, "expected an integer, got " + describe(*v));
    if (!v->is_number_unsigned() && v->get<int64_t>() < 0) {
      fail(path, "expected a non-negative integer, got " + describe(*v));
    }
    const uint64_t n = v->get<uint64_t>();
    if (n > std::numeric_limits<T>::max()) {
      fail(path, "must be at most " + std::to_string(std::numeric_limits<T>::max()) + ", got " +
                     describe(*v));
    }
    checked(path, static_cast<double>(n), bounds);
    out = static_cast<T>(n);
  }

  const json& obj_;
  std::string path_;
  const std::string& origin_;
  std::set<std::string> visited_;
};

// Writes the visited fields into an ordered object, in visiting order.
class Writer {
 public:
  explicit Writer(ordered_json& out) : out_(out) {}

  template <class T, class... Rule>
  void operator()(const char* key, const T& value, Rule...) {
    out_[key] = value;
  }
  template <class E, std::enable_if_t<std::is_enum_v<E>, int> = 0>
  void operator()(const char* key, const E& value) {
    out_[key] = to_string(value);
  }
  void ignored(const char*) {}
  void replaced(const char*, const char*) {}

  template <class Section, class Visit>
  void section(const char* key, const Section& in, Visit visit) {
    ordered_json sub = ordered_json::object();
    Writer writer(sub);
    visit(in, writer);
    out_[key] = std::move(sub);
  }

  template <class Item, class Visit>
  void list(const char* key, const std::vector<Item>& in, std::size_t, Visit visit) {
    ordered_json items = ordered_json::array();
    for (const Item& item : in) {
      ordered_json sub = ordered_json::object();
      Writer writer(sub);
      visit(item, writer);
      items.push_back(std::move(sub));
    }
    out_[key] = std::move(items);
  }

 private:
  ordered_json& out_;
};

// Lists the dotted path of every key the field tables hold (a list's item keys as
// `key[i].item`), for the docs check.
class KeyLister {
 public:
  KeyLister(std::vector<std::string>& out, std::string prefix)
      : out_(out), prefix_(std::move(prefix)) {}

  template <class T, class... Rule>
  void operator()(const char* key, const T&, Rule...) {
    out_.push_back(prefix_ + key);
  }
  void ignored(const char* key) { out_.push_back(prefix_ + key); }
  void replaced(const char*, const char*) {}

  template <class Section, class Visit>
  void section(const char* key, const Section& in, Visit visit) {
    KeyLister sub(out_, prefix_ + key + ".");
    visit(in, sub);
  }

  template <class Item, class Visit>
  void list(const char* key, const std::vector<Item>&, std::size_t, Visit visit) {
    out_.push_back(prefix_ + key);
    KeyLister sub(out_, prefix_ + key + "[i].");
    const Item item{};
    visit(item, sub);
  }

 private:
  std::vector<std::string>& out_;
  std::string prefix_;
};

// The field tables: key names, the members they fill, and each field's range. Reader, Writer
// and KeyLister walk them, so parsing, to_json and the docs check cannot disagree on the
// layout.
template <class State, class V>
void visit_link_state(State& s, V& v) {
  v("name", s.name, Presence::kRequired);  // a short identifier: validate()
  v("p_mw", s.p_mw, up_to(1e5), Presence::kRequired);
  v("idle_us", s.idle_us, kIdleTime, Presence::kRequired);  // positive: validate()
  v("t_entry_us", s.t_entry_us, kStepTime, Presence::kRequired);
  v("t_exit_us", s.t_exit_us, kStepTime, Presence::kRequired);
  v("source", s.source, Presence::kRequired);
}

template <class Host, class V>
void visit_host(Host& h, V& v) {
  v("interface", h.interface);
  v("link_mb_per_s", h.link_mb_per_s, positive_up_to(1e6));  // 1 TB/s
  v("full_duplex", h.full_duplex);
  v("queue_depth", h.queue_depth, Bounds{1, false, 65535, false});
  v("voltage_v", h.voltage_v, kVoltage);
  v("i_transfer_ma", h.i_transfer_ma, kCurrent);
  v("i_idle_ma", h.i_idle_ma, kCurrent);
  v.list("link_states", h.link_states, 0, [](auto& s, auto& sv) { visit_link_state(s, sv); });
  v.list("queues", h.queues, 0, [](auto& q, auto& qv) {
    qv("depth", q.depth, Bounds{1, false, 65536, false});
    qv("priority", q.priority);
  });
  v("arbitration", h.arbitration);
  v("arbitration_burst", h.arbitration_burst, between(0, 128));  // a power of two: validate()
  v.section("wrr_weights", h.wrr_weights, [](auto& w, auto& wv) {
    wv("high", w.high, between(1, 256));
    wv("medium", w.medium, between(1, 256));
    wv("low", w.low, between(1, 256));
  });
  v("t_sq_fetch_ns", h.t_sq_fetch_ns, up_to(1e9));
  v("sq_fetch_gap_ns", h.sq_fetch_gap_ns, up_to(1e9));
  v("t_cq_post_ns", h.t_cq_post_ns, up_to(1e9));
  v("t_interrupt_ns", h.t_interrupt_ns, up_to(1e9));
}

template <class Controller, class V>
void visit_controller(Controller& c, V& v) {
  v("t_cmd_issue_us", c.t_cmd_issue_us, kStepTime);
  v("t_fw_per_cmd_us", c.t_fw_per_cmd_us, kStepTime);
  v("t_fw_per_page_us", c.t_fw_per_page_us, kStepTime);
  v("voltage_v", c.voltage_v, kVoltage);
  v("i_active_ma", c.i_active_ma, kCurrent);
  v("i_idle_ma", c.i_idle_ma, kCurrent);
  v("scheduler_policy", c.scheduler_policy);
  v("host_first", c.host_first);
  v("suspend_for_reads", c.suspend_for_reads);
  v("block_order", c.block_order);
  v("issue_order", c.issue_order);
}

template <class Part, class V>
void visit_dram_part(Part& p, V& v) {
  v("name", p.name, Presence::kRequired);
  v("size_mb", p.size_mb, between(1, 1 << 20), Presence::kRequired);
  v("i_active_ma", p.i_active_ma, kCurrent, Presence::kRequired);
  v("i_idle_ma", p.i_idle_ma, kCurrent, Presence::kRequired);
  v("t_access_ns", p.t_access_ns, positive_up_to(1e9), Presence::kRequired);
  v("source", p.source, Presence::kRequired);
}

template <class Dram, class V>
void visit_dram(Dram& d, V& v) {
  v("size_mb", d.size_mb, between(1, 1 << 20));          // up to 1 TiB
  v("t_access_ns", d.t_access_ns, positive_up_to(1e9));  // a second
  v("access_bytes", d.access_bytes, between(1, 4096));
  v("write_buffer_mb", d.write_buffer_mb, between(0, 1 << 20));          // fits size_mb: validate()
  v("burst_mb_per_s", d.burst_mb_per_s, positive_up_to(1e6));            // 1 TB/s
  v("write_buffer_idle_us", d.write_buffer_idle_us, between(0, 3.6e9));  // an hour
  v("voltage_v", d.voltage_v, kVoltage);
  v("i_active_ma", d.i_active_ma, kCurrent);
  v("i_idle_ma", d.i_idle_ma, kCurrent);
  v.list("parts", d.parts, 0, [](auto& p, auto& pv) { visit_dram_part(p, pv); });
  v.section("self_refresh", d.self_refresh, [](auto& s, auto& sv) {
    sv("enabled", s.enabled);
    sv("idle_us", s.idle_us, kIdleTime);  // positive when enabled: validate()
    sv("t_entry_us", s.t_entry_us, kStepTime);
    sv("t_exit_us", s.t_exit_us, kStepTime);
    sv("i_self_refresh_ma", s.i_self_refresh_ma, kCurrent);
  });
}

template <class Flash, class V>
void visit_flash(Flash& f, V& v) {
  v("channels", f.channels, at_least(1));
  v("ways_per_channel", f.ways_per_channel, at_least(1));
  v("dies_per_way", f.dies_per_way, at_least(1));
  v("planes_per_die", f.planes_per_die, at_least(1));
  v("blocks_per_plane", f.blocks_per_plane, at_least(1));
  v("pages_per_block", f.pages_per_block, at_least(2));
  v("page_bytes", f.page_bytes, between(512, 1 << 20));  // multiple of 512: checked in validate()
  v("bus_ns_per_byte", f.bus_ns_per_byte, positive_up_to(1e6));
  v("t_read_us", f.t_read_us, kPositiveStepTime);
  v("t_prog_us", f.t_prog_us, kPositiveStepTime);
  v("t_erase_us", f.t_erase_us, kPositiveStepTime);
  v("voltage_v", f.voltage_v, kVoltage);
  v("i_read_ma", f.i_read_ma, kCurrent);
  v("i_prog_ma", f.i_prog_ma, kCurrent);
  v("i_erase_ma", f.i_erase_ma, kCurrent);
  v("i_transfer_ma", f.i_transfer_ma, kCurrent);
  v("i_idle_ma", f.i_idle_ma, kCurrent);
  v("i_off_ma", f.i_off_ma, kCurrent);
  v("t_oob_read_us", f.t_oob_read_us, kPositiveStepTime);
  v("i_oob_read_ma", f.i_oob_read_ma, kCurrent);
  v("oob_bytes", f.oob_bytes, between(1, 1 << 16));
  v("bus_voltage_v", f.bus_voltage_v, kVoltage);
  v("i_bus_ma", f.i_bus_ma, kCurrent);
  v("idle_policy", f.idle_policy);
  v("cell_type", f.cell_type);
  v("t_read_by_page_type_us", f.t_read_by_page_type_us, kPositiveStepTime);
  v("t_prog_by_page_type_us", f.t_prog_by_page_type_us, kPositiveStepTime);
  v("t_read_slc_us", f.t_read_slc_us, kPositiveStepTime);
  v("t_prog_slc_us", f.t_prog_slc_us, kPositiveStepTime);
  v("t_suspend_us", f.t_suspend_us, kStepTime);
  v("t_resume_us", f.t_resume_us, kStepTime);
  v("cache_program", f.cache_program);
  v("multiplane", f.multiplane);
  v("multiplane_same_block", f.multiplane_same_block);
  v("multiplane_wait_us", f.multiplane_wait_us, kStepTime);
  v("i_read_multiplane_ma", f.i_read_multiplane_ma, kCurrent);
  v("i_prog_multiplane_ma", f.i_prog_multiplane_ma, kCurrent);
  v("i_erase_multiplane_ma", f.i_erase_multiplane_ma, kCurrent);
  v.section("die_power_down", f.die_power_down, [](auto& s, auto& sv) {
    sv("enabled", s.enabled);
    sv("scope", s.scope);
    sv("idle_us", s.idle_us, kIdleTime);  // positive when enabled: validate()
    sv("t_wake_us", s.t_wake_us, kStepTime);
  });
}

template <class Ftl, class V>
void visit_ftl(Ftl& f, V& v) {
  v("type", f.type);
  v("allocation", f.allocation);
  v("overprovisioning", f.overprovisioning, Bounds{0.0, false, 0.9, true});
  v("mapping_unit_bytes", f.mapping_unit_bytes, between(0, 1 << 20));  // divides a page: validate()
  v("gc_threshold_blocks", f.gc_threshold_blocks, at_least(2));
  v("gc_mode", f.gc_mode);
  v("gc_soft_blocks", f.gc_soft_blocks, between(1, 1 << 20));  // above the threshold: validate()
  v("gc_copies_per_write", f.gc_copies_per_write, between(0, 1 << 20));
  v("gc_policy", f.gc_policy);
  v("gc_window_fraction", f.gc_window_fraction, Bounds{0.0, true, 1.0, false});
  v("background_gc", f.background_gc);
  v("bg_gc_idle_us", f.bg_gc_idle_us, kIdleTime);
  v("wear_leveling", f.wear_leveling);
  v("wl_threshold_erases", f.wl_threshold_erases, at_least(1));
  v("map_cache_bytes", f.map_cache_bytes, between(1, 0x1p40));  // 1 TiB
  v("log_block_fraction", f.log_block_fraction, Bounds{0.0, true, 0.5, true});
  v("last_seq_log_blocks", f.last_seq_log_blocks, at_least(1));
  v("last_hot_fraction", f.last_hot_fraction, Bounds{0.0, true, 1.0, true});
  v("block_update", f.block_update);
  v("slc_cache_blocks_per_plane", f.slc_cache_blocks_per_plane, between(0, 1 << 20));
  v("slc_fold", f.slc_fold);
  v("slc_fold_idle_us", f.slc_fold_idle_us, kIdleTime);
  v("size_dram_from_table", f.size_dram_from_table);
}

template <class Lifetime, class V>
void visit_lifetime(Lifetime& l, V& v) {
  v("mode", l.mode);
  v("epoch_s", l.epoch_s, between(1e-3, 3.6e5));  // up to 100 hours
  v("warranty_years", l.warranty_years, Bounds{0.0, true, 100.0, false});
  v("pe_cycles", l.pe_cycles, between(1, 1e7));
  v("chunk_pages", l.chunk_pages, between(1, 8));
  v("t_compress_us", l.t_compress_us, kStepTime);
  v("p_compress_mw", l.p_compress_mw, kPower);
  v("t_decompress_us", l.t_decompress_us, kStepTime);
  v("t_hash_us", l.t_hash_us, kStepTime);
  v("p_hash_mw", l.p_hash_mw, kPower);
  v("t_write_us", l.t_write_us, kPositiveStepTime);
  v("p_write_mw", l.p_write_mw, Bounds{0.0, true, 1e5, false});
}

template <class Rail, class V>
void visit_rail(Rail& r, V& v) {
  v("name", r.name, Presence::kRequired);  // a short identifier: validate()
  v("voltage_v", r.voltage_v, kVoltage);
  v("i_baseline_ma", r.i_baseline_ma, kCurrent);
}

template <class Regulator, class V>
void visit_regulator(Regulator& r, V& v) {
  v("rail", r.rail);  // names a rail: validate()
  v("efficiency", r.efficiency, positive_up_to(1));
  v("currents_at", r.currents_at);
}

template <class Regulators, class V>
void visit_regulators(Regulators& r, V& v) {
  const auto one = [](auto& s, auto& sv) { visit_regulator(s, sv); };
  v.section("host_interface", r.host_interface, one);
  v.section("controller", r.controller, one);
  v.section("dram", r.dram, one);
  v.section("channel", r.channel, one);
  v.section("nand", r.nand, one);
}

template <class Power, class V>
void visit_power(Power& p, V& v) {
  v.replaced("drive_voltage_v", "power.rails[0].voltage_v (the main rail)");
  v.list("rails", p.rails, 1, [](auto& s, auto& sv) { visit_rail(s, sv); });
  v.section("regulators", p.regulators, [](auto& s, auto& sv) { visit_regulators(s, sv); });
  v("window_us", p.window_us, kWindow);
  v("peak_windows_us", p.peak_windows_us, kWindow);  // increasing: validate()
  v("current_levels_ma", p.current_levels_ma, Bounds{0.0, true, 1e9, false});  // increasing
}

template <class Budget, class V>
void visit_power_budget(Budget& b, V& v) {
  v("enabled", b.enabled);
  v("max_power_w", b.max_power_w, up_to(kMaxDrivePowerW));
  v("max_current_ma", b.max_current_ma, up_to(1e9));
}

template <class Node, class V>
void visit_thermal_node(Node& n, V& v) {
  v("r_k_per_w", n.r_k_per_w, positive_up_to(1e6));
  v("c_j_per_k", n.c_j_per_k, positive_up_to(1e9));
}

template <class Throttle, class V>
void visit_throttle(Throttle& t, V& v) {
  v("action", t.action);
  v("t_on_c", t.t_on_c, between(-273.15, 1000));
  v("t_off_c", t.t_off_c, between(-273.15, 1000));  // below t_on_c: validate()
  v("max_power_w", t.max_power_w, up_to(kMaxDrivePowerW));
  v("max_active_dies", t.max_active_dies, at_least(1));
}

template <class Thermal, class V>
void visit_thermal(Thermal& t, V& v) {
  const auto node = [](auto& s, auto& sv) { visit_thermal_node(s, sv); };
  v("enabled", t.enabled);
  v("ambient_c", t.ambient_c, between(-273.15, 1000));
  v("nand_nodes", t.nand_nodes);
  v.section("controller", t.controller, node);
  v.section("nand", t.nand, node);
  v("sample_us", t.sample_us, Bounds{1.0, false, 3.6e9, false});  // 1 us to an hour
  v.section("throttle", t.throttle, [](auto& s, auto& sv) { visit_throttle(s, sv); });
}

template <class Drive, class V>
void visit_drive(Drive& d, V& v) {
  v("name", d.name, Presence::kRequired);
  v("description", d.description);
  v("sources", d.sources);
  v.ignored("notes");
  v.section("host", d.host, [](auto& s, auto& sv) { visit_host(s, sv); });
  v.section("controller", d.controller, [](auto& s, auto& sv) { visit_controller(s, sv); });
  v.section("dram", d.dram, [](auto& s, auto& sv) { visit_dram(s, sv); });
  v.section("flash", d.flash, [](auto& s, auto& sv) { visit_flash(s, sv); });
  v.section("ftl", d.ftl, [](auto& s, auto& sv) { visit_ftl(s, sv); });
  v.section("power", d.power, [](auto& s, auto& sv) { visit_power(s, sv); });
  v.section("power_budget", d.power_budget, [](auto& s, auto& sv) { visit_power_budget(s, sv); });
  v.section("thermal", d.thermal, [](auto& s, auto& sv) { visit_thermal(s, sv); });
  v.section("lifetime", d.lifetime, [](auto& s, auto& sv) { visit_lifetime(s, sv); });
}

// Limits that keep the report and the power analyser's work per transition small.
constexpr std::size_t kMaxRails = 8;
constexpr std::size_t kMaxPeakWindows = 8;
constexpr std::size_t kMaxCurrentLevels = 32;

// At most `max_entries`, each above the one before.
void check_increasing(const std::string& origin, const std::string& path,
                      const std::vector<double>& values, std::size_t max_entries) {
  if (values.size() > max_entries)
    fail(origin, path,
         "has " + std::to_string(values.size()) + " entries; at most " +
             std::to_string(max_entries));
  for (std::size_t i = 1; i < values.size(); ++i)
    if (!(values[i] > values[i - 1]))
      fail(origin, path + "[" + std::to_string(i) + "]",
           "must be greater than the entry before (" + format_number(values[i - 1]) + ")");
}

void validate_power(const DriveConfig& c, const std::string& origin) {
  const PowerConfig& p = c.power;
  if (p.rails.size() > kMaxRails)
    fail(origin, "power.rails",
         "has " + std::to_string(p.rails.size()) + " rails; at most " + std::to_string(kMaxRails));
  std::string names;
  for (std::size_t i = 0; i < p.rails.size(); ++i) {
    const std::string& n = p.rails[i].name;
    const std::string path = "power.rails[" + std::to_string(i) + "].name";
    // It becomes part of a VCD signal name and a report key.
    const bool word = !n.empty() && n.size() <= 16 && std::all_of(n.begin(), n.end(), [](char ch) {
      return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
    });
    if (!word)
      fail(origin, path, "must be 1 to 16 characters of a-z, 0-9 and _, got \"" + n + "\"");
    for (std::size_t j = 0; j < i; ++j)
      if (p.rails[j].name == n) fail(origin, path, "\"" + n + "\" names two rails");
    names += (names.empty() ? "" : ", ") + n;
  }
  for (const auto& [group, reg] : p.regulators.by_group()) {
    if (p.rail_index(reg->rail) == p.rails.size())
      fail(origin, std::string("power.regulators.") + group + ".rail",
           "no rail named \"" + reg->rail + "\" (rails: " + names + ")");
    // A current measured at the rail already holds the regulator's loss.
    if (reg->currents_at == CurrentsAt::Rail && reg->efficiency != 1.0)
      fail(origin, std::string("power.regulators.") + group + ".efficiency",
           "must be 1 with currents_at \"rail\": a current measured at the rail already "
           "includes the regulator's loss (got " +
               format_number(reg->efficiency) + ")");
  }
  check_increasing(origin, "power.peak_windows_us", p.peak_windows_us, kMaxPeakWindows);
  check_increasing(origin, "power.current_levels_ma", p.current_levels_ma, kMaxCurrentLevels);
}

void validate_budget_and_thermal(const DriveConfig& c, const std::string& origin) {
  const PowerBudgetConfig& b = c.power_budget;
  if (b.enabled && (b.max_power_w > 0) == (b.max_current_ma > 0))
    fail(origin, "power_budget.max_power_w",
         "set exactly one of power_budget.max_power_w and power_budget.max_current_ma "
         "(above 0) when power_budget.enabled is true");
  const ThermalConfig& t = c.thermal;
  if (!(t.throttle.t_off_c < t.throttle.t_on_c))
    fail(origin, "thermal.throttle.t_off_c",
         "must be below thermal.throttle.t_on_c (" + format_number(t.throttle.t_on_c) +
             "): the hysteresis band");
  if (t.throttle.action == ThrottleAction::PowerBudget && !(t.throttle.max_power_w > 0))
    fail(origin, "thermal.throttle.max_power_w", "the power_budget action needs a cap above 0");
  if (t.throttle.action != ThrottleAction::None && !t.enabled)
    fail(origin, "thermal.throttle.action", "throttling needs thermal.enabled true");
}

// At most as many link states as the model has (model::PowerState::Low1..Low3).
constexpr std::size_t kMaxLinkStates = 3;

// SATA has one NCQ queue of up to 32 commands; NVMe queues are arbitrated (NVMe base spec,
// "Command Arbitration": a burst of 2^n commands, or no limit).
void validate_host(const HostConfig& h, const std::string& origin) {
  const uint32_t b = h.arbitration_burst;
  if (b != 0 && (b & (b - 1)) != 0)
    fail(origin, "host.arbitration_burst",
         "must be a power of two up to 128, or 0 for no limit, got " + std::to_string(b));
  if (h.interface == HostProtocol::Sata) {
    if (h.queue_depth > 32)
      fail(origin, "host.queue_depth",
           "SATA NCQ holds at most 32 commands, got " + std::to_string(h.queue_depth));
    if (h.queues.size() > 1)
      fail(origin, "host.queues",
           "SATA has one command queue, got " + std::to_string(h.queues.size()));
  }
}

void validate_low_power(const DriveConfig& c, const std::string& origin) {
  const std::vector<LinkStateConfig>& states = c.host.link_states;
  if (states.size() > kMaxLinkStates)
    fail(origin, "host.link_states",
         "has " + std::to_string(states.size()) + " states; at most " +
             std::to_string(kMaxLinkStates));
  for (std::size_t i = 0; i < states.size(); ++i) {
    const std::string path = "host.link_states[" + std::to_string(i) + "]";
    const std::string& n = states[i].name;
    // It becomes a report key.
    const bool word = !n.empty() && n.size() <= 16 && std::all_of(n.begin(), n.end(), [](char ch) {
      return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
    });
    if (!word)
      fail(origin, path + ".name",
           "must be 1 to 16 characters of a-z, 0-9 and _, got \"" + n + "\"");
    for (std::size_t j = 0; j < i; ++j)
      if (states[j].name == n) fail(origin, path + ".name", "\"" + n + "\" names two states");
    if (!(states[i].idle_us > 0)) fail(origin, path + ".idle_us", "must be positive");
    if (states[i].source.empty())
      fail(origin, path + ".source", "must name where the figures come from");
  }
  if (c.dram.self_refresh.enabled && !(c.dram.self_refresh.idle_us > 0))
    fail(origin, "dram.self_refresh.idle_us", "must be positive when self-refresh is enabled");
  const DiePowerDownConfig& down = c.flash.die_power_down;
  if (down.enabled && !(down.idle_us > 0))
    fail(origin, "flash.die_power_down.idle_us", "must be positive when power-down is enabled");
  if (down.enabled && c.flash.idle_policy == NandIdlePolicy::OffWhenIdle)
    fail(origin, "flash.die_power_down.enabled",
         "is a policy of its own: it cannot be combined with flash.idle_policy off_when_idle");
}

// Rules that involve more than one field's range; runs after every field is in range.
// The flash geometry and its address space, the mapping unit, per-page-type times.
void validate_geometry(const DriveConfig& c, const std::string& origin) {
  const FlashConfig& f = c.flash;
  if (f.page_bytes < 512 || f.page_bytes % 512 != 0) {
    fail(origin, "flash.page_bytes", "must be a multiple of 512 and at least 512");
  }
  // In double so no factor can overflow; exact while it matters (below 2^53), and every
  // factor is at least 1, so a product within the limit also keeps dies() and
  // blocks_per_die() within uint32.
  const double pages = double(f.channels) * f.ways_per_channel * f.dies_per_way * f.planes_per_die *
                       f.blocks_per_plane * f.pages_per_block;
  if (pages > double(kMaxPages)) {
    char count[32];
    std::snprintf(count, sizeof count, "%.0f", pages);
    fail(origin, "flash",
         std::string(count) + " pages exceed the 32-bit page address space (at most " +
             std::to_string(kMaxPages) + ")");
  }
  const uint32_t unit = c.ftl.mapping_unit_bytes;
  if (unit != 0) {
    const std::string page = std::to_string(f.page_bytes);
    if (unit % 512 != 0 || f.page_bytes % unit != 0)
      fail(origin, "ftl.mapping_unit_bytes",
           "must be a multiple of 512 that divides flash.page_bytes (" + page + "), got " +
               std::to_string(unit));
    if (f.page_bytes / unit > kMaxUnitsPerPage)
      fail(origin, "ftl.mapping_unit_bytes",
           "a " + page + "-byte page would hold more than " + std::to_string(kMaxUnitsPerPage) +
               " units of " + std::to_string(unit) + " bytes");
    if (pages * (f.page_bytes / unit) > double(kMaxPages))
      fail(origin, "ftl.mapping_unit_bytes",
           "the drive's pages hold more units than the 32-bit address space (at most " +
               std::to_string(kMaxPages) + ")");
    // Units smaller than a page are packed by the page-level FTLs' allocation; the block and
    // log-block FTLs map whole pages (or blocks) (docs/ftl.md#mapping-units).
    if (unit < f.page_bytes && c.ftl.type != FtlType::Page && c.ftl.type != FtlType::Dftl)
      fail(origin, "ftl.mapping_unit_bytes",
           "units smaller than the page (" + page + " bytes) need ftl.type page or dftl");
  }

  for (const auto& [key, times] :
       {std::pair{"flash.t_read_by_page_type_us", &f.t_read_by_page_type_us},
        std::pair{"flash.t_prog_by_page_type_us", &f.t_prog_by_page_type_us}}) {
    if (!times->empty() && times->size() != f.bits_per_cell())
      fail(origin, key,
           "has " + std::to_string(times->size()) + " entries; a " +
               std::string(to_string(f.cell_type)) + " cell has " +
               std::to_string(f.bits_per_cell()) + " page types (or leave it out)");
  }
  if (f.multiplane && f.planes_per_die < 2)
    fail(origin, "flash.multiplane", "needs planes_per_die of at least 2");
}

// The DRAM: room for the mapping table beside the write buffer; the parts catalogue.
void validate_dram(const DriveConfig& c, const std::string& origin) {
  const FlashConfig& f = c.flash;
  if (c.dram.write_buffer_mb >= c.dram.size_mb)
    fail(origin, "dram.write_buffer_mb",
         "must leave room for the mapping table in dram.size_mb (" +
             std::to_string(c.dram.size_mb) + ")");
  if (c.dram.write_buffer_mb > 0 && (c.dram.write_buffer_mb << 20) < f.page_bytes)
    fail(origin, "dram.write_buffer_mb", "holds less than one flash page");

  std::set<std::string> part_names;
  for (size_t i = 0; i < c.dram.parts.size(); ++i) {
    const DramPart& p = c.dram.parts[i];
    const std::string path = "dram.parts[" + std::to_string(i) + "]";
    if (p.name.empty()) fail(origin, path + ".name", "must not be empty");
    if (!part_names.insert(p.name).second)
      fail(origin, path + ".name", "\"" + p.name + "\" names two parts");
    if (p.source.empty()) fail(origin, path + ".source", "must name where the figures come from");
  }
  if (c.ftl.size_dram_from_table && c.dram.parts.empty())
    fail(origin, "ftl.size_dram_from_table", "needs at least one part in dram.parts");
}

// Every component at its highest current together stays within what the sums can hold.
void validate_peak_power(const DriveConfig& c, const std::string& origin) {
  const FlashConfig& f = c.flash;
  // In W: mA x V / 1000. The DRAM may be any part of the catalogue.
  double dram_ma =
      std::max({c.dram.i_active_ma, c.dram.i_idle_ma, c.dram.self_refresh.i_self_refresh_ma});
  for (const DramPart& p : c.dram.parts) dram_ma = std::max({dram_ma, p.i_active_ma, p.i_idle_ma});
  const double flash_ma =
      std::max({f.i_read_ma, f.i_prog_ma, f.i_erase_ma, f.i_transfer_ma, f.i_idle_ma, f.i_off_ma,
                f.i_read_multiplane_ma, f.i_prog_multiplane_ma, f.i_erase_multiplane_ma});
  double host_ma = std::max(c.host.i_transfer_ma, c.host.i_idle_ma);
  for (const LinkStateConfig& l : c.host.link_states)
    host_ma = std::max(host_ma, l.p_mw / c.host.voltage_v);
  const RegulatorsConfig& reg = c.power.regulators;
  double baseline_mw = 0;
  for (const RailConfig& r : c.power.rails) baseline_mw += r.voltage_v * r.i_baseline_ma;
  const DriveConfig at = referred_to_rails(c);  // the voltages the currents are drawn at
  const double max_power_w =
      (at.host.voltage_v * host_ma / reg.host_interface.efficiency +
       at.controller.voltage_v * std::max(c.controller.i_active_ma, c.controller.i_idle_ma) /
           reg.controller.efficiency +
       at.dram.voltage_v * dram_ma / reg.dram.efficiency +
       double(f.dies()) * at.flash.voltage_v * flash_ma / reg.nand.efficiency +
       double(f.channels) * at.flash.bus_voltage_v * f.i_bus_ma / reg.channel.efficiency +
       baseline_mw) /
      1000;
  if (max_power_w > kMaxDrivePowerW) {
    fail(origin, "(voltages and currents)",
         "with every component at its highest current the drive would draw " +
             format_number(max_power_w) + " W; at most " + format_number(kMaxDrivePowerW) +
             " W can be modelled (the power sums are integer nanowatts)");
  }
}

// What each FTL takes: options of the page-level FTLs, the block FTL's, the lifetime manager's.
void validate_ftl(const DriveConfig& c, const std::string& origin) {
  const FlashConfig& f = c.flash;
  const FtlConfig& ftl = c.ftl;
  // LAST's sequential log blocks come out of each die's blocks, with its random ones.
  if (ftl.type == FtlType::Last && ftl.last_seq_log_blocks >= f.blocks_per_die()) {
    fail(origin, "ftl.last_seq_log_blocks",
         "must be less than the " + std::to_string(f.blocks_per_die()) + " blocks per die, got " +
             std::to_string(ftl.last_seq_log_blocks));
  }
  // Victim policies, background GC and static wear levelling belong to the page-level FTLs'
  // GC (docs/ftl.md); elsewhere they would silently do nothing.
  if (ftl.type != FtlType::Page && ftl.type != FtlType::Dftl) {
    if (ftl.gc_policy != GcPolicy::Greedy)
      fail(origin, "ftl.gc_policy", "only the page and dftl FTLs choose GC victims by policy");
    if (ftl.background_gc)
      fail(origin, "ftl.background_gc", "only the page and dftl FTLs have background GC");
    if (ftl.gc_mode != GcMode::Foreground)
      fail(origin, "ftl.gc_mode", "only the page and dftl FTLs collect incrementally");
    if (ftl.wear_leveling != WearLeveling::None)
      fail(origin, "ftl.wear_leveling", "static wear levelling is for the page and dftl FTLs");
    if (ftl.allocation != Allocation::ChannelFirst)
      fail(origin, "ftl.allocation", "only the page and dftl FTLs choose an allocation order");
    if (ftl.slc_cache_blocks_per_plane != 0)
      fail(origin, "ftl.slc_cache_blocks_per_plane",
           "only the page and dftl FTLs keep an SLC cache");
  }
  if (ftl.block_update != BlockUpdate::Replacement && ftl.type != FtlType::Block)
    fail(origin, "ftl.block_update", "only the block FTL (ftl.type block) takes it");
  // The manager keeps its own level of mapping above a page-mapped FTL and handles whole host
  // commands; pages in a write buffer would reach it without their content.
  if (c.lifetime.enabled() && ftl.type != FtlType::Page && ftl.type != FtlType::Dftl)
    fail(origin, "lifetime.mode", "needs ftl.type page or dftl");
  if (c.lifetime.enabled() && c.dram.write_buffer_mb != 0)
    fail(origin, "lifetime.mode", "needs dram.write_buffer_mb 0 (no write buffer)");
  if (ftl.slc_cache_blocks_per_plane != 0) {
    if (f.bits_per_cell() == 1)
      fail(origin, "ftl.slc_cache_blocks_per_plane",
           "an SLC cache needs flash.cell_type mlc, tlc or qlc");
    if (f.pages_per_block % f.bits_per_cell() != 0)
      fail(origin, "ftl.slc_cache_blocks_per_plane",
           "flash.pages_per_block " + std::to_string(f.pages_per_block) +
               " is not a whole number of " + to_string(f.cell_type) + " word lines (" +
               std::to_string(f.bits_per_cell()) + " pages each)");
  }
}

void validate_gc_room(const DriveConfig& c, const std::string& origin) {
  const FlashConfig& f = c.flash;
  const FtlConfig& ftl = c.ftl;
  // GC keeps gc_threshold_blocks free per die, plus the open host-write blocks (one, or one
  // per plane under plane_first and die_first), the block GC copies into and for dftl the
  // open translation block; all come out of the hidden blocks.
  const uint64_t spare = scale_floor(f.blocks_per_die(), to_ppm(ftl.overprovisioning));
  const uint64_t host_open = ftl.allocation == Allocation::ChannelFirst ? 1 : f.planes_per_die;
  const uint64_t open = host_open + (ftl.type == FtlType::Dftl ? 2 : 1);
  const uint64_t slc = uint64_t(ftl.slc_cache_blocks_per_plane) * f.planes_per_die;
  const bool incremental = ftl.gc_mode == GcMode::Incremental;
  if (incremental && ftl.gc_soft_blocks <= ftl.gc_threshold_blocks)
    fail(origin, "ftl.gc_soft_blocks",
         "the soft watermark must be above gc_threshold_blocks (" +
             std::to_string(ftl.gc_threshold_blocks) + "), got " +
             std::to_string(ftl.gc_soft_blocks));
  // Incremental collection keeps the die near the soft watermark: its free blocks too.
  const uint64_t kept = incremental ? ftl.gc_soft_blocks : ftl.gc_threshold_blocks;
  const uint64_t needed = kept + open + slc;
  if (spare < needed) {
    std::string why;
    if (host_open > 1)
      why = "ftl.allocation " + std::string(to_string(ftl.allocation)) +
            " keeps a host block open on each of the " + std::to_string(host_open) + " planes";
    if (ftl.type == FtlType::Dftl)
      why += (why.empty() ? "" : "; ") + std::string("dftl keeps a translation block open too");
    if (slc != 0)
      why += (why.empty() ? "" : "; ") + std::string("the SLC cache takes ") + std::to_string(slc) +
             " blocks per die";
    fail(origin, "ftl.overprovisioning",
         format_number(ftl.overprovisioning) + " leaves " + std::to_string(spare) +
             " spare blocks per die (floor(" + std::to_string(f.blocks_per_die()) + " x " +
             format_number(ftl.overprovisioning) + ")); garbage collection needs at least " +
             (incremental ? "gc_soft_blocks" : "gc_threshold_blocks") + " + " +
             std::to_string(open + slc) + " = " + std::to_string(needed) +
             (why.empty() ? "" : " (" + why + ")"));
  }
}

void validate(const DriveConfig& c, const std::string& origin) {
  validate_geometry(c, origin);
  validate_dram(c, origin);
  validate_power(c, origin);
  validate_budget_and_thermal(c, origin);
  validate_host(c.host, origin);
  validate_low_power(c, origin);
  validate_peak_power(c, origin);
  validate_ftl(c, origin);
  validate_gc_room(c, origin);
}

// nlohmann counts the bytes it read up to and including the offending one; turn that into
// the 1-based line and column of that byte (just past the end for a truncated document).
std::pair<size_t, size_t> line_column(const std::string& text, size_t bytes_read) {
  const size_t at = std::clamp<size_t>(bytes_read, 1, text.size() + 1);
  const std::string_view before(text.data(), at - 1);
  const size_t line = 1 + std::count(before.begin(), before.end(), '\n');
  const size_t last_newline = before.rfind('\n');
  const size_t column = last_newline == std::string_view::npos ? at : at - 1 - last_newline;
  return {line, column};
}

}  // namespace

DriveConfig referred_to_rails(const DriveConfig& cfg) {
  DriveConfig out = cfg;
  const RegulatorsConfig& reg = cfg.power.regulators;
  const auto refer = [&](const RegulatorConfig& r, double& voltage_v) {
    if (r.currents_at == CurrentsAt::Rail)
      voltage_v = cfg.power.rails.at(cfg.power.rail_index(r.rail)).voltage_v;
  };
  refer(reg.host_interface, out.host.voltage_v);
  refer(reg.controller, out.controller.voltage_v);
  refer(reg.dram, out.dram.voltage_v);
  refer(reg.channel, out.flash.bus_voltage_v);
  refer(reg.nand, out.flash.voltage_v);
  return out;
}

std::size_t PowerConfig::rail_index(const std::string& name) const {
  std::size_t r = 0;
  while (r < rails.size() && rails[r].name != name) ++r;
  return r;
}

uint32_t FlashConfig::bits_per_cell() const {
  return uint32_t(cell_type) + 1;  // CellType lists slc, mlc, tlc, qlc in order
}

// floor(total_pages * (1 - overprovisioning)) in integers: the fraction is taken in
// millionths, rounded to nearest, and the division rounds down to whole pages.
uint64_t DriveConfig::logical_pages() const {
  return scale_floor(flash.total_pages(), kPpm - to_ppm(ftl.overprovisioning));
}

DriveConfig parse_drive_config(const nlohmann::json& doc, const std::string& origin) {
  DriveConfig cfg;
  Reader reader(doc, "", origin);
  visit_drive(cfg, reader);
  reader.reject_unvisited_keys();
  validate(cfg, origin);
  check_model_fits(cfg, origin, physical_memory_bytes());
  return cfg;
}

nlohmann::json read_config_json(const std::string& path) {
  const std::string text = read_regular_file<ConfigError>(path);
  json doc;
  try {
    doc = json::parse(text, json_depth_limit<ConfigError>(path));
  } catch (const json::parse_error& e) {
    const auto [line, column] = line_column(text, e.byte);
    // what() is "[json.exception...] parse error at <where>: <reason>"; keep the reason.
    const std::string what = e.what();
    const size_t colon = what.find(": ");
    const std::string reason = colon == std::string::npos ? what : what.substr(colon + 2);
    throw ConfigError(path + ":" + std::to_string(line) + ":" + std::to_string(column) +
                      ": invalid JSON: " + reason);
  } catch (const json::exception& e) {
    // Well-formed but out of range, e.g. a number beyond a double (1e400); nlohmann gives no
    // position for these.
    throw ConfigError(path + ": invalid JSON: " + e.what());
  }
  return doc;
}

DriveConfig load_drive_config(const std::string& path) {
  return parse_drive_config(read_config_json(path), path);
}

nlohmann::ordered_json to_json(const DriveConfig& cfg) {
  ordered_json out = ordered_json::object();
  Writer writer(out);
  visit_drive(cfg, writer);
  return out;
}

std::vector<std::string> config_keys() {
  std::vector<std::string> keys;
  KeyLister lister(keys, "");
  const DriveConfig defaults;
  visit_drive(defaults, lister);
  return keys;
}

}  // namespace ssd::config
