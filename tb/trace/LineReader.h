#pragma once
// Streams the lines of a text file, plain or gzip-compressed, through one buffer: no
// allocation per line and memory independent of the file's length. The buffer starts small
// (a short file, a fuzz input, costs no megabyte) and doubles only for a line longer than it,
// up to kMaxLineBytes.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace ssd::tb {

class LineReader {
 public:
  // The longest line accepted; a longer one is not text (or not a trace).
  static constexpr size_t kMaxLineBytes = size_t{1} << 20;

  // Opens `path`; gzip data is recognised by its magic bytes, whatever the file is called.
  // Throws ssd::InputError("<path>: cannot open: <reason>").
  explicit LineReader(std::string path);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line without its "\n" or "\r\n", valid until the next call; false at the end.
  // Throws ssd::InputError for a read error, corrupt or truncated gzip data (its CRC and
  // length are checked at the end of every member) or an overlong line, naming the file and
  // the line.
  bool next(std::string_view& line);

  const std::string& path() const { return path_; }
  uint64_t line_number() const { return line_number_; }
  bool compressed() const { return gzip_ != nullptr; }
  // Gzip data read to its end, so every member's CRC and length were checked. False while a
  // reader that stops early (--max-requests, --end-s) has left data unread.
  bool gzip_verified() const { return gzip_ != nullptr && eof_; }

 private:
  struct Gzip;
  void fill();
  size_t inflate_into(char* at, size_t room);

  std::string path_;
  int fd_ = -1;
  std::unique_ptr<Gzip> gzip_;  // the decompressor and its input; null for plain files
  std::unique_ptr<char[]> buffer_;
  size_t capacity_;   // bytes of buffer_
  size_t begin_ = 0;  // first byte not yet returned
  size_t end_ = 0;    // end of the bytes read
  bool eof_ = false;
  uint64_t line_number_ = 0;
};

}  // namespace ssd::tb
