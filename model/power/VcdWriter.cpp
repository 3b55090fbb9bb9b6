#include "model/power/VcdWriter.h"

#include <fnmatch.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/Errors.h"

namespace ssd::model {
namespace {

// VCD identifiers: printable ASCII 33..126, shortest first.
std::string vcd_id(std::size_t n) {
  std::string id;
  do {
    id.push_back(char(33 + n % 94));
    n /= 94;
  } while (n != 0);
  return id;
}

// Flushed to the file in chunks this large: few write calls however many changes.
constexpr std::size_t kBufferBytes = 1 << 20;
// More than one line needs: '#', 20 digits and '\n'; or 'r', sign, 19 digits, '.', ' ', an id.
constexpr std::size_t kLineBytes = 64;
constexpr uint64_t kNaPerMa = 1000000;

// Nearest nanoamp, halves away from zero as llround(), without its library call.
int64_t to_na(double ma) {
  const double na = ma * double(kNaPerMa);
  // NOLINTNEXTLINE(bugprone-incorrect-roundings): off by one only for |na| a hair below 0.5
  return na >= 0 ? int64_t(na + 0.5) : -int64_t(0.5 - na);
}

// Picowatts (nA x mV) to the nearest nanowatt, written as mW like a current's nA as mA.
int64_t nw_of(int64_t pw) { return pw >= 0 ? (pw + 500) / 1000 : -((500 - pw) / 1000); }

// `v` in decimal, two digits a step from a table in 32-bit arithmetic, eight digits at a time:
// std::to_chars divides the whole 64-bit value at each step, and a time stamp goes out at
// every time point.
constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";
constexpr uint64_t kEightDigits = 100000000;

// Each of `pairs` (below 100) as two digits.
char* digit_pairs(char* p, std::initializer_list<uint32_t> pairs) {
  for (const uint32_t pair : pairs) {
    std::memcpy(p, &kDigitPairs[2 * pair], 2);
    p += 2;
  }
  return p;
}

char* eight_digits(char* p, uint32_t v) {  // v < 1e8, with its leading zeros
  return digit_pairs(p, {v / 1000000, v / 10000 % 100, v / 100 % 100, v % 100});
}

char* decimal(char* p, uint64_t v) {
  if (v < kEightDigits) return std::to_chars(p, p + 8, uint32_t(v)).ptr;
  if (v / kEightDigits < kEightDigits) {
    p = std::to_chars(p, p + 8, uint32_t(v / kEightDigits)).ptr;
  } else {
    p = std::to_chars(p, p + 4, uint32_t(v / kEightDigits / kEightDigits)).ptr;
    p = eight_digits(p, uint32_t(v / kEightDigits % kEightDigits));
  }
  return eight_digits(p, uint32_t(v % kEightDigits));
}

// A group of dies' counts by activity, in VcdWriter::Activity's order from Read.
constexpr const char* kActivities[] = {"reading", "programming", "erasing"};

bool has_dies(const std::vector<std::size_t>& members, const std::vector<bool>& dies) {
  return std::any_of(members.begin(), members.end(), [&](std::size_t i) { return dies[i]; });
}

bool matches(const std::vector<std::string>& patterns, const std::string& name) {
  if (patterns.empty()) return true;
  return std::any_of(patterns.begin(), patterns.end(), [&](const std::string& p) {
    return ::fnmatch(p.c_str(), name.c_str(), 0) == 0;
  });
}

}  // namespace

VcdWriter::Groups VcdWriter::groups_of(const std::vector<std::string>& component_names) {
  Groups groups;
  const auto group_of = [&](const std::string& group) {
    auto it =
        std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == group; });
    return it != groups.end() ? it : groups.insert(groups.end(), {group, {}});
  };
  // A name with a dot belongs to the group before it; a name without one belongs to its own
  // group if another name is below it.
  std::unordered_set<std::string> parents;
  for (const std::string& name : component_names)
    if (const auto dot = name.find('.'); dot != std::string::npos)
      parents.insert(name.substr(0, dot));
  for (std::size_t i = 0; i < component_names.size(); ++i) {
    const std::string& name = component_names[i];
    const auto dot = name.find('.');
    if (dot != std::string::npos)
      group_of(name.substr(0, dot))->second.push_back(i);
    else if (parents.count(name) != 0)
      group_of(name)->second.push_back(i);
  }
  groups.erase(std::remove_if(groups.begin(), groups.end(),
                              [](const auto& g) { return g.second.size() < 2; }),
               groups.end());
  return groups;
}

