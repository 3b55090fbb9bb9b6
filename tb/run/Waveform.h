#pragma once
// The waveform outputs of a run and their command-line options: --vcd (DIR/current.vcd),
// --fst (DIR/current.fst, GTKWave's compressed format), --vcd-window and --vcd-signals.
#include <sys/types.h>

#include <string>

#include <boost/program_options.hpp>

#include "model/power/VcdWriter.h"

namespace ssd::tb {

struct WaveformOptions {
  bool vcd = false;
  bool fst = false;
  model::VcdWriter::Selection selection;  // window and signals, of either file
};

boost::program_options::options_description waveform_options();
// Throws ssd::UsageError naming the option for a bad value, or for --vcd-window or
// --vcd-signals without --vcd or --fst.
WaveformOptions waveform_options(const boost::program_options::variables_map& vm);

// "START:END" of simulated time (docs/energy-model.md#currentvcd) into sel's window. Throws
// ssd::UsageError naming --vcd-window.
void parse_window(const std::string& text, model::VcdWriter::Selection& sel);

// GTKWave's vcd2fst writing an FST from the VCD streamed into fd() as the run goes: no Debian
// package ships a library that writes FST, and streamed, the VCD never lands on disk.
class FstConverter {
 public:
  // Starts vcd2fst; throws ssd::InputError when it cannot (not installed).
  explicit FstConverter(const std::string& fst_path);
  // Without finish() (an error on the way): ends the stream and waits for vcd2fst.
  ~FstConverter();
  FstConverter(const FstConverter&) = delete;
  FstConverter& operator=(const FstConverter&) = delete;

  int fd() const { return fd_; }
  // Ends the stream and waits for vcd2fst; throws ssd::InputError with its words when it failed.
  void finish();

 private:
  int wait();  // ends the stream; vcd2fst's wait status

  std::string path_;
  int fd_ = -1;   // our end of vcd2fst's standard input
  int log_ = -1;  // its standard output and error
  pid_t pid_ = -1;
};

}  // namespace ssd::tb
