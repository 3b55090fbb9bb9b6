#pragma once
// DiskSim ASCII traces: `time devno lba size flags` per line, separated by blanks.
#include <string>

#include "tb/trace/TraceReader.h"

namespace ssd::tb {

// time is decimal in --time-unit (ns by default: the SSDSim and MQSim files; the Microsoft
// server traces use ms), devno is the volume, lba and size count sectors (--sector-bytes),
// and flags bit 0 set means a read.
class DiskSimReader : public TraceReader {
 public:
  explicit DiskSimReader(std::string path, const TraceOptions& opts = {});

 private:
  Parsed parse(TraceRecord& out) override;
};

}  // namespace ssd::tb
