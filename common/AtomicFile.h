#pragma once
// An output file that is written whole or not at all: data goes to "<path><suffix>" (".tmp")
// and is renamed onto <path> by commit(). Destroyed without commit (an error on the way), it
// leaves nothing. Processes that may write one path at once (sweep workers storing the same
// aged drive) give each its own suffix (unique_suffix()): each renames a whole file, and a
// reader sees one of them.
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

namespace ssd {

class AtomicFile {
 public:
  explicit AtomicFile(std::string path, const std::string& suffix = ".tmp")
      : path_(std::move(path)), tmp_(path_ + suffix) {
    out_.open(tmp_, std::ios::binary | std::ios::trunc);
    if (!out_) throw std::runtime_error(path_ + ": cannot open for writing");
  }
  ~AtomicFile() {
    if (!committed_) {
      out_.close();
      std::remove(tmp_.c_str());
    }
  }
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // ".tmp.<pid>.<n>": this process's n-th.
  static std::string unique_suffix() {
    static std::atomic<uint64_t> n{0};
    return ".tmp." + std::to_string(getpid()) + "." + std::to_string(n++);
  }

  std::ofstream& stream() { return out_; }
  const std::string& path() const { return path_; }

  void commit() {
    out_.close();
    if (!out_ || std::rename(tmp_.c_str(), path_.c_str()) != 0)
      throw std::runtime_error(path_ + ": write failed");
    committed_ = true;
  }

 private:
  std::string path_;
  std::string tmp_;
  std::ofstream out_;
  bool committed_ = false;
};

}  // namespace ssd
