#pragma once
// The waveform outputs of a run and their command-line options: --vcd (DIR/current.vcd),
// --fst (DIR/current.fst, GTKWave's compressed format), --vcd-window and --vcd-signals.
#include <string>

#include <boost/program_options.hpp>

#include "model/VcdWriter.h"

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

// No FST writer library is packaged, so the FST is GTKWave's own vcd2fst's conversion of the
// VCD. Throws ssd::InputError when vcd2fst is not on PATH.
void check_vcd2fst();
// Converts `vcd` into `fst`; throws ssd::InputError with vcd2fst's message when it fails.
void vcd_to_fst(const std::string& vcd, const std::string& fst);

}  // namespace ssd::tb