std::vector<std::string> VcdWriter::signal_names(const std::vector<std::string>& component_names,
                                                 const std::vector<bool>& dies,
                                                 const std::vector<std::string>& rail_names,
                                                 const std::vector<std::string>& node_names,
                                                 const std::vector<std::string>& probe_names) {
  std::vector<std::string> names = component_names;
  for (const auto& r : rail_names) names.push_back("rail_" + r);
  names.push_back("drive_total");
  const Groups groups = groups_of(component_names);
  for (const auto& g : groups) names.push_back(g.first + ".power");
  for (const auto& g : groups) names.push_back(g.first + ".busy");
  for (const auto& g : groups)
    if (has_dies(g.second, dies))
      for (const char* a : kActivities) names.push_back(g.first + '.' + a);
  for (const auto& n : node_names) names.push_back("temp_" + n);
  names.insert(names.end(), probe_names.begin(), probe_names.end());
  return names;
}

void VcdWriter::check_patterns(const std::vector<std::string>& patterns,
                               const std::vector<std::string>& names, const std::string& option) {
  for (const auto& p : patterns) {
    if (std::any_of(names.begin(), names.end(),
                    [&](const std::string& n) { return matches({p}, n); }))
      continue;
    std::string all;
    for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
    throw UsageError(option + ": \"" + p + "\" matches no signal (the signals: " + all + ")");
  }
}

VcdWriter::VcdWriter(const std::string& path, int fd, Selection selection)
    : fd_(fd), sel_(std::move(selection)), buf_(kBufferBytes) {
  if (!path.empty()) file_.emplace(path);
}

