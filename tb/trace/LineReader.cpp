#include "tb/trace/LineReader.h"

#include <unistd.h>

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/Errors.h"
#include "common/InputFile.h"

namespace ssd::tb {

namespace {

// Reads of 64 KiB (a thousand lines of a trace) keep the per-line cost of the system calls
// and of the decompressor negligible.
constexpr size_t kInitialBufferBytes = size_t{1} << 16;
constexpr size_t kCompressedBufferBytes = size_t{1} << 18;
// zlib's window bits plus 16: a gzip wrapper, whose CRC-32 and length (ISIZE) inflate checks.
constexpr int kGzipWindowBits = 15 + 16;

}  // namespace

// zlib's own gzip decoding, which (unlike Boost.Iostreams' gzip_decompressor) checks ISIZE.
struct LineReader::Gzip {
  z_stream z{};
  std::unique_ptr<unsigned char[]> in{new unsigned char[kCompressedBufferBytes]};
  bool input_done = false;   // the file is read to its end
  bool member_done = false;  // the last member ended; another may follow (cat a.gz b.gz)

  Gzip() {
    if (inflateInit2(&z, kGzipWindowBits) != Z_OK) throw std::bad_alloc();
  }
  ~Gzip() { inflateEnd(&z); }
};

LineReader::LineReader(std::string path)
    : path_(std::move(path)),
      buffer_(new char[kInitialBufferBytes]),
      capacity_(kInitialBufferBytes) {
  std::string reason;
  fd_ = open_regular_file(path_, reason);
  if (fd_ < 0) throw InputError(path_ + ": " + reason);
  try {
    fill();
    if (end_ >= 2 && static_cast<unsigned char>(buffer_[0]) == 0x1f &&
        static_cast<unsigned char>(buffer_[1]) == 0x8b) {
      if (::lseek(fd_, 0, SEEK_SET) != 0) {
        throw InputError(path_ + ": cannot open: " + std::strerror(errno));
      }
      gzip_ = std::make_unique<Gzip>();
      begin_ = end_ = 0;
      eof_ = false;
      fill();
    }
  } catch (...) {
    ::close(fd_);  // the destructor does not run for a constructor that throws
    throw;
  }
}

LineReader::~LineReader() {
  if (fd_ >= 0) ::close(fd_);
}

size_t LineReader::inflate_into(char* at, size_t room) {
  z_stream& z = gzip_->z;
  z.next_out = reinterpret_cast<unsigned char*>(at);
  z.avail_out = static_cast<uInt>(room);
  while (z.avail_out != 0) {
    if (z.avail_in == 0 && !gzip_->input_done) {
      ssize_t n = 0;
      do {
        n = ::read(fd_, gzip_->in.get(), kCompressedBufferBytes);
      } while (n < 0 && errno == EINTR);
      if (n < 0) throw InputError(std::string("read error: ") + std::strerror(errno));
      gzip_->input_done = n == 0;
      z.next_in = gzip_->in.get();
      z.avail_in = static_cast<uInt>(n);
    }
    if (gzip_->member_done) {
      if (z.avail_in == 0 && gzip_->input_done) {
        eof_ = true;
        break;
      }
      inflateReset(&z);
      gzip_->member_done = false;
    }
    const int rc = inflate(&z, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      gzip_->member_done = true;
    } else if (rc == Z_BUF_ERROR) {  // no progress: more input is needed
      if (z.avail_in == 0 && gzip_->input_done) throw InputError("truncated gzip data");
    } else if (rc != Z_OK) {
      // "incorrect data check" (CRC), "incorrect length check" (ISIZE), "invalid block type"...
      throw InputError(std::string("corrupt gzip data (") + (z.msg ? z.msg : "zlib error") + ")");
    }
  }
  return room - z.avail_out;
}

void LineReader::fill() {
  char* const at = buffer_.get() + end_;
  const size_t room = capacity_ - end_;
  if (gzip_) {
    try {
      end_ += inflate_into(at, room);
    } catch (const InputError& e) {
      throw InputError(path_ + ": after line " + std::to_string(line_number_) + ": " + e.what());
    }
    return;
  }
  ssize_t n = 0;
  do {
    n = ::read(fd_, at, room);
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    throw InputError(path_ + ": after line " + std::to_string(line_number_) +
                     ": read error: " + std::strerror(errno));
  }
  if (n == 0) eof_ = true;
  end_ += static_cast<size_t>(n);
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
    if (end_ == capacity_) {
      if (capacity_ == kMaxLineBytes) {
        throw InputError(path_ + ":" + std::to_string(line_number_ + 1) +
                         ": record: line longer than " + std::to_string(kMaxLineBytes) +
                         " bytes (not a text trace?)");
      }
      capacity_ = std::min(2 * capacity_, kMaxLineBytes);
      std::unique_ptr<char[]> bigger(new char[capacity_]);
      std::memcpy(bigger.get(), buffer_.get(), end_);
      buffer_ = std::move(bigger);
    }
    fill();
  }
}

}  // namespace ssd::tb
