#include "ip/FstConverter.h"

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

#include "common/Errors.h"

extern char** environ;

namespace ssd::ip {
namespace {

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

FstConverter::FstConverter(const std::string& fst_path) : path_(fst_path) {
  // A socket rather than a pipe, so that the writer's send() can ask for EPIPE instead of
  // SIGPIPE; close-on-exec, so that vcd2fst holds no copy of our end and sees its end.
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
    throw InputError(name() + ": cannot start vcd2fst: " + std::string(std::strerror(errno)));
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
    throw InputError(name() + ": cannot run GTKWave's vcd2fst: " + std::string(std::strerror(err)) +
                     " (scripts/install-deps.sh installs gtkwave)");
  }
}

std::string FstConverter::name() const { return std::filesystem::path(path_).filename().string(); }

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

}  // namespace ssd::ip
