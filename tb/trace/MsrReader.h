#pragma once
// MSR Cambridge traces: `Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime`.
#include <string>

#include "tb/trace/TraceReader.h"

namespace ssd::tb {

// Timestamp is a Windows FILETIME (100 ns ticks since 1601), DiskNumber the volume, Type Read
// or Write (any case), Offset and Size bytes. ResponseTime, measured on the original disk, is
// validated and ignored.
class MsrReader : public TraceReader {
 public:
  explicit MsrReader(std::string path, const TraceOptions& opts = {});

 private:
  Parsed parse(TraceRecord& out) override;
};

}  // namespace ssd::tb
