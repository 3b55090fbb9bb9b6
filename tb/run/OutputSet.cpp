#include "tb/run/OutputSet.h"

#include <fcntl.h>  // AT_FDCWD
#include <pthread.h>
#include <signal.h>
#include <stdio.h>  // renameat2, RENAME_EXCHANGE
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "common/Errors.h"

namespace ssd::tb {

namespace {

namespace fs = std::filesystem;

// What the signal handler removes: every file a run may leave in the staging directory (the
// outputs, the ".tmp" files they are written through and the ".hier" scratch file vcd2fst
// keeps beside the FST), then the directory. Kept as plain
// C strings, built before the handler is installed: a handler may call only
// async-signal-safe functions such as unlink() and rmdir().
constexpr size_t kPathMax = 4096;
constexpr const char* kStagedSuffixes[] = {"", ".tmp", ".hier"};
constexpr size_t kStagedNames = std::size(OutputSet::kFiles) * std::size(kStagedSuffixes);
char g_staged[kStagedNames][kPathMax];
char g_staging[kPathMax];
volatile std::sig_atomic_t g_armed = 0;
constexpr int kSignals[] = {SIGINT, SIGTERM};
struct sigaction g_previous[std::size(kSignals)];

extern "C" void remove_staging_and_die(int sig) {
  if (g_armed) {
    for (const char* path : g_staged) ::unlink(path);
    ::rmdir(g_staging);
  }
  // Die of the signal itself, so the exit status says what happened (130, 143 in a shell).
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void copy_path(char* to, const std::string& from) {
  if (from.size() >= kPathMax) throw InputError(from + ": path too long");
  std::memcpy(to, from.c_str(), from.size() + 1);
}

void arm(const std::string& staging) {
  copy_path(g_staging, staging);
  size_t i = 0;
  for (const char* name : OutputSet::kFiles)
    for (const char* suffix : kStagedSuffixes)
      copy_path(g_staged[i++], staging + "/" + name + suffix);
  g_armed = 1;
  struct sigaction sa {};
  sa.sa_handler = remove_staging_and_die;
  sigemptyset(&sa.sa_mask);
  for (size_t s = 0; s < std::size(kSignals); ++s) sigaction(kSignals[s], &sa, &g_previous[s]);
}

void disarm() {
  for (size_t s = 0; s < std::size(kSignals); ++s) sigaction(kSignals[s], &g_previous[s], nullptr);
  g_armed = 0;
}

// Holds SIGINT and SIGTERM back while the outputs are moved in: the handler would remove the
// staged files not yet moved and leave the target with part of the set. A signal that came
// meanwhile is delivered when the set is whole, and the process still dies of it.
class SignalsHeld {
 public:
  SignalsHeld() {
    sigset_t held;
    sigemptyset(&held);
    for (const int sig : kSignals) sigaddset(&held, sig);
    pthread_sigmask(SIG_BLOCK, &held, &previous_);
  }
  ~SignalsHeld() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t previous_;
};

// Staging directories of runs into the same target whose process is gone (SIGKILL, a
// crash): nothing else would ever remove them. Ours, from a dead process with our pid, too.
void remove_abandoned(const fs::path& parent, const std::string& prefix) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string pid_text = name.substr(prefix.size());
    char* end = nullptr;
    const long pid = std::strtol(pid_text.c_str(), &end, 10);
    if (pid_text.empty() || *end != '\0' || pid <= 0) continue;
    if (pid == ::getpid() || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)) {
      fs::remove_all(entry.path(), ec);
    }
  }
}

bool is_output_name(const std::string& name) {
  for (const char* file : OutputSet::kFiles)
    if (name == file) return true;
  return false;
}

// Gives the staging directory every entry of `target` that is not an output, so that swapping
// the two directories keeps them: files as hard links, symbolic links as copies. False when
// that cannot be done (a subdirectory, a file system without hard links): the set is then
// moved in file by file.
bool take_other_entries(const fs::path& target, const fs::path& staging) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(target, ec)) {
    const fs::path name = entry.path().filename();
    if (is_output_name(name.string())) continue;
    const fs::file_status status = entry.symlink_status(ec);
    if (fs::is_symlink(status)) {
      fs::copy_symlink(entry.path(), staging / name, ec);
    } else if (fs::is_regular_file(status)) {
      fs::create_hard_link(entry.path(), staging / name, ec);
    } else {
      return false;
    }
    if (ec) return false;
  }
  return !ec;
}

// Swaps the staging directory and the target in one step (Linux renameat2), so that even
// SIGKILL finds the target with one whole set. False when the swap cannot be made here.
bool swap_in(const fs::path& staging, const fs::path& target) {
  std::error_code ec;
  // A process working in the target would be left in the removed directory: not this one.
  if (fs::equivalent(fs::current_path(ec), target, ec)) return false;
  if (!take_other_entries(target, staging)) return false;
  fs::permissions(staging, fs::status(target, ec).permissions(), ec);
  return ::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) == 0;
}

}  // namespace

void check_output_dir(const std::string& dir) {
  if (dir.empty()) throw UsageError("--out: expected a directory name, got \"\"");
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    throw UsageError("--out: " + dir + " exists and is not a directory");
  }
}

OutputSet::OutputSet(std::string dir) : dir_(std::move(dir)) {
  check_output_dir(dir_);
  std::error_code ec;
  // An existing directory by its real path, so a symlinked --out still stages beside it.
  fs::path target = fs::is_directory(dir_, ec) ? fs::canonical(dir_, ec)
                                               : fs::absolute(dir_, ec).lexically_normal();
  if (!target.has_filename()) target = target.parent_path();  // "out/" names "out"
  fs::create_directories(target.parent_path(), ec);
  if (ec) throw InputError(target.parent_path().string() + ": cannot create: " + ec.message());
  // Next to the target, so the final renames stay within one file system.
  const std::string prefix = "." + target.filename().string() + ".ssdtlm-tmp.";
  target_ = target.string();
  staging_ = (target.parent_path() / (prefix + std::to_string(::getpid()))).string();
  remove_abandoned(target.parent_path(), prefix);
  // Armed before the directory exists, so no moment is left when a signal would leave it.
  arm(staging_);
  if (!fs::create_directory(staging_, ec)) {
    disarm();
    throw InputError(staging_ + ": cannot create: " + ec.message());
  }
}

OutputSet::~OutputSet() {
  if (!committed_) {
    std::error_code ec;
    fs::remove_all(staging_, ec);
  }
  disarm();
}

void OutputSet::commit() {
  const SignalsHeld held;
  const fs::path target = target_;
  if (!fs::exists(fs::symlink_status(target))) {
    fs::rename(staging_, target);  // one step: nothing was there
  } else if (!swap_in(staging_, target)) {
    // File by file. report.json marks a whole set: the earlier one goes first, the new one
    // comes last.
    for (auto it = std::rbegin(kFiles); it != std::rend(kFiles); ++it) fs::remove(target / *it);
    for (const char* name : kFiles) {
      const fs::path staged = fs::path(staging_) / name;
      if (fs::exists(staged)) fs::rename(staged, target / name);
    }
  }
  // After a swap, the earlier set; after the moves, what stayed (links to kept files).
  fs::remove_all(staging_);
  committed_ = true;
}

}  // namespace ssd::tb
