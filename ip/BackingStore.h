#pragma once
// The drive's bytes for a platform that reads back what it wrote (ssdtlm::SsdOptions::
// backing_store). The model itself keeps version tokens, not data; this sparse store keeps
// the bytes in 4 KiB chunks allocated on first write, so memory follows the data written,
// not the capacity. Never-written and trimmed bytes read as zero.
#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace ssd::ip {

class BackingStore {
 public:
  static constexpr uint64_t kChunkBytes = 4096;

  void write(uint64_t address, const uint8_t* data, uint64_t length);
  void read(uint64_t address, uint8_t* data, uint64_t length) const;
  // Trim: the range reads as zero again (whole chunks are freed).
  void discard(uint64_t address, uint64_t length);
  std::size_t chunks() const { return chunks_.size(); }

 private:
  using Chunk = std::array<uint8_t, kChunkBytes>;
  std::unordered_map<uint64_t, std::unique_ptr<Chunk>> chunks_;
};

}  // namespace ssd::ip
