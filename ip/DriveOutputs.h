#pragma once
// The files a drive writes as it runs (docs/energy-model.md): the energy series and the
// current waveforms, asked for by the CLI's options or by ssdtlm::SsdOptions alike.
#include <string>
#include <vector>

#include "model/power/VcdWriter.h"

namespace ssd::ip {

struct WaveformOptions {
  bool vcd = false;                       // current.vcd
  bool fst = false;                       // current.fst, GTKWave's compressed format
  model::VcdWriter::Selection selection;  // window and signals, of either file
};

struct DriveOutputs {
  std::string dir;      // where they go; empty: none
  bool series = false;  // energy.csv
  WaveformOptions waveform;
  // Busy time per group of components, for a timeline (tb/run/Timeline.h), and the probes
  // it adds to the waveforms.
  bool group_busy = false;
  std::vector<std::string> vcd_probes;
  // What names waveform.selection's signal patterns in an error (a pattern matching no signal).
  std::string signals_origin = "--vcd-signals";
};

}  // namespace ssd::ip
