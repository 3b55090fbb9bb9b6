#pragma once
// The simulator's own trace format (docs/trace-formats.md): a header line
// `time_ns,op,offset,length`, then one request per line in the same layout.
#include <string>

#include "tb/trace/TraceReader.h"

namespace ssd::tb {

class CsvTraceReader : public TraceReader {
 public:
  static constexpr const char* kHeader = "time_ns,op,offset,length";

  // Reads the header at once, so a file of another format fails before the simulation.
  explicit CsvTraceReader(std::string path, const TraceOptions& opts = {});

 private:
  bool parse(TraceRecord& out) override;
};

}  // namespace ssd::tb
