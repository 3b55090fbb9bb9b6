#pragma once
// The file at the end of a boost::iostreams output chain (a compressor, then the file), which
// says when its bytes did not all reach the disk. An std::ofstream pushed into the chain does
// not: boost writes through its rdbuf()->sputn and drops a short count, so a full disk left a
// truncated file that looked whole (and a gzip compressor retried the write forever).
#include <ios>
#include <memory>
#include <string>

#include <boost/iostreams/categories.hpp>
#include <boost/iostreams/filtering_stream.hpp>

namespace ssd::tb {

class CheckedSink {
 public:
  using char_type = char;
  struct category : boost::iostreams::sink_tag,
                    boost::iostreams::closable_tag,
                    boost::iostreams::flushable_tag,
                    boost::iostreams::optimally_buffered_tag {};

  // Creates (or truncates) `path`; throws ssd::InputError when it cannot.
  explicit CheckedSink(const std::string& path);

  // Each throws std::runtime_error("<path>: write failed: <reason>") when a byte did not reach
  // the file, and so does every call after that: nothing is written past a gap.
  std::streamsize write(const char* s, std::streamsize n);
  bool flush();
  void close();
  // The chain's buffer before the sink: a write to the file per 64 KiB, not per 4 KiB.
  static std::streamsize optimal_buffer_size() { return 1 << 16; }

  // Ends `chain`, whose last link is this sink: flushes it, closes its filters (a compressor
  // writes its trailer) and the file. Throws as write() when any byte written into the chain
  // is missing from the file, also when the chain's stream caught the sink's error on the way
  // (an ostream turns an exception of its buffer into badbit).
  void finish(boost::iostreams::filtering_ostream& chain);

 private:
  struct File;
  void check() const;  // throws the first failure's message, if there was one
  // Throws the first failure's message, `reason`'s when this is the first.
  [[noreturn]] void fail(const char* reason);
  std::shared_ptr<File> file_;  // boost keeps a copy of the sink: the copies share the file
};

}  // namespace ssd::tb
