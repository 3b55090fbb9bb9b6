#pragma once
// FIU IODedup traces: `ts pid process lba size rw major minor md5` per line.
#include <cstdint>
#include <string>
#include <string_view>

#include "tb/trace/TraceReader.h"

namespace ssd::tb {

// ts in ns, lba and size in sectors (--sector-bytes), rw R or W (any case), major:minor the
// device (the volume, major << 32 | minor), md5 the 32 hex digits of the block's content,
// carried as the request's fingerprint so a deduplicating model can tell equal data apart.
class FiuReader : public TraceReader {
 public:
  explicit FiuReader(std::string path, const TraceOptions& opts = {});

 private:
  Parsed parse(TraceRecord& out) override;
  // Fails unless a device number fits in 32 bits.
  [[nodiscard]] bool check_device(uint64_t number, std::string_view field, std::string_view text);
  // The 32 hexadecimal digits of an MD5 digest.
  [[nodiscard]] bool md5_field(std::string_view text, Fingerprint& out);
};

}  // namespace ssd::tb
