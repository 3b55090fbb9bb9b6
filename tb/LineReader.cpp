#include "tb/LineReader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <boost/iostreams/device/file_descriptor.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filtering_streambuf.hpp>
#include <cerrno>
#include <cstring>
#include <ios>

#include "common/Errors.h"

namespace ssd::tb {

namespace {

namespace io = boost::iostreams;

// Large reads keep the per-line cost of the system calls and of the decompressor negligible.
constexpr size_t kBufferBytes = LineReader::kMaxLineBytes;

std::string gzip_reason(const io::gzip_error& e) {
  switch (e.error()) {
    case io::gzip::zlib_error:
      return e.zlib_error_code() == io::zlib::buf_error ? "truncated gzip data"
                                                        : "corrupt gzip data";
    case io::gzip::bad_crc:
    case io::gzip::bad_length:
      return "corrupt gzip data (checksum or length mismatch)";
    case io::gzip::bad_header:
      return "bad or truncated gzip header";
    case io::gzip::bad_footer:
      return "truncated gzip data (bad footer)";
    case io::gzip::bad_method:
      return "unsupported gzip compression method";
  }
  return "corrupt gzip data";
}

}  // namespace

LineReader::LineReader(std::string path) : path_(std::move(path)), buffer_(new char[kBufferBytes]) {
  const auto cannot_open = [this](int err) {
    throw InputError(path_ + ": cannot open: " + std::strerror(err));
  };
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) cannot_open(errno);
  // A directory opens fine on Linux and then fails to read; say what it is instead.
  struct stat st {};
  if (::fstat(fd_, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd_);
    cannot_open(EISDIR);
  }
  fill();
  if (end_ >= 2 && static_cast<unsigned char>(buffer_[0]) == 0x1f &&
      static_cast<unsigned char>(buffer_[1]) == 0x8b) {
    if (::lseek(fd_, 0, SEEK_SET) != 0) cannot_open(errno);
    auto in = std::make_unique<io::filtering_istreambuf>();
    in->push(io::gzip_decompressor());
    in->push(io::file_descriptor_source(fd_, io::never_close_handle));
    gzip_ = std::move(in);
    begin_ = end_ = 0;
    eof_ = false;
    fill();
  }
}

LineReader::~LineReader() {
  gzip_.reset();  // it reads through fd_
  if (fd_ >= 0) ::close(fd_);
}

void LineReader::fill() {
  char* const at = buffer_.get() + end_;
  const size_t room = kBufferBytes - end_;
  const auto fail = [this](const std::string& reason) {
    throw InputError(path_ + ": after line " + std::to_string(line_number_) + ": " + reason);
  };
  ssize_t n = 0;
  if (gzip_) {
    try {
      n = gzip_->sgetn(at, static_cast<std::streamsize>(room));
    } catch (const io::gzip_error& e) {
      fail(gzip_reason(e));
    } catch (const std::ios_base::failure& e) {
      fail(std::string("read error: ") + e.what());
    }
  } else {
    do {
      n = ::read(fd_, at, room);
    } while (n < 0 && errno == EINTR);
    if (n < 0) fail(std::string("read error: ") + std::strerror(errno));
  }
  if (n <= 0) eof_ = true;
  end_ += static_cast<size_t>(std::max<ssize_t>(n, 0));
}

bool LineReader::next(std::string_view& line) {
  for (;;) {
    const char* const start = buffer_.get() + begin_;
    const size_t available = end_ - begin_;
    const auto* newline = static_cast<const char*>(std::memchr(start, '\n', available));
    if (newline != nullptr || (eof_ && available != 0)) {
      const size_t length = newline != nullptr ? static_cast<size_t>(newline - start) : available;
      line = std::string_view(start, length);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      begin_ += newline != nullptr ? length + 1 : length;
      ++line_number_;
      return true;
    }
    if (eof_) return false;
    // Keep the partial line and read more after it.
    std::memmove(buffer_.get(), start, available);
    begin_ = 0;
    end_ = available;
    if (end_ == kBufferBytes) {
      throw InputError(path_ + ":" + std::to_string(line_number_ + 1) +
                       ": record: line longer than " + std::to_string(kMaxLineBytes) +
                       " bytes (not a text trace?)");
    }
    fill();
  }
}

}  // namespace ssd::tb
