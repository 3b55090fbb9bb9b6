#pragma once
#include <sys/types.h>

#include <string>

namespace ssd::ip {

// GTKWave's vcd2fst writing an FST from the VCD streamed into fd() as the run goes: no Debian
// package ships a library that writes FST, and streamed, the VCD never lands on disk.
class FstConverter {
 public:
  // Starts vcd2fst; throws ssd::InputError naming the file when it cannot (not installed).
  explicit FstConverter(const std::string& fst_path);
  // Without finish() (an error on the way): ends the stream and waits for vcd2fst.
  ~FstConverter();
  FstConverter(const FstConverter&) = delete;
  FstConverter& operator=(const FstConverter&) = delete;

  int fd() const { return fd_; }
  // Ends the stream and waits for vcd2fst; throws ssd::InputError with its words when it failed.
  void finish();

 private:
  int wait();                // ends the stream; vcd2fst's wait status
  std::string name() const;  // the file's name, for messages before it exists

  std::string path_;
  int fd_ = -1;   // our end of vcd2fst's standard input
  int log_ = -1;  // its standard output and error
  pid_t pid_ = -1;
};

}  // namespace ssd::ip