void VcdWriter::declare(const std::vector<std::string>& names, const std::vector<bool>& dies,
                        const std::vector<double>& initial_ma, const std::vector<double>& voltage_v,
                        const std::vector<std::pair<std::string, double>>& rails,
                        double initial_drive_ma,
                        const std::vector<std::pair<std::string, double>>& nodes,
                        const std::vector<std::string>& probes) {
  std::vector<std::string> rail_names, node_names;
  for (const auto& r : rails) rail_names.push_back(r.first);
  for (const auto& n : nodes) node_names.push_back(n.first);
  const std::vector<std::string> all = signal_names(names, dies, rail_names, node_names, probes);
  components_ = names.size();
  drive_ = components_ + rails.size();
  const Groups groups = groups_of(names);
  busy_ = drive_ + 1 + groups.size();
  activities_ = busy_ + groups.size();
  // Each group's first activity count (kNoGroup: none, no die in it).
  std::vector<uint32_t> reading(groups.size(), kNoGroup);
  std::size_t next = activities_;
  for (std::size_t g = 0; g < groups.size(); ++g)
    if (has_dies(groups[g].second, dies)) {
      reading[g] = uint32_t(next);
      next += std::size(kActivities);
    }
  nodes_ = next;
  probes_ = nodes_ + nodes.size();
  signals_.resize(all.size());
  std::size_t next_id = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (!matches(sel_.patterns, all[i])) continue;
    signals_[i].id = vcd_id(next_id++);
    signals_[i].writes = true;
  }
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto total = uint32_t(drive_ + 1 + g), busy = uint32_t(busy_ + g);
    for (std::size_t i : groups[g].second) {
      if (signals_[total].writes) signals_[i].group_power = total;
      if (signals_[busy].writes && names[i].find('.') != std::string::npos)
        signals_[i].group_busy = busy;
      if (dies[i]) signals_[i].group_reading = reading[g];  // dies are below their group's name
    }
  }
  // With one rail the drive's total is that rail's current: both names get one identifier,
  // so each change is written once.
  Signal& drive = signals_[drive_];
  if (rails.size() == 1 && signals_[components_].writes && drive.writes) {
    drive.id = signals_[components_].id;
    drive.writes = false;
  }

  std::string head = "$comment ssdtlm supply currents in mA, to the nA";
  if (!nodes.empty()) head += "; temperatures in C";
  if (!probes.empty()) head += "; probes in the units their names end with";
  head += " $end\n$timescale 1 ps $end\n";
  head += "$scope module ssd $end\n";
  // Group signals by their dotted prefix (one level: "ch3.w1d0" is w1d0 in scope ch3) so
  // GTKWave shows the hardware hierarchy; scopes keep the order components registered in.
  std::vector<std::pair<std::string, std::vector<std::size_t>>> scopes;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (signals_[i].id.empty()) continue;
    auto dot = names[i].rfind('.');
    const std::string scope = dot == std::string::npos ? "" : names[i].substr(0, dot);
    auto it =
        std::find_if(scopes.begin(), scopes.end(), [&](const auto& s) { return s.first == scope; });
    if (it == scopes.end()) it = scopes.insert(scopes.end(), {scope, {}});
    it->second.push_back(i);
  }
  // A group's power and busy count open its scope (GTKWave lists them first), which either opens
  // even if it selects none of the group's components.
  // Its signals below its name: power, busy count, and counts by activity.
  const auto group_signals = [&](std::size_t g) {
    std::vector<std::pair<std::size_t, const char*>> s{{drive_ + 1 + g, "power"},
                                                       {busy_ + g, "busy"}};
    if (reading[g] != kNoGroup)
      for (std::size_t a = 0; a < std::size(kActivities); ++a)
        s.emplace_back(reading[g] + a, kActivities[a]);
    return s;
  };
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto s = group_signals(g);
    if (std::all_of(s.begin(), s.end(),
                    [&](const auto& x) { return signals_[x.first].id.empty(); }))
      continue;
    const std::string& scope = groups[g].first;
    if (std::none_of(scopes.begin(), scopes.end(), [&](const auto& s) { return s.first == scope; }))
      scopes.emplace_back(scope, std::vector<std::size_t>{});
  }
  const auto var = [&](std::size_t i, const std::string& leaf) {
    const char* unit = i >= probes_  ? ""
                       : i >= nodes_ ? "_c"
                       : i >= busy_  ? ""
                       : i > drive_  ? "_mw"
                                     : "_ma";
    head += "$var real 64 " + signals_[i].id + ' ' + leaf + unit + " $end\n";
  };
  for (const auto& [scope, members] : scopes) {
    if (!scope.empty()) head += "$scope module " + scope + " $end\n";
    for (std::size_t g = 0; g < groups.size(); ++g)
      if (groups[g].first == scope)
        for (const auto& [i, leaf] : group_signals(g))
          if (!signals_[i].id.empty()) var(i, leaf);
    for (std::size_t i : members) {
      auto dot = names[i].rfind('.');
      var(i, dot == std::string::npos ? names[i] : names[i].substr(dot + 1));
    }
    if (!scope.empty()) head += "$upscope $end\n";
  }
  for (std::size_t i = names.size(); i < probes_; ++i)
    if (!signals_[i].id.empty() && (i <= drive_ || i >= nodes_)) var(i, all[i]);
  // Probes in the scopes their names give, a scope per run of names that share it.
  std::string open;
  for (std::size_t i = probes_; i < all.size(); ++i) {
    if (signals_[i].id.empty()) continue;
    const auto dot = all[i].rfind('.');
    const std::string scope = dot == std::string::npos ? "" : all[i].substr(0, dot);
    if (scope != open) {
      if (!open.empty()) head += "$upscope $end\n";
      if (!scope.empty()) head += "$scope module " + scope + " $end\n";
      open = scope;
    }
    var(i, dot == std::string::npos ? all[i] : all[i].substr(dot + 1));
  }
  if (!open.empty()) head += "$upscope $end\n";
  head += "$upscope $end\n$enddefinitions $end\n";
  text(head);

  for (std::size_t i = 0; i < names.size(); ++i) signals_[i].na = to_na(initial_ma[i]);
  for (std::size_t r = 0; r < rails.size(); ++r)
    signals_[components_ + r].na = to_na(rails[r].second);
  signals_[drive_].na = to_na(initial_drive_ma);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    Signal& power = signals_[drive_ + 1 + g];
    for (std::size_t i : groups[g].second) {
      signals_[i].mv = std::llround(voltage_v[i] * 1000);
      power.pw += signals_[i].na * signals_[i].mv;
    }
    power.na = nw_of(power.pw);
    power.shown = power.na;
  }
  for (std::size_t n = 0; n < nodes.size(); ++n) signals_[nodes_ + n].na = to_na(nodes[n].second);
}

