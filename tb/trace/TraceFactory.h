#pragma once
// Opens the trace reader the command line asks for: by format name, or detected from the file.
#include <memory>
#include <string>

#include "tb/trace/TraceOptions.h"
#include "tb/trace/TraceReader.h"

namespace ssd::tb {

// The trace format names, for messages and --help: "spc, csv, disksim, msr, fiu, blkparse".
const char* trace_formats();

// The format of the first record line of `path` (plain or gzip). Throws ssd::InputError when
// no format fits, naming the line, or when the file has no record line.
std::string detect_format(const std::string& path);

// Opens `path` in opts.format ("auto": detect_format(), and counters().detected is set).
// When an option needs the whole trace's extent (--fit scale without --trace-capacity,
// --volume-map concat without --volumes or --volume), a first streaming pass measures it.
// Throws ssd::InputError for an unknown format, an unreadable file or contradictory options.
std::unique_ptr<TraceReader> open_trace(const std::string& path, TraceOptions opts);

}  // namespace ssd::tb
