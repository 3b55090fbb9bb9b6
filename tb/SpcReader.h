#pragma once
// UMass Trace Repository SPC traces: `ASU,LBA,Size,Opcode,Timestamp` per line.
#include <string>

#include "tb/TraceReader.h"

namespace ssd::tb {

// LBA is in 512-byte sectors, Size in bytes, Opcode r or w (either case), Timestamp in
// decimal seconds. The ASU (application storage unit, a volume) is validated but ignored:
// every ASU shares one address space, so requests to equal LBAs of two ASUs overlap. Mapping
// volumes apart is left to the trace-format work.
class SpcReader : public TraceReader {
 public:
  explicit SpcReader(std::string path);
  bool next(HostRequest& out) override;
};

}  // namespace ssd::tb