void VcdWriter::set(uint64_t t_ps, std::size_t signal, double current_ma) {
  Signal& s = signals_[signal];
  if ((!s.writes && s.group_power == kNoGroup) || t_ps >= sel_.end_ps) return;
  if (!dumped_ && t_ps > sel_.start_ps) dump_initial(sel_.start_ps);
  const int64_t na = to_na(current_ma);
  if (na == s.na) return;
  if (s.group_power != kNoGroup) add_to_power(t_ps, s.group_power, (na - s.na) * s.mv);
  s.na = na;
  if (!dumped_ || !s.writes) return;  // at or before the window's start: part of $dumpvars
  stamp(t_ps);
  line(s);
}

void VcdWriter::change_activity(uint64_t t_ps, uint32_t component, Activity activity) {
  Signal& s = signals_[component];
  if ((s.group_busy == kNoGroup && s.group_reading == kNoGroup) || s.activity == activity ||
      t_ps >= sel_.end_ps)
    return;
  if (!dumped_ && t_ps > sel_.start_ps) dump_initial(sel_.start_ps);
  // A count kept as a power is: one member is 1 written ("r1"), 1e9 of its picounits.
  constexpr int64_t kOne = 1000000000;
  const auto count = [&](Activity a, int64_t delta) {
    if (a == Activity::Rest) return;
    if (s.group_busy != kNoGroup) add_to_power(t_ps, s.group_busy, delta);
    if (s.group_reading == kNoGroup || a == Activity::Other) return;
    const uint32_t i = s.group_reading + uint32_t(a) - uint32_t(Activity::Read);
    if (signals_[i].writes) add_to_power(t_ps, i, delta);
  };
  count(s.activity, -kOne);
  count(activity, kOne);
  s.activity = activity;
}

// A group's power (and busy count) is written once per time, after all its members' changes at
// that time: at the next time stamp or at the end.
void VcdWriter::add_to_power(uint64_t t_ps, uint32_t total, int64_t delta_pw) {
  if (t_ps != pending_t_) write_powers();
  pending_t_ = t_ps;
  Signal& g = signals_[total];
  g.pw += delta_pw;
  g.na = nw_of(g.pw);
  if (!g.pending) {
    g.pending = true;
    pending_.push_back(total);
  }
}

void VcdWriter::write_powers() {
  if (pending_.empty()) return;
  for (const uint32_t i : pending_) {
    Signal& g = signals_[i];
    g.pending = false;
    if (!dumped_ || g.na == g.shown) continue;  // before the window: part of $dumpvars
    g.shown = g.na;
    stamp(pending_t_);
    line(g);
  }
  pending_.clear();
}

