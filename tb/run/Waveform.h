#pragma once
// The waveform outputs of a run and their command-line options: --vcd (DIR/current.vcd),
// --fst (DIR/current.fst, GTKWave's compressed format), --vcd-window and --vcd-signals.
#include <string>

#include <boost/program_options.hpp>

#include "ip/DriveOutputs.h"

namespace ssd::tb {

using ip::WaveformOptions;

boost::program_options::options_description waveform_options();
// Throws ssd::UsageError naming the option for a bad value, or for --vcd-window or
// --vcd-signals without --vcd or --fst.
WaveformOptions waveform_options(const boost::program_options::variables_map& vm);

// "START:END" of simulated time (docs/energy-model.md#currentvcd) into sel's window. Throws
// ssd::UsageError naming --vcd-window.
void parse_window(const std::string& text, model::VcdWriter::Selection& sel);

}  // namespace ssd::tb
