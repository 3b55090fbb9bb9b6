#include "tb/run/Waveform.h"

#include <cstdint>
#include <string_view>

#include "common/Errors.h"

namespace ssd::tb {
namespace po = boost::program_options;

namespace {

constexpr const char* kWindow = "vcd-window";
constexpr const char* kSignals = "vcd-signals";

[[noreturn]] void bad_window(const std::string& text, const std::string& why) {
  throw UsageError(std::string("--") + kWindow + ": " + why + ", got \"" + text +
                   "\" (expected START:END such as 10ms:20ms, units s, ms, us, ns, ps)");
}

// A decimal time with a unit ("1.5ms"; a bare number is seconds) in whole picoseconds.
uint64_t parse_time_ps(std::string_view t, const std::string& text) {
  struct Unit {
    const char* name;
    uint64_t ps;
  };
  static constexpr Unit kUnits[] = {
      {"ps", 1}, {"ns", 1000}, {"us", 1000000}, {"ms", 1000000000}, {"s", 1000000000000}};
  uint64_t scale = 1000000000000;  // seconds
  for (const Unit& u : kUnits) {
    const std::size_t n = std::strlen(u.name);
    if (t.size() > n && t.substr(t.size() - n) == u.name) {
      scale = u.ps;
      t.remove_suffix(n);
      break;
    }
  }
  const std::size_t dot = t.find('.');
  const std::string_view whole = t.substr(0, dot);
  const std::string_view frac = dot == std::string_view::npos ? "" : t.substr(dot + 1);
  const auto digits = [](std::string_view d) {
    return d.find_first_not_of("0123456789") == std::string_view::npos;
  };
  if (t.empty() || (whole.empty() && frac.empty()) || !digits(whole) || !digits(frac))
    bad_window(text, "not a time");
  uint64_t ps = 0;
  for (char c : whole) {
    if (ps > (UINT64_MAX - 9) / 10) bad_window(text, "time too large");
    ps = ps * 10 + uint64_t(c - '0');
  }
  if (ps > UINT64_MAX / scale) bad_window(text, "time too large");
  ps *= scale;
  // The fraction must come to whole picoseconds: the VCD's timescale.
  uint64_t place = scale;
  for (char c : frac) {
    const uint64_t d = uint64_t(c - '0');
    if (place % 10 != 0) {
      if (d != 0) bad_window(text, "finer than 1 ps");
      continue;
    }
    place /= 10;
    ps += d * place;
  }
  return ps;
}

}  // namespace

po::options_description waveform_options() {
  po::options_description o("Waveform options");
  // One option per line:
  // clang-format off
  o.add_options()
      ("vcd", "also write DIR/current.vcd: supply current of every component, in mA")
      ("fst", "also write DIR/current.fst: the same waveforms in GTKWave's compressed format "
       "(written by GTKWave's vcd2fst, the VCD streamed into it)")
      ("vcd-window", po::value<std::string>(),
       "START:END: only the simulated time [START, END) in the VCD/FST, e.g. 10ms:20ms "
       "(units s, ms, us, ns, ps; a bare number is seconds; START or END may be left out)")
      ("vcd-signals", po::value<std::string>(),
       "PATTERN[,PATTERN...]: only the signals whose name a glob matches, e.g. 'ch3.*,drive_total' "
       "(names: components as in report.json, rail_<name>, drive_total)");
  // clang-format on
  return o;
}

void parse_window(const std::string& text, model::VcdWriter::Selection& sel) {
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) bad_window(text, "no ':'");
  const std::string_view start = std::string_view(text).substr(0, colon);
  const std::string_view end = std::string_view(text).substr(colon + 1);
  sel.start_ps = start.empty() ? 0 : parse_time_ps(start, text);
  sel.end_ps = end.empty() ? UINT64_MAX : parse_time_ps(end, text);
  if (sel.end_ps <= sel.start_ps) bad_window(text, "END must be after START");
}

WaveformOptions waveform_options(const po::variables_map& vm) {
  WaveformOptions w;
  w.vcd = vm.count("vcd") > 0;
  w.fst = vm.count("fst") > 0;
  for (const char* option : {kWindow, kSignals})
    if (vm.count(option) && !w.vcd && !w.fst)
      throw UsageError(std::string("--") + option + ": applies only with --vcd or --fst");
  if (vm.count(kWindow)) parse_window(vm[kWindow].as<std::string>(), w.selection);
  if (vm.count(kSignals)) {
    const std::string& text = vm[kSignals].as<std::string>();
    std::size_t from = 0;
    while (true) {
      const std::size_t comma = text.find(',', from);
      const std::string p = text.substr(from, comma - from);
      if (p.empty())
        throw UsageError(std::string("--") + kSignals + ": an empty pattern, got \"" + text + "\"");
      w.selection.patterns.push_back(p);
      if (comma == std::string::npos) break;
      from = comma + 1;
    }
  }
  return w;
}

}  // namespace ssd::tb
