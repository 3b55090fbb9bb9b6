#pragma once
// An output file that is written whole or not at all: data goes to "<path>.tmp" and is renamed
// onto <path> by commit(). Destroyed without commit (an error on the way), it leaves nothing.
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

namespace ssd {

class AtomicFile {
 public:
  explicit AtomicFile(std::string path) : path_(std::move(path)), tmp_(path_ + ".tmp") {
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
