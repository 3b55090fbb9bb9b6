#include "tb/run/Waveform.h"

#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "common/Errors.h"

extern char** environ;

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

uint64_t big_endian64(const unsigned char* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = v << 8 | p[i];
  return v;
}

// What is missing from the FST at `path` ("" when nothing is): vcd2fst exits 0 when its writes
// fail (a full disk), leaving the file cut short. An FST is a run of blocks, each a type byte
// then its length (8 bytes, big-endian, counting themselves); the header block, first, says
// how many value-change blocks follow, and the geometry and hierarchy blocks end the file.
std::string fst_missing(const std::string& path) {
  // Block types, as GTKWave's fstapi.h numbers them (FST_BL_*).
  enum : unsigned char {
    kHeader = 0,
    kChanges = 1,
    kGeometry = 3,
    kHierarchy = 4,
    kChangesAliased = 5,
    kHierarchyLz4 = 6,
    kHierarchyLz4Twice = 7,
    kChangesAliased2 = 8
  };
  constexpr std::size_t kHeaderRead = 73;  // through the count of value-change blocks
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  const uint64_t size = in ? uint64_t(in.tellg()) : 0;
  uint64_t at = 0, changes = 0, changes_said = 0;
  bool geometry = false, hierarchy = false;
  while (at < size) {
    unsigned char b[kHeaderRead];
    in.seekg(std::streamoff(at));
    if (!in.read(reinterpret_cast<char*>(b), at == 0 ? kHeaderRead : 9) ||
        (at == 0) != (b[0] == kHeader))
      return "no block header at byte " + std::to_string(at);
    const uint64_t length = big_endian64(b + 1);
    if (length < 8 || length > size - at - 1)
      return "the block at byte " + std::to_string(at) + " is cut short";
    if (at == 0) changes_said = big_endian64(b + kHeaderRead - 8);
    changes += b[0] == kChanges || b[0] == kChangesAliased || b[0] == kChangesAliased2;
    geometry |= b[0] == kGeometry;
    hierarchy |= b[0] == kHierarchy || b[0] == kHierarchyLz4 || b[0] == kHierarchyLz4Twice;
    at += 1 + length;
  }
  if (size == 0 || changes != changes_said || !geometry || !hierarchy)
    return std::to_string(changes) + " of " + std::to_string(changes_said) +
           " value-change blocks, " + (geometry ? "" : "no ") + "geometry, " +
           (hierarchy ? "" : "no ") + "hierarchy";
  return "";
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

FstConverter::FstConverter(const std::string& fst_path) : path_(fst_path) {
  // A socket rather than a pipe, so that the writer's send() can ask for EPIPE instead of
  // SIGPIPE; close-on-exec, so that vcd2fst holds no copy of our end and sees its end.
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
    throw InputError("--fst: cannot start vcd2fst: " + std::string(std::strerror(errno)));
  log_ = ::memfd_create("vcd2fst", MFD_CLOEXEC);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, ends[1], STDIN_FILENO);
  if (log_ >= 0) {
    posix_spawn_file_actions_adddup2(&actions, log_, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, log_, STDERR_FILENO);
  }
  std::string prog = "vcd2fst", from = "-", to = path_;
  char* argv[] = {prog.data(), from.data(), to.data(), nullptr};
  const int err = ::posix_spawnp(&pid_, "vcd2fst", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(ends[1]);
  fd_ = ends[0];
  if (err != 0) {
    pid_ = -1;
    ::close(fd_);
    if (log_ >= 0) ::close(log_);
    throw InputError("--fst: cannot run GTKWave's vcd2fst: " + std::string(std::strerror(err)) +
                     " (scripts/install-deps.sh installs gtkwave)");
  }
}

int FstConverter::wait() {
  ::close(fd_);
  fd_ = -1;
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  return status;
}

FstConverter::~FstConverter() {
  if (pid_ >= 0) wait();
  if (log_ >= 0) ::close(log_);
}

void FstConverter::finish() {
  const int status = wait();
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && std::filesystem::exists(path_)) {
    const std::string missing = fst_missing(path_);
    if (missing.empty()) return;
    throw InputError(path_ + ": write failed: vcd2fst left it incomplete (" + missing + ")");
  }
  std::string said;
  char chunk[4096];
  for (ssize_t n; log_ >= 0 && (n = ::pread(log_, chunk, sizeof chunk, off_t(said.size()))) > 0;)
    said.append(chunk, std::size_t(n));
  throw InputError(path_ + ": vcd2fst failed: " + (said.empty() ? "no message" : said));
}

}  // namespace ssd::tb
