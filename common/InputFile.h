#pragma once
// Opening user input files (configs, traces, workload files). Only regular files are read: a
// FIFO without a writer would block the run forever and a device may never end, so both are
// refused with a clear message instead of being waited on.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace ssd {

// A read-only descriptor of `path`, or -1 with `reason` set ("cannot open: ...", "not a
// regular file ...").
inline int open_regular_file(const std::string& path, std::string& reason) {
  // O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    reason = std::string("cannot open: ") + std::strerror(errno);
    return -1;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    reason = S_ISDIR(st.st_mode) ? std::string("cannot open: ") + std::strerror(EISDIR)
                                 : std::string(
                                       "not a regular file (a FIFO, socket or device); "
                                       "give a file");
    ::close(fd);
    return -1;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

// The whole of `path`; throws Error("<path>: <reason>").
template <class Error>
std::string read_regular_file(const std::string& path) {
  std::string reason;
  const int fd = open_regular_file(path, reason);
  if (fd < 0) throw Error(path + ": " + reason);
  std::string text;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      throw Error(path + ": read error: " + std::strerror(err));
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return text;
}

}  // namespace ssd
