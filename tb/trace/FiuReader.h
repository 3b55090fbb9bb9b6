#pragma once
// FIU IODedup traces: `ts pid process lba size rw major minor md5` per line.
#include <string>

#include "tb/trace/TraceReader.h"

namespace ssd::tb {

// ts in ns, lba and size in sectors (--sector-bytes), rw R or W (any case), major:minor the
// device (the volume, major << 32 | minor), md5 the 32 hex digits of the block's content,
// carried as the request's fingerprint so a deduplicating model can tell equal data apart.
class FiuReader : public TraceReader {
 public:
  explicit FiuReader(std::string path, const TraceOptions& opts = {});

 private:
  bool parse(TraceRecord& out) override;
};

}  // namespace ssd::tb
