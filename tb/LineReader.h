#pragma once
// Streams the lines of a text file, plain or gzip-compressed, through one fixed buffer: no
// allocation per line and memory independent of the file's length.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <streambuf>
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
  // Throws ssd::InputError for a read error, corrupt or truncated gzip data or an overlong
  // line, naming the file and the line.
  bool next(std::string_view& line);

  const std::string& path() const { return path_; }
  uint64_t line_number() const { return line_number_; }
  bool compressed() const { return gzip_ != nullptr; }

 private:
  void fill();

  std::string path_;
  int fd_ = -1;
  std::unique_ptr<std::streambuf> gzip_;  // the decompressing stream; null for plain files
  std::unique_ptr<char[]> buffer_;
  size_t begin_ = 0;  // first byte not yet returned
  size_t end_ = 0;    // end of the bytes read
  bool eof_ = false;
  uint64_t line_number_ = 0;
};

}  // namespace ssd::tb
