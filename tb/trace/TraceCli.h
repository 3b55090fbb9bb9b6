#pragma once
// The command-line flags of the trace options (docs/trace-formats.md), shared by the
// simulator and `ssdtlm trace-stats`.
#include <boost/program_options.hpp>

#include "tb/trace/TraceOptions.h"

namespace ssd::tb {

// How a trace is read and which records are kept: both commands.
boost::program_options::options_description trace_input_options();
// How a trace is replayed into a drive: the simulator only.
boost::program_options::options_description trace_replay_options();

// The options present in `vm` (from either group) over the defaults. Throws ssd::UsageError
// naming the flag for a bad value.
TraceOptions trace_options(const boost::program_options::variables_map& vm);

}  // namespace ssd::tb
