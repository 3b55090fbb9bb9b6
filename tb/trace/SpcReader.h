#pragma once
// UMass Trace Repository SPC traces: `ASU,LBA,Size,Opcode,Timestamp` per line.
#include <string>

#include "tb/trace/TraceReader.h"

namespace ssd::tb {

// LBA is in sectors (--sector-bytes, 512 by default), Size in bytes, Opcode r or w (either
// case), Timestamp in decimal seconds. The ASU (application storage unit) is the volume.
class SpcReader : public TraceReader {
 public:
  explicit SpcReader(std::string path, const TraceOptions& opts = {});

 private:
  Parsed parse(TraceRecord& out) override;
};

}  // namespace ssd::tb
