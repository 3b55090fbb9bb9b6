#include "tb/host/CheckedSink.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "common/Errors.h"

namespace ssd::tb {

struct CheckedSink::File {
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  File(std::string p, std::FILE* file) : path(std::move(p)), f(file) {}
  ~File() {
    if (f) std::fclose(f);
  }
  std::string path;
  std::FILE* f;       // null once closed
  std::string error;  // the first failure's message; empty while every byte reached the file
};

CheckedSink::CheckedSink(const std::string& path)
    : file_(std::make_shared<File>(path, std::fopen(path.c_str(), "wb"))) {
  if (!file_->f) throw InputError(path + ": cannot open for writing: " + std::strerror(errno));
}

void CheckedSink::check() const {
  if (!file_->error.empty()) throw std::runtime_error(file_->error);
}

void CheckedSink::fail(const char* reason) {
  if (file_->error.empty()) file_->error = file_->path + ": write failed: " + reason;
  throw std::runtime_error(file_->error);
}

std::streamsize CheckedSink::write(const char* s, std::streamsize n) {
  check();
  if (std::fwrite(s, 1, std::size_t(n), file_->f) != std::size_t(n)) fail(std::strerror(errno));
  return n;
}

bool CheckedSink::flush() {
  check();
  if (std::fflush(file_->f) != 0) fail(std::strerror(errno));
  return true;
}

void CheckedSink::close() {
  if (file_->f) {
    const int closed = std::fclose(file_->f);
    file_->f = nullptr;
    if (closed != 0) fail(std::strerror(errno));
  }
  check();
}

void CheckedSink::finish(boost::iostreams::filtering_ostream& chain) {
  const bool intact = chain.good();  // false: the stream caught an error of a link
  chain.reset();                     // flushes, closes the filters and this sink; may throw
  close();                           // throws the error the stream caught
  if (!intact) fail("the output stream failed");
}

}  // namespace ssd::tb