void VcdWriter::dump_initial(uint64_t t_ps) {
  // The powers' changes held until now are in the values dumped.
  for (const uint32_t i : pending_) signals_[i].pending = false;
  pending_.clear();
  dumped_ = true;
  stamp(t_ps);
  text("$dumpvars\n");
  for (Signal& s : signals_) {
    s.shown = s.na;
    if (s.writes) line(s);
  }
  text("$end\n");
}

void VcdWriter::text(const std::string& s) {
  reserve(s.size());
  if (s.size() > buf_.size()) return write_out(s.data(), s.size());
  std::memcpy(&buf_[used_], s.data(), s.size());
  used_ += s.size();
}

void VcdWriter::stamp(uint64_t t_ps) {
  if (t_ps == last_stamp_) return;
  if (!pending_.empty() && pending_t_ != t_ps) write_powers();  // at their own time, before
  if (t_ps == last_stamp_) return;
  last_stamp_ = t_ps;
  reserve(kLineBytes);
  char* p = &buf_[used_];
  *p++ = '#';
  p = decimal(p, t_ps);
  *p++ = '\n';
  used_ = std::size_t(p - buf_.data());
}

void VcdWriter::line(Signal& s) {
  reserve(kLineBytes + s.id.size());
  char* const start = &buf_[used_];
  for (const Line& l : s.recent) {
    if (l.size != 0 && l.na == s.na) {
      std::memcpy(start, l.text.data(), l.text.size());  // a fixed size: two moves
      used_ += l.size;
      return;
    }
  }
  char* p = start;
  *p++ = 'r';
  // mA as an exact decimal of the nanoamps: whole part, then the six digits of the fraction
  // (two at a time from the table) without their trailing zeros.
  const uint64_t mag = s.na < 0 ? uint64_t(0) - uint64_t(s.na) : uint64_t(s.na);
  if (s.na < 0) *p++ = '-';
  p = decimal(p, mag / kNaPerMa);
  if (const uint64_t frac = mag % kNaPerMa; frac != 0) {
    *p++ = '.';
    const auto f = uint32_t(frac);
    p = digit_pairs(p, {f / 10000, f / 100 % 100, f % 100});
    // Counted rather than looped over: a loop's exit branch is mispredicted value by value.
    p -= (frac % 10 == 0) + (frac % 100 == 0) + (frac % 1000 == 0) + (frac % 10000 == 0) +
         (frac % 100000 == 0);
  }
  *p++ = ' ';
  p = std::copy(s.id.begin(), s.id.end(), p);
  *p++ = '\n';
  const auto size = std::size_t(p - start);
  used_ += size;
  if (size <= kKeptLineBytes) {
    Line& l = s.recent[s.replace];
    s.replace ^= 1;
    l.na = s.na;
    l.size = uint8_t(size);
    std::memcpy(l.text.data(), start, size);
  }
}

void VcdWriter::reserve(std::size_t bytes) {
  if (buf_.size() - used_ < bytes) flush();
}

void VcdWriter::flush() {
  write_out(buf_.data(), used_);
  used_ = 0;
}

void VcdWriter::write_out(const char* p, std::size_t n) {
  if (file_) file_->stream().write(p, std::streamsize(n));
  while (fd_ >= 0 && n > 0) {
    // send() rather than write(): a reader that has gone gives EPIPE, not SIGPIPE.
    const ssize_t sent = ::send(fd_, p, n, MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent < 0) {
      fd_ = -1;
      break;
    }
    p += sent;
    n -= std::size_t(sent);
  }
}

void VcdWriter::finish(uint64_t end_ps) {
  const uint64_t last = std::min(end_ps, sel_.end_ps);
  if (!dumped_) dump_initial(std::min(sel_.start_ps, last));
  write_powers();
  stamp(last);
  flush();
  if (file_) file_->commit();
}

}  // namespace ssd::model
