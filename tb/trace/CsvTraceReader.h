#pragma once
// The simulator's own trace format (docs/trace-formats.md): a header line
// `time_ns,op,offset,length`, then one request per line in the same layout.
#include <cstdint>
#include <string>
#include <string_view>

#include "tb/trace/TraceReader.h"

namespace ssd::tb {

class CsvTraceReader : public TraceReader {
 public:
  static constexpr const char* kHeader = "time_ns,op,offset,length";

  // Reads the header at once, so a file of another format fails before the simulation.
  explicit CsvTraceReader(std::string path, const TraceOptions& opts = {});

 private:
  Parsed parse(TraceRecord& out) override;
  // read, write or trim, or its initial, in any case.
  [[nodiscard]] bool op_of(std::string_view text, IoOp& out);
  // Bytes, whatever --sector-bytes says, but whole 512-byte sectors: else fails with `expected`.
  [[nodiscard]] bool bytes_field(std::string_view text, std::string_view field,
                                 const char* expected, uint64_t& out);
};

}  // namespace ssd::tb
